"""Two real workers on 127.0.0.1 see disjoint examples under file and data sharding, the same under off."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine.core.tfconfig import for_task, local_cluster, render
from tests.data_factory import write_float_tfrecords
from tests.engine.train.worker_process import env, write_config
from tests.repo import REPO

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]


def test_two_workers_see_disjoint_examples(tmp_path):
    write_float_tfrecords(tmp_path / "records", files=4, per_file=64)
    config = write_config(
        tmp_path,
        {
            "strategy": "multi_worker_mirrored",
            "global_batch_size": 32,
            "seed": 5,
            "data": {"kind": "tfrecord", "path": str(tmp_path / "records" / "*.tfrecord"), "feature_shape": [6]},
        },
    )
    cluster = local_cluster(2)
    procs = []
    try:
        for i in (0, 1):
            with open(tmp_path / f"worker-{i}.log", "w") as log:
                procs.append(
                    subprocess.Popen(
                        [
                            sys.executable,
                            "-m",
                            "tests.engine.train.shard_probe",
                            str(config),
                            str(tmp_path / f"{i}.json"),
                        ],
                        cwd=REPO,
                        env={**env(), "TF_CONFIG": render(for_task(cluster, "worker", i))},
                        stdin=subprocess.DEVNULL,
                        stdout=log,
                        stderr=log,
                    )
                )
        codes = [p.wait(timeout=240) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait(timeout=10)
    assert codes == [0, 0], [(tmp_path / f"worker-{i}.log").read_text()[-2000:] for i in (0, 1)]
    first, second = (json.loads((tmp_path / f"{i}.json").read_text()) for i in (0, 1))
    assert set(first) == {"auto->file", "file->file", "data->data", "off->off"}
    for policy in ("auto->file", "file->file", "data->data"):
        a, b = set(first[policy]), set(second[policy])
        assert len(first[policy]) == len(a) == 128 and len(b) == 128, policy  # no example twice on a worker
        assert not a & b and a | b == set(range(256)), policy  # disjoint, and every example trained
    assert set(first["off->off"]) == set(second["off->off"])  # no sharding: both read the same examples
    files_of = {f: set(range(f * 64, (f + 1) * 64)) for f in range(4)}
    assert set(first["file->file"]) == files_of[0] | files_of[2]  # whole files: 0 and 2 to worker 0
