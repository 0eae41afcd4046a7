"""Host rows (`--hosts`, the Cluster tab's host column): parsed, checked, assigned to tasks."""

from __future__ import annotations

import pytest

from engine.core.hosts import DEFAULT_FOLDER, Host, hosts_for, parse_host, parse_hosts
from engine.core.problems import ConfigError
from engine.core.tfconfig import local_cluster


@pytest.mark.parametrize(
    ("row", "host"),
    [
        ("lab1", Host("lab1")),
        ("ana@lab1.example.org:2222", Host("ana@lab1.example.org", 2222)),
        ("10.0.0.7 python=/opt/py/bin/python3.11", Host("10.0.0.7", python="/opt/py/bin/python3.11")),
        (
            "[fe80::1]:22 venv=~/envs/tfdd folder=/scratch/runs",
            Host("fe80::1", 22, venv="~/envs/tfdd", folder="/scratch/runs"),
        ),
    ],
)
def test_rows_parse_and_print_back(row, host):
    assert parse_host(row) == host
    assert parse_host(host.row()) == host
    assert host.folder == DEFAULT_FOLDER or "folder=" in row


@pytest.mark.parametrize(
    ("row", "said"),
    [
        ("-oProxyCommand=x", "not a host"),
        ("lab1:99999", "between 1 and 65535"),
        ("lab1 pyhton=/x", "not an option"),
        ("lab1 python=/x venv=/y", "not both"),
        ("lab1 python=/x python=/y", "given twice"),
        ("a b@c", "not an option"),
    ],
)
def test_bad_rows_say_what_to_write(row, said):
    with pytest.raises(ConfigError, match=said):
        parse_host(row, "hosts.txt line 2")


def test_a_hosts_file_reports_every_bad_line_at_once(tmp_path):
    path = tmp_path / "hosts.txt"
    path.write_text("# the lab\nlab1  # the big one\n\nlab2:0\nlab3 gpu=2\n")
    with pytest.raises(ConfigError) as raised:
        parse_hosts(str(path))
    assert [p.field for p in raised.value.problems] == ["hosts.txt line 4", "hosts.txt line 5"]


def test_a_list_and_a_file_give_the_same_hosts(tmp_path):
    (tmp_path / "hosts.txt").write_text("lab1\nana@lab2 python=python3.12\n")
    assert parse_hosts("lab1, ana@lab2 python=python3.12") == parse_hosts(str(tmp_path / "hosts.txt"))
    with pytest.raises(ConfigError, match="no host"):
        parse_hosts(" , ")


def test_tasks_get_hosts_in_order_and_round_again():
    tasks = local_cluster(3, ps=1, chief=True).tasks()
    a, b = Host("a"), Host("b")
    assert hosts_for(tasks, [a, b]) == [a, b, a, b, a]
    with pytest.raises(ConfigError, match="would run nothing"):
        hosts_for(tasks[:1], [a, b])
