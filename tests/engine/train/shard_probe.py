"""One worker of a two-worker cluster that records which examples it trains on, per shard policy.

    python -m tests.engine.train.shard_probe CONFIG OUT   (TF_CONFIG in the environment)

It builds the engine's own input source for each policy and iterates one
epoch of the distributed dataset exactly as the custom loop does; the
examples' first feature is their id (tests/data_factory.write_float_tfrecords).
"""

from __future__ import annotations

import json
import sys

from engine.core.config import RunConfig
from engine.core.sources import inspect, resolve_shard_policy
from engine.core.tfconfig import role_from_environment


def main(config_path: str, out: str) -> None:
    from engine.train.datasets import make_source
    from engine.train.tf_runtime import tf

    base = RunConfig.load(config_path)
    workers = role_from_environment("multi_worker_mirrored").num_workers
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    seen: dict[str, list[int]] = {}
    for policy in ("auto", "file", "data", "off"):
        config = base.replace(data=base.data.__class__(**{**base.data.__dict__, "shard_policy": policy}))
        info = inspect(config)
        resolved = resolve_shard_policy(policy, info, workers, config.validation_split)
        source = make_source(config, info, resolved, workers)
        iterator = iter(source.distributed_train(strategy, epoch=0))
        ids: list[int] = []
        for _ in range(source.steps_per_epoch):
            features, _ = next(iterator)
            for local in strategy.experimental_local_results(features):
                ids += [int(v) for v in local.numpy()[:, 0]]
        seen[f"{policy}->{resolved}"] = ids
    with open(out, "w", encoding="utf-8") as f:
        json.dump(seen, f)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
