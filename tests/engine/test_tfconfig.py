"""engine.core.tfconfig: the TF_CONFIG rules, the JSON round trip, and local ports."""

from __future__ import annotations

import json
import socket
import subprocess
import sys

import pytest

from engine.core.config import RunConfig
from engine.core.tfconfig import (
    ClusterError,
    ClusterSpec,
    Program,
    TaskRole,
    TFConfig,
    cluster_shape,
    errors,
    for_task,
    free_loopback_ports,
    local_cluster,
    local_cluster_like,
    parse_address,
    parse_tf_config,
    port_in_use,
    render,
    role_from_environment,
    run_problems,
    task_program,
    validate,
)

W2 = {"worker": ["127.0.0.1:20001", "127.0.0.1:20002"]}


def problems_of(doc: dict, strategy: str | None = None) -> list[tuple[str, str]]:
    return [(p.severity, p.location) for p in validate(parse_tf_config(doc), strategy)]


def test_a_good_local_cluster_has_no_problems():
    assert (
        validate(parse_tf_config({"cluster": W2, "task": {"type": "worker", "index": 1}}), "multi_worker_mirrored")
        == []
    )


@pytest.mark.parametrize(
    "doc, strategy, expected",
    [
        # what TensorFlow enforces
        ({"cluster": {"master": ["127.0.0.1:1"], **W2}}, None, ("error", "cluster.master")),
        ({"cluster": {"chief": ["127.0.0.1:1", "127.0.0.1:2"], **W2}}, None, ("error", "cluster.chief")),
        ({"cluster": {"evaluator": ["127.0.0.1:1", "127.0.0.1:2"], **W2}}, None, ("error", "cluster.evaluator")),
        ({"cluster": W2, "task": {"type": "chief", "index": 0}}, None, ("error", "task.type")),
        ({"cluster": W2, "task": {"type": "worker", "index": 2}}, None, ("error", "task.index")),
        ({"cluster": W2, "task": {"type": "worker", "index": -1}}, None, ("error", "task.index")),
        ({"cluster": W2, "task": {"type": "worker"}}, None, ("error", "task.index")),
        ({"cluster": W2, "task": {"index": 0}}, None, ("error", "task.type")),
        # what it does not, but should
        ({"task": {"type": "worker", "index": 0}}, None, ("error", "cluster")),
        ({"cluster": {}}, None, ("error", "cluster")),
        ({"cluster": {"ps": ["127.0.0.1:1"]}}, None, ("error", "cluster")),
        ({"cluster": {"worker": []}}, None, ("error", "cluster.worker")),
        ({"cluster": {"worker": ["127.0.0.1:20001", "127.0.0.1:20001"]}}, None, ("error", "cluster.worker[1]")),
        ({"cluster": {"worker": ["localhost:20001", "127.0.0.1:20001"]}}, None, ("error", "cluster.worker[1]")),
        ({"cluster": {"worker": ["127.0.0.1:0"]}}, None, ("error", "cluster.worker[0]")),
        ({"cluster": {"worker": ["127.0.0.1:65536"]}}, None, ("error", "cluster.worker[0]")),
        ({"cluster": {"worker": ["127.0.0.1:http"]}}, None, ("error", "cluster.worker[0]")),
        ({"cluster": {"worker": ["127.0.0.1"]}}, None, ("error", "cluster.worker[0]")),
        ({"cluster": {"worker": ["::1:2222"]}}, None, ("error", "cluster.worker[0]")),
        ({"cluster": {"worker": ["[::1:2222"]}}, None, ("error", "cluster.worker[0]")),
        ({"cluster": {"worker": ["[fe80::zz]:2222"]}}, None, ("error", "cluster.worker[0]")),
        ({"cluster": {"worker": ["256.0.0.1:2222"]}}, None, ("error", "cluster.worker[0]")),
        ({"cluster": {"worker": ["my host:2222"]}}, None, ("error", "cluster.worker[0]")),
        ({"cluster": {"worker": ["host';rm -rf ~;'x:2222"]}}, None, ("error", "cluster.worker[0]")),
        ({"cluster": {"worker": ["$(reboot):2222"]}}, None, ("error", "cluster.worker[0]")),
        ({"cluster": {"worker": ["`id`:2222"]}}, None, ("error", "cluster.worker[0]")),
        ({"cluster": {"worker": ['a"b:2222']}}, None, ("error", "cluster.worker[0]")),
        ({"cluster": {"worker": ["-bad-.example.com:2222"]}}, None, ("error", "cluster.worker[0]")),
        ({"cluster": {"worker": ["under_score.example:2222"]}}, None, ("error", "cluster.worker[0]")),
        ({"cluster": {"worker": [f"{'a' * 64}.example:2222"]}}, None, ("error", "cluster.worker[0]")),
        ({"cluster": {"worker": [":2222"]}}, None, ("error", "cluster.worker[0]")),
        ({"cluster": {"ps": ["127.0.0.1:1"], **W2}}, "multi_worker_mirrored", ("error", "cluster.ps")),
        ({"cluster": W2}, "mirrored", ("error", "cluster")),
        # warnings
        ({"cluster": {"worker": ["10.0.0.5:2222"]}}, None, ("warning", "cluster.worker[0]")),
        ({"cluster": {"worker": ["[2001:db8::1]:2222"]}}, None, ("warning", "cluster.worker[0]")),
        ({"cluster": {"worker": ["localhost:1", "gpu-box.lan:2"]}}, None, ("warning", "cluster.worker[0]")),
    ],
)
def test_each_rule_is_reported_where_it_applies(doc, strategy, expected):
    assert expected in problems_of(doc, strategy)


PS_CLUSTER = {"chief": ["127.0.0.1:1"], "worker": ["127.0.0.1:2", "127.0.0.1:3"], "ps": ["127.0.0.1:4"]}


@pytest.mark.parametrize(
    "cluster, strategy, location, words",
    [
        ({**PS_CLUSTER, "ps": []}, "parameter_server", "cluster.ps", "at least one ps task"),
        ({k: v for k, v in PS_CLUSTER.items() if k != "ps"}, "parameter_server", "cluster.ps", "--ps 1"),
        ({k: v for k, v in PS_CLUSTER.items() if k != "chief"}, "parameter_server", "cluster.chief", "coordinator"),
        ({**PS_CLUSTER, "worker": []}, "parameter_server", "cluster.worker", "run the steps"),
        ({**PS_CLUSTER, "chief": ["127.0.0.1:1", "127.0.0.1:5"]}, "parameter_server", "cluster.chief", "at most one"),
        ({**W2, "chief": ["127.0.0.1:1", "127.0.0.1:5"]}, "multi_worker_mirrored", "cluster.chief", "at most one"),
        ({"worker": ["127.0.0.1:1"], "evaluator": ["127.0.0.1:2"]}, "mirrored", "cluster.evaluator", "cannot use"),
        ({"worker": ["127.0.0.1:1"], "evaluator": ["127.0.0.1:2"]}, "default", "cluster.evaluator", "cannot use"),
        ({**W2, "ps": ["127.0.0.1:9"]}, "multi_worker_mirrored", "cluster.ps", "no parameter servers"),
    ],
)
def test_a_cluster_its_strategy_cannot_run_gets_one_clear_error(cluster, strategy, location, words):
    problems = errors(validate(parse_tf_config({"cluster": {k: v for k, v in cluster.items() if v}}), strategy))
    assert len(problems) == 1, problems
    assert problems[0].location == location and words in problems[0].message


@pytest.mark.parametrize("strategy", ["multi_worker_mirrored", "parameter_server"])
def test_an_evaluator_beside_a_cluster_strategy_is_fine(strategy):
    cluster = {**PS_CLUSTER, "evaluator": ["127.0.0.1:9"]}
    if strategy == "multi_worker_mirrored":
        cluster.pop("ps")
    assert validate(parse_tf_config({"cluster": cluster}), strategy) == []


def test_an_evaluator_needs_validation_data():
    cluster = parse_tf_config({"cluster": {**W2, "evaluator": ["127.0.0.1:9"]}}).cluster
    config = RunConfig(strategy="multi_worker_mirrored")
    (problem,) = run_problems(cluster, config)
    assert problem.location == "cluster.evaluator" and "validation_split" in problem.message
    assert run_problems(cluster, config.replace(validation_split=0.2)) == []


@pytest.mark.parametrize(
    "job, strategy, program",
    [
        ("chief", "parameter_server", Program.TRAINER),
        ("worker", "parameter_server", Program.SERVER),
        ("ps", "parameter_server", Program.SERVER),
        ("evaluator", "parameter_server", Program.EVALUATOR),
        ("worker", "multi_worker_mirrored", Program.TRAINER),
        ("evaluator", "multi_worker_mirrored", Program.EVALUATOR),
    ],
)
def test_one_train_command_runs_each_task_as_its_program(job, strategy, program):
    assert task_program(job, strategy) == program


def test_roles_from_tf_config():
    doc = {"cluster": {**PS_CLUSTER, "evaluator": ["127.0.0.1:9"]}, "task": {"type": "chief", "index": 0}}
    env = {"TF_CONFIG": json.dumps(doc)}
    chief = role_from_environment("parameter_server", env)
    assert (chief.is_chief, chief.num_workers, chief.task, chief.has_evaluator) == (True, 2, "chief-0", True)
    doc["task"] = {"type": "worker", "index": 1}
    worker = role_from_environment("parameter_server", {"TF_CONFIG": json.dumps(doc)})
    assert (worker.is_chief, worker.job, worker.index) == (False, "worker", 1)
    mwms = role_from_environment(
        "multi_worker_mirrored", {"TF_CONFIG": json.dumps({"cluster": W2, "task": {"type": "worker", "index": 0}})}
    )
    assert (mwms.is_chief, mwms.num_workers, mwms.has_evaluator) == (True, 2, False)
    assert role_from_environment("mirrored", env) == TaskRole()  # one process: TF_CONFIG is not its business


def test_a_local_parameter_server_cluster_has_every_role_on_its_own_port():
    cluster = local_cluster(2, ps=1, chief=True, evaluator=True)
    assert cluster_shape(cluster) == {"chief": 1, "worker": 2, "ps": 1, "evaluator": 1}
    assert len({t.port for t in cluster.tasks()}) == 5
    assert [t.id for t in cluster.tasks()] == ["chief-0", "worker-0", "worker-1", "ps-0", "evaluator-0"]
    assert validate(TFConfig(cluster), "parameter_server") == []
    again = local_cluster_like(cluster)
    assert cluster_shape(again) == cluster_shape(cluster) and again != cluster


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1:1",
        "127.0.0.1:65535",
        "localhost:2222",
        "[::1]:2222",
        "worker-0.tfdd.svc.cluster.local:2222",
        "node7:2222",
        "10.0.0.5:2222",
        "my.host.:2222",
    ],
)
def test_valid_addresses_have_no_errors(address):
    assert errors(validate(parse_tf_config({"cluster": {"worker": [address]}}))) == []


def test_problems_say_what_to_do():
    (problem,) = validate(parse_tf_config({"cluster": {"worker": ["my host:2222"]}}))
    assert problem.value == "my host:2222"
    assert "' '" in problem.message and "host name" in problem.message
    (missing,) = validate(parse_tf_config({"task": {"type": "worker", "index": 0}}))
    assert "silently" in missing.message and "127.0.0.1" in missing.message
    assert str(missing).startswith("error: cluster = ")


@pytest.mark.parametrize(
    "text, location",
    [
        ("not json", "(document)"),
        ("[1, 2]", "(document)"),
        ('{"cluster": ["127.0.0.1:1"]}', "cluster"),
        ('{"cluster": {"worker": "127.0.0.1:1"}}', "cluster.worker"),
        ('{"cluster": {"worker": [2222]}}', "cluster.worker"),
        ('{"cluster": {"worker": ["127.0.0.1:1"]}, "task": "worker"}', "task"),
        ('{"cluster": {"worker": ["127.0.0.1:1"]}, "task": {"type": "worker", "index": "0"}}', "task.index"),
        ('{"cluster": {"worker": ["127.0.0.1:1"]}, "task": {"type": 1, "index": 0}}', "task.type"),
        ('{"cluster": {"worker": ["127.0.0.1:1"]}, "rpc_layer": "grpc"}', "rpc_layer"),
        ('{"strategy": "mirrored", "epochs": 5}', "(document)"),
    ],
)
def test_a_malformed_document_raises_with_every_problem(text, location):
    with pytest.raises(ClusterError) as info:
        parse_tf_config(text)
    assert location in [p.location for p in info.value.problems]


def test_json_round_trip():
    doc = {
        "cluster": {"chief": ["127.0.0.1:1"], "worker": ["127.0.0.1:2", "[::1]:3"], "evaluator": ["127.0.0.1:4"]},
        "task": {"type": "worker", "index": 1},
    }
    tf_config = parse_tf_config(doc)
    assert json.loads(render(tf_config)) == doc
    assert parse_tf_config(render(tf_config, indent=2)) == tf_config
    bare = parse_tf_config({"cluster": W2})
    assert bare.task_type is None and json.loads(render(bare)) == {"cluster": W2}


def test_for_task_and_chief():
    cluster = ClusterSpec.from_dict({"chief": ["127.0.0.1:1"], "worker": ["127.0.0.1:2", "127.0.0.1:3"]})
    assert for_task(cluster, "worker", 1) == TFConfig(cluster, "worker", 1)
    assert cluster.chief().name == "chief 0"
    assert [t.address for t in cluster.training_tasks()] == ["127.0.0.1:1", "127.0.0.1:2", "127.0.0.1:3"]
    assert ClusterSpec.from_dict(W2).chief().name == "worker 0"
    with pytest.raises(ValueError, match="no task worker 2"):
        for_task(cluster, "worker", 2)


def test_parse_address_keeps_ipv6_hosts_bare():
    assert parse_address("[::1]:2222") == ("::1", 2222)
    assert parse_address("node-1:80") == ("node-1", 80)


def test_local_cluster_is_loopback_on_distinct_free_ports():
    cluster = local_cluster(3)
    tasks = cluster.training_tasks()
    assert [t.host for t in tasks] == ["127.0.0.1"] * 3
    assert len({t.port for t in tasks}) == 3
    assert validate(TFConfig(cluster), "multi_worker_mirrored") == []
    assert local_cluster(2, ports=[20001, 20002]).to_dict() == W2
    with pytest.raises(ValueError):
        local_cluster(0)


def test_free_ports_are_free():
    ports = free_loopback_ports(4)
    assert len(set(ports)) == 4
    assert not any(port_in_use("127.0.0.1", p) for p in ports)


@pytest.mark.parametrize("listen_on", ["127.0.0.1", "0.0.0.0"])
def test_port_in_use_sees_a_listener(listen_on):
    with socket.create_server((listen_on, 0)) as server:
        port = server.getsockname()[1]
        assert port_in_use("127.0.0.1", port)
    assert not port_in_use("127.0.0.1", port)


def test_cluster_module_imports_no_tensorflow():
    code = (
        "import sys, engine.core.tfconfig, engine.core.exports.bundle, engine.cluster.launcher, engine.cluster.cli; "
        "bad = [m for m in ('tensorflow', 'tf_keras', 'keras', 'PySide6') if m in sys.modules]; "
        "sys.exit(f'imported {bad}' if bad else 0)"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
