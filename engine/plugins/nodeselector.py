"""Node selectors evaluated over every node at once.

Follows k8s.io/component-helpers/scheduling/corev1/nodeaffinity
(nodeaffinity.go) and the label selector rules of k8s.io/apimachinery
(labels.NewRequirement, Requirement.Matches):

- terms are ORed, the requirements of a term ANDed;
- a term with neither matchExpressions nor matchFields matches no node;
- a term that does not parse (an invalid key or value, In without values,
  Gt/Lt without exactly one integer, ...) matches no node;
- Gt and Lt compare integers: a node whose label value is not an integer
  does not match;
- matchFields supports `metadata.name` with In / NotIn and one value.

Results are boolean masks over ALL nodes of a ClusterState, cached per
cluster: node names and labels do not change during a run. Callers index
the masks with the `nodes` they were given.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

import numpy as np

from engine.framework.interface import BoolArray, IntArray
from engine.model.objects import (
    NodeSelectorRequirement,
    NodeSelectorTerm,
    Pod,
    PreferredSchedulingTerm,
)

if TYPE_CHECKING:
    from engine.cluster.state import ClusterState

NODE_NAME_FIELD = "metadata.name"  # metav1.ObjectNameField

LABEL_OPERATORS = ("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt")
FIELD_OPERATORS = ("In", "NotIn")

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1

# --- per-cluster memo ------------------------------------------------------

_CACHES: WeakKeyDictionary[ClusterState, dict[str, dict[Any, Any]]] = WeakKeyDictionary()


def cluster_cache(cluster: ClusterState, owner: str) -> dict[Any, Any]:
    """A memo dict for `owner` that lives as long as `cluster`.

    For results that depend only on node objects (names, labels, taints),
    which stay fixed during a run; see `invalidate_node_caches`.
    """
    per_cluster = _CACHES.get(cluster)
    if per_cluster is None:
        per_cluster = {}
        _CACHES[cluster] = per_cluster
    return per_cluster.setdefault(owner, {})


def invalidate_node_caches(cluster: ClusterState) -> None:
    """Forget everything derived from node objects (call after editing nodes)."""
    _CACHES.pop(cluster, None)


# --- label columns ---------------------------------------------------------


class _LabelColumn:
    """One label key over all nodes, as integer codes of its distinct values."""

    def __init__(self, values: Iterable[str | None]) -> None:
        self.index: dict[str, int] = {}
        codes = []
        for value in values:
            codes.append(-1 if value is None else self.index.setdefault(value, len(self.index)))
        self.codes: IntArray = np.array(codes, dtype=np.int64)
        self.present: BoolArray = self.codes >= 0
        self._integers: tuple[IntArray, BoolArray] | None = None

    def isin(self, values: Iterable[str]) -> BoolArray:
        wanted = [self.index[v] for v in set(values) if v in self.index]
        if not wanted:
            return np.zeros(self.codes.shape, dtype=bool)
        if len(wanted) == 1:
            return self.codes == wanted[0]
        return np.isin(self.codes, wanted)

    def compare(self, operator: str, bound: int) -> BoolArray:
        """Gt / Lt against `bound`; absent or non-integer values never match."""
        if self._integers is None:
            parsed = [parse_go_int64(v) for v in self.index]
            ints = np.array([p if p is not None else 0 for p in parsed], dtype=np.int64)
            ok = np.array([p is not None for p in parsed], dtype=bool)
            self._integers = (ints, ok)
        ints, ok = self._integers
        per_value = ok & (ints > bound) if operator == "Gt" else ok & (ints < bound)
        # Code -1 (absent) must not match: append a False for it.
        return np.append(per_value, False)[self.codes]


def _label_column(cluster: ClusterState, key: str) -> _LabelColumn:
    columns = cluster_cache(cluster, "nodeselector.columns")
    column: _LabelColumn | None = columns.get(key)
    if column is None:
        column = _LabelColumn(cluster.label_values(key))
        columns[key] = column
    return column


_GO_INT = re.compile(r"[+-]?[0-9]+")


def parse_go_int64(text: str) -> int | None:
    """strconv.ParseInt(text, 10, 64), or None where Go returns an error."""
    if not _GO_INT.fullmatch(text):
        return None
    value = int(text)
    return value if _INT64_MIN <= value <= _INT64_MAX else None


# --- parse errors, as labels.NewRequirement and the field selector report ---

_QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
_QUALIFIED_NAME = re.compile(_QUALIFIED_NAME_FMT)
_QUALIFIED_NAME_MSG = (
    "must consist of alphanumeric characters, '-', '_' or '.', "
    "and must start and end with an alphanumeric character"
)
_LABEL_VALUE_FMT = f"({_QUALIFIED_NAME_FMT})?"
_LABEL_VALUE = re.compile(_LABEL_VALUE_FMT)
_LABEL_VALUE_MSG = (
    "a valid label must be an empty string or consist of alphanumeric characters, "
    "'-', '_' or '.', and must start and end with an alphanumeric character"
)
_DNS1123_SUBDOMAIN_FMT = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*"
_DNS1123_SUBDOMAIN = re.compile(_DNS1123_SUBDOMAIN_FMT)
_DNS1123_SUBDOMAIN_MSG = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "
    "'-' or '.', and must start and end with an alphanumeric character"
)


def _regex_error(msg: str, fmt: str, *examples: str) -> str:
    """validation.RegexError, including its double spaces before 'or'."""
    shown = " or ".join(f"'{e}', " for e in examples)
    return f"{msg} (e.g. {shown}regex used for validation is '{fmt}')"


def qualified_name_errors(value: str) -> list[str]:
    """validation.IsQualifiedName: label keys, optionally with a DNS prefix."""
    errors: list[str] = []
    parts = value.split("/")
    if len(parts) > 2:
        return [
            "a qualified name "
            + _regex_error(_QUALIFIED_NAME_MSG, _QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc")
            + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        ]
    name = parts[-1]
    if len(parts) == 2:
        prefix = parts[0]
        if not prefix:
            errors.append("prefix part must be non-empty")
        else:
            if len(prefix) > 253:
                errors.append("prefix part must be no more than 253 characters")
            if not _DNS1123_SUBDOMAIN.fullmatch(prefix):
                errors.append(
                    "prefix part "
                    + _regex_error(_DNS1123_SUBDOMAIN_MSG, _DNS1123_SUBDOMAIN_FMT, "example.com")
                )
    if not name:
        errors.append("name part must be non-empty")
    elif len(name) > 63:
        errors.append("name part must be no more than 63 characters")
    if not _QUALIFIED_NAME.fullmatch(name):
        errors.append(
            "name part "
            + _regex_error(_QUALIFIED_NAME_MSG, _QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc")
        )
    return errors


def label_value_errors(value: str) -> list[str]:
    """validation.IsValidLabelValue."""
    errors: list[str] = []
    if len(value) > 63:
        errors.append("must be no more than 63 characters")
    if not _LABEL_VALUE.fullmatch(value):
        errors.append(
            _regex_error(_LABEL_VALUE_MSG, _LABEL_VALUE_FMT, "MyValue", "my_value", "12345")
        )
    return errors


def _go_values(values: tuple[str, ...]) -> str:
    """A []string as Go's %#v prints it in field errors."""
    if not values:
        return "[]string(nil)"
    return "[]string{" + ", ".join(f'"{v}"' for v in values) + "}"


def _invalid(path: str, shown: str, detail: str) -> str:
    return f"{path}: Invalid value: {shown}: {detail}"


def _unsupported(path: str, value: str, supported: tuple[str, ...]) -> str:
    listed = ", ".join(f'"{s}"' for s in supported)
    return f'{path}: Unsupported value: "{value}": supported values: {listed}'


def requirement_errors(req: NodeSelectorRequirement, path: str) -> list[str]:
    """Parse errors of one matchExpressions entry (labels.NewRequirement)."""
    if req.operator not in LABEL_OPERATORS:
        return [_unsupported(f"{path}.operator", req.operator, LABEL_OPERATORS)]
    errors: list[str] = []
    key_errors = qualified_name_errors(req.key)
    if key_errors:
        errors.append(_invalid(f"{path}.key", f'"{req.key}"', "; ".join(key_errors)))
    values_path = f"{path}.values"
    values = req.values
    if req.operator in ("In", "NotIn") and not values:
        detail = "for 'in', 'notin' operators, values set can't be empty"
        errors.append(_invalid(values_path, _go_values(values), detail))
    elif req.operator in ("Exists", "DoesNotExist") and values:
        detail = "values set must be empty for exists and does not exist"
        errors.append(_invalid(values_path, _go_values(values), detail))
    elif req.operator in ("Gt", "Lt"):
        if len(values) != 1:
            detail = "for 'Gt', 'Lt' operators, exactly one value is required"
            errors.append(_invalid(values_path, _go_values(values), detail))
        for i, value in enumerate(values):
            if parse_go_int64(value) is None:
                detail = "for 'Gt', 'Lt' operators, the value must be an integer"
                errors.append(_invalid(f"{values_path}[{i}]", f'"{value}"', detail))
    for i, value in enumerate(values):
        value_errors = label_value_errors(value)
        if value_errors:
            errors.append(_invalid(f"{values_path}[{i}]", f'"{value}"', "; ".join(value_errors)))
    return errors


def field_requirement_errors(req: NodeSelectorRequirement, path: str) -> list[str]:
    """Parse errors of one matchFields entry (nodeSelectorRequirementsAsFieldSelector)."""
    if req.operator not in FIELD_OPERATORS:
        return [_unsupported(f"{path}.operator", req.operator, FIELD_OPERATORS)]
    if len(req.values) != 1:
        return [_invalid(f"{path}.values", _go_values(req.values), "must have one element")]
    return []


def term_parse_errors(term: NodeSelectorTerm, path: str = "") -> list[str]:
    """Every parse error of a term, with upstream's field paths under `path`."""
    errors: list[str] = []
    for i, req in enumerate(term.match_expressions):
        errors += requirement_errors(req, f"{path}.matchExpressions[{i}]".lstrip("."))
    for i, req in enumerate(term.match_fields):
        errors += field_requirement_errors(req, f"{path}.matchFields[{i}]".lstrip("."))
    return errors


def aggregate_error(errors: list[str]) -> str:
    """errors.Flatten(errors.NewAggregate(errs)).Error()."""
    return errors[0] if len(errors) == 1 else "[" + ", ".join(errors) + "]"


def is_empty_term(term: NodeSelectorTerm) -> bool:
    return not term.match_expressions and not term.match_fields


# --- masks over all nodes --------------------------------------------------


def requirement_mask(cluster: ClusterState, req: NodeSelectorRequirement) -> BoolArray:
    """One valid matchExpressions requirement (Requirement.Matches)."""
    column = _label_column(cluster, req.key)
    if req.operator == "In":
        return column.isin(req.values)
    if req.operator == "NotIn":
        return ~column.isin(req.values)
    if req.operator == "Exists":
        return column.present.copy()
    if req.operator == "DoesNotExist":
        return ~column.present
    bound = parse_go_int64(req.values[0]) if len(req.values) == 1 else None
    if req.operator in ("Gt", "Lt") and bound is not None:
        return column.compare(req.operator, bound)
    return np.zeros(cluster.num_nodes, dtype=bool)


def field_requirement_mask(cluster: ClusterState, req: NodeSelectorRequirement) -> BoolArray:
    """One valid matchFields requirement; only metadata.name has a value."""
    value = req.values[0]
    if req.key == NODE_NAME_FIELD:
        matches = np.zeros(cluster.num_nodes, dtype=bool)
        index = cluster.node_index.get(value)
        if index is not None:
            matches[index] = True
    else:
        # fields.Set.Get of an unknown field is "".
        matches = np.full(cluster.num_nodes, value == "", dtype=bool)
    return matches if req.operator == "In" else ~matches


def node_selector_term_mask(cluster: ClusterState, term: NodeSelectorTerm) -> BoolArray:
    """Nodes that one term selects: its requirements ANDed; empty or
    unparsable terms select nothing. Cached per cluster; do not modify."""
    cache = cluster_cache(cluster, "nodeselector.terms")
    mask: BoolArray | None = cache.get(term)
    if mask is None:
        mask = np.ones(cluster.num_nodes, dtype=bool)
        if is_empty_term(term) or term_parse_errors(term):
            mask[:] = False
        else:
            for req in term.match_expressions:
                mask &= requirement_mask(cluster, req)
            for req in term.match_fields:
                mask &= field_requirement_mask(cluster, req)
        mask.setflags(write=False)
        cache[term] = mask
    return mask


def node_selector_terms_mask(
    cluster: ClusterState, terms: tuple[NodeSelectorTerm, ...]
) -> BoolArray:
    """A v1.NodeSelector: nodes that any of its terms selects (none if no terms)."""
    cache = cluster_cache(cluster, "nodeselector.selectors")
    mask: BoolArray | None = cache.get(terms)
    if mask is None:
        mask = np.zeros(cluster.num_nodes, dtype=bool)
        for term in terms:
            mask |= node_selector_term_mask(cluster, term)
        mask.setflags(write=False)
        cache[terms] = mask
    return mask


def node_selector_map_mask(cluster: ClusterState, pairs: tuple[tuple[str, str], ...]) -> BoolArray:
    """spec.nodeSelector: nodes carrying every key=value pair (all nodes if empty)."""
    cache = cluster_cache(cluster, "nodeselector.maps")
    mask: BoolArray | None = cache.get(pairs)
    if mask is None:
        mask = np.ones(cluster.num_nodes, dtype=bool)
        for key, value in pairs:
            mask &= _label_column(cluster, key).isin((value,))
        mask.setflags(write=False)
        cache[pairs] = mask
    return mask


def required_node_affinity_mask(cluster: ClusterState, pod: Pod) -> BoolArray:
    """GetRequiredNodeAffinity(pod).Match: spec.nodeSelector AND the required
    node affinity terms (when the pod sets any). Cached; do not modify."""
    node_affinity = pod.affinity.node_affinity if pod.affinity else None
    required = node_affinity.required if node_affinity else None
    key: Hashable = (pod.node_selector, required)
    cache = cluster_cache(cluster, "nodeselector.required")
    mask: BoolArray | None = cache.get(key)
    if mask is None:
        mask = node_selector_map_mask(cluster, pod.node_selector)
        if required is not None:
            mask = mask & node_selector_terms_mask(cluster, required)
        mask.setflags(write=False)
        cache[key] = mask
    return mask


def preferred_term_mask(
    cluster: ClusterState, term: PreferredSchedulingTerm | NodeSelectorTerm
) -> BoolArray:
    """Nodes that a preferred term's preference selects (cached; do not modify)."""
    preference = term.preference if isinstance(term, PreferredSchedulingTerm) else term
    return node_selector_term_mask(cluster, preference)


def preferred_terms_score(
    cluster: ClusterState, terms: tuple[PreferredSchedulingTerm, ...]
) -> IntArray:
    """PreferredSchedulingTerms.Score for every node: the summed weights of the
    matching terms; weight-0 and empty terms count for nothing."""
    cache = cluster_cache(cluster, "nodeselector.preferred")
    scores: IntArray | None = cache.get(terms)
    if scores is None:
        scores = np.zeros(cluster.num_nodes, dtype=np.int64)
        for term in terms:
            if term.weight != 0:
                scores += term.weight * preferred_term_mask(cluster, term)
        scores.setflags(write=False)
        cache[terms] = scores
    return scores
