"""NodeUnschedulable, rows from upstream
pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable_test.go."""

from __future__ import annotations

import pytest

from engine.config.args import NoArgs
from engine.framework.status import Code
from engine.model.objects import Toleration
from engine.plugins.nodeunschedulable import ERR_REASON_UNSCHEDULABLE, NodeUnschedulable
from tests.engine.plugins.builders import make_cluster, make_node, make_pod, run_filter, toleration

UNSCHEDULABLE_TAINT_KEY = "node.kubernetes.io/unschedulable"
FAILS = [(ERR_REASON_UNSCHEDULABLE, Code.UNSCHEDULABLE_AND_UNRESOLVABLE)]


@pytest.mark.parametrize(
    ("unschedulable", "tolerations", "want"),
    [
        pytest.param(True, (), FAILS, id="upstream: unschedulable node rejects a plain pod"),
        pytest.param(False, (), None, id="upstream: normal node accepts"),
        pytest.param(
            True,
            (toleration(UNSCHEDULABLE_TAINT_KEY, effect="NoSchedule"),),
            None,
            id="upstream: toleration of the unschedulable taint",
        ),
        pytest.param(True, (Toleration(operator="Exists"),), None, id="tolerate everything"),
        pytest.param(
            True,
            (toleration(UNSCHEDULABLE_TAINT_KEY, operator="Exists"),),
            None,
            id="empty effect tolerates NoSchedule",
        ),
        pytest.param(
            True,
            (toleration(UNSCHEDULABLE_TAINT_KEY, effect="NoExecute", operator="Exists"),),
            FAILS,
            id="wrong effect",
        ),
        pytest.param(
            True,
            (toleration(UNSCHEDULABLE_TAINT_KEY, value="yes", effect="NoSchedule"),),
            FAILS,
            id="Equal with a value the taint does not have",
        ),
    ],
)
def test_filter(unschedulable: bool, tolerations: tuple[Toleration, ...], want: object) -> None:
    cluster = make_cluster([make_node("n", unschedulable=unschedulable)])
    pod = make_pod(tolerations=tolerations)
    failed = run_filter(NodeUnschedulable(NoArgs()), pod, cluster)
    assert failed.get("n") == want


def test_only_cordoned_nodes_fail_and_cordoning_is_read_live() -> None:
    cluster = make_cluster([make_node("a"), make_node("b", unschedulable=True), make_node("c")])
    plugin = NodeUnschedulable(NoArgs())
    assert set(run_filter(plugin, make_pod(), cluster)) == {"b"}
    cluster.unschedulable[cluster.node_index["c"]] = True
    assert set(run_filter(plugin, make_pod(), cluster)) == {"b", "c"}
