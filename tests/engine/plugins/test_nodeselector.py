"""Vectorised node selectors, following k8s.io/component-helpers/scheduling/corev1/
nodeaffinity (nodeaffinity.go and its tests) and labels.Requirement.Matches."""

from __future__ import annotations

import numpy as np
import pytest

from engine.cluster.state import ClusterState
from engine.framework.interface import BoolArray
from engine.model.objects import NodeSelectorRequirement, NodeSelectorTerm
from engine.plugins.nodeselector import (
    aggregate_error,
    node_selector_map_mask,
    node_selector_term_mask,
    node_selector_terms_mask,
    parse_go_int64,
    preferred_terms_score,
    required_node_affinity_mask,
    term_parse_errors,
)
from tests.engine.plugins.builders import (
    make_cluster,
    make_node,
    make_pod,
    preferred_affinity,
    req,
    required_affinity,
    term,
)

NAME = "metadata.name"


def labelled_cluster() -> ClusterState:
    return make_cluster(
        [
            make_node("v100", {"gpu-type": "tesla-v100", "kernel-version": "0206", "gpus": "8"}),
            make_node("a100", {"gpu-type": "a100", "kernel-version": "0204", "gpus": "4"}),
            make_node("cpu", {"kernel-version": "v5", "gpus": "none"}),
            make_node("bare"),
        ]
    )


def selected(cluster: ClusterState, mask: BoolArray) -> set[str]:
    return {cluster.nodes[int(i)].name for i in np.flatnonzero(mask)}


@pytest.mark.parametrize(
    ("requirement", "want"),
    [
        pytest.param(req("gpu-type", "In", "tesla-v100", "x"), {"v100"}, id="In"),
        pytest.param(
            req("gpu-type", "NotIn", "tesla-v100"),
            {"a100", "cpu", "bare"},
            id="NotIn matches absent keys",
        ),
        pytest.param(req("gpu-type", "Exists"), {"v100", "a100"}, id="Exists"),
        pytest.param(req("gpu-type", "DoesNotExist"), {"cpu", "bare"}, id="DoesNotExist"),
        pytest.param(
            req("kernel-version", "Gt", "0204"), {"v100"}, id="upstream: Gt 0204 with 0206"
        ),
        pytest.param(
            req("kernel-version", "Lt", "205"), {"a100"}, id="Lt skips non-integer labels"
        ),
        pytest.param(req("gpus", "Gt", "4"), {"v100"}, id="Gt is strict"),
        pytest.param(req("gpus", "Lt", "9"), {"v100", "a100"}, id="Lt on counts"),
        pytest.param(req("gpus", "Gt", "abc"), set(), id="non-integer bound matches nothing"),
        pytest.param(req("gpus", "Gt", "1", "2"), set(), id="Gt needs exactly one value"),
        pytest.param(req("gpus", "Gt", "-1"), set(), id="'-1' is not a valid label value"),
        pytest.param(req("gpu-type", "In"), set(), id="In without values matches nothing"),
        pytest.param(
            req("gpu-type", "Exists", "x"), set(), id="Exists with values matches nothing"
        ),
        pytest.param(req("invalid key", "Exists"), set(), id="invalid key matches nothing"),
        pytest.param(
            req("gpu-type", "NotIn", "invalid value: ___@#$%^"), set(), id="upstream: invalid value"
        ),
        pytest.param(req("gpu-type", "Equals", "a100"), set(), id="unknown operator"),
    ],
)
def test_match_expressions(requirement: NodeSelectorRequirement, want: set[str]) -> None:
    cluster = labelled_cluster()
    assert selected(cluster, node_selector_term_mask(cluster, term(requirement))) == want


@pytest.mark.parametrize(
    ("fields", "want"),
    [
        pytest.param([req(NAME, "In", "a100")], {"a100"}, id="In"),
        pytest.param([req(NAME, "NotIn", "a100")], {"v100", "cpu", "bare"}, id="NotIn"),
        pytest.param([req(NAME, "In", "nowhere")], set(), id="unknown name"),
        pytest.param([req(NAME, "In", "a100", "cpu")], set(), id="In needs exactly one value"),
        pytest.param([req(NAME, "Exists")], set(), id="only In and NotIn"),
        pytest.param(
            [req(NAME, "In", "a100"), req(NAME, "In", "cpu")],
            set(),
            id="upstream: conflicting ANDed names",
        ),
    ],
)
def test_match_fields(fields: list[NodeSelectorRequirement], want: set[str]) -> None:
    cluster = labelled_cluster()
    assert selected(cluster, node_selector_term_mask(cluster, term(fields=fields))) == want


@pytest.mark.parametrize(
    ("terms", "want"),
    [
        pytest.param((), set(), id="no terms: nothing"),
        pytest.param((term(),), set(), id="empty term: nothing"),
        pytest.param(
            (term(), term(req("gpu-type", "Exists"))), {"v100", "a100"}, id="empty term ORed"
        ),
        pytest.param(
            (term(req("gpu-type", "In", "a100")), term(req("gpus", "Gt", "5"))),
            {"a100", "v100"},
            id="terms ORed",
        ),
        pytest.param(
            (term(req("gpu-type", "Exists"), req("gpus", "Lt", "5")),),
            {"a100"},
            id="requirements ANDed",
        ),
        pytest.param(
            (term(req("gpu-type", "Exists"), fields=[req(NAME, "In", "v100")]),),
            {"v100"},
            id="expressions and fields ANDed",
        ),
        pytest.param(
            (term(req("bad key!", "Exists")), term(req("gpu-type", "In", "a100"))),
            {"a100"},
            id="an invalid term does not spoil the others",
        ),
    ],
)
def test_terms(terms: tuple[NodeSelectorTerm, ...], want: set[str]) -> None:
    cluster = labelled_cluster()
    assert selected(cluster, node_selector_terms_mask(cluster, terms)) == want


@pytest.mark.parametrize(
    ("pairs", "want"),
    [
        pytest.param((), {"v100", "a100", "cpu", "bare"}, id="empty selects all"),
        pytest.param(
            (("gpu-type", "tesla-v100"),), {"v100"}, id="seed article 00: only the V100 node"
        ),
        pytest.param((("gpu-type", "tesla-v100"), ("gpus", "4")), set(), id="pairs ANDed"),
        pytest.param((("gpu-type", ""),), set(), id="absent is not empty"),
    ],
)
def test_node_selector_map(pairs: tuple[tuple[str, str], ...], want: set[str]) -> None:
    cluster = labelled_cluster()
    assert selected(cluster, node_selector_map_mask(cluster, pairs)) == want


def test_required_node_affinity_is_node_selector_and_required_terms() -> None:
    cluster = labelled_cluster()
    pod = make_pod(
        node_selector={"kernel-version": "0204"},
        node_affinity=required_affinity(term(req("gpu-type", "Exists"))),
    )
    assert selected(cluster, required_node_affinity_mask(cluster, pod)) == {"a100"}
    assert selected(cluster, required_node_affinity_mask(cluster, make_pod())) == {
        "v100",
        "a100",
        "cpu",
        "bare",
    }
    no_terms = make_pod(node_affinity=required_affinity())
    assert selected(cluster, required_node_affinity_mask(cluster, no_terms)) == set()


def test_preferred_terms_score_sums_weights_and_ignores_weight_zero() -> None:
    cluster = labelled_cluster()
    preferred = preferred_affinity(
        (2, term(req("gpu-type", "Exists"))),
        (5, term(req("gpus", "Gt", "5"))),
        (0, term(req("kernel-version", "Exists"))),
        (7, term()),
    ).preferred
    assert preferred_terms_score(cluster, preferred).tolist() == [7, 2, 0, 0]


def test_parse_error_message_matches_upstream() -> None:
    # TestNodeAffinityPriority: "PreScore returns error when an incoming Pod has a broken affinity".
    errors = term_parse_errors(term(req("invalid key", "In", "bar")), "[0]")
    assert aggregate_error(errors) == (
        '[0].matchExpressions[0].key: Invalid value: "invalid key": name part must consist of '
        "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
        "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
        "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
    )


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("42", 42),
        ("0204", 204),
        ("+7", 7),
        ("-7", -7),
        ("9223372036854775807", 2**63 - 1),
        ("9223372036854775808", None),
        ("1_000", None),
        (" 1", None),
        ("1.5", None),
        ("", None),
    ],
)
def test_parse_go_int64(text: str, want: int | None) -> None:
    assert parse_go_int64(text) == want


def test_masks_are_cached_per_cluster() -> None:
    first, second = labelled_cluster(), make_cluster([make_node("other", {"gpu-type": "a100"})])
    one = term(req("gpu-type", "In", "a100"))
    assert node_selector_term_mask(first, one) is node_selector_term_mask(first, one)
    assert selected(second, node_selector_term_mask(second, one)) == {"other"}
