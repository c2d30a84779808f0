"""NodeName, rows from upstream pkg/scheduler/framework/plugins/nodename/node_name_test.go."""

from __future__ import annotations

import pytest

from engine.config.args import NoArgs
from engine.framework.status import Code
from engine.plugins.nodename import ERR_REASON, NodeName
from tests.engine.plugins.builders import (
    make_cluster,
    make_node,
    make_pod,
    node_indices,
    run_filter,
)

FAILS = [(ERR_REASON, Code.UNSCHEDULABLE_AND_UNRESOLVABLE)]


@pytest.mark.parametrize(
    ("pod_node_name", "want"),
    [
        pytest.param(None, None, id="upstream: no host specified"),
        pytest.param("foo", None, id="upstream: host matches"),
        pytest.param("bar", FAILS, id="upstream: host doesn't match"),
    ],
)
def test_filter(pod_node_name: str | None, want: object) -> None:
    cluster = make_cluster([make_node("foo")])
    failed = run_filter(NodeName(NoArgs()), make_pod(node_name=pod_node_name), cluster)
    assert failed.get("foo") == want


def test_every_other_node_fails_and_an_unknown_name_fails_all() -> None:
    cluster = make_cluster([make_node("a"), make_node("b"), make_node("c")])
    plugin = NodeName(NoArgs())
    assert set(run_filter(plugin, make_pod(node_name="b"), cluster)) == {"a", "c"}
    assert set(run_filter(plugin, make_pod(node_name="zzz"), cluster)) == {"a", "b", "c"}
    # Only the nodes asked about are answered for.
    subset = node_indices(cluster, "c", "b")
    assert set(run_filter(plugin, make_pod(node_name="b"), cluster, subset)) == {"c"}
