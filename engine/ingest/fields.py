"""Reading and validating the fields that many kinds share.

Every problem becomes an `IngestError` naming file, line, object and field,
with the error body the API server would give (`Required value`, `Invalid
value: "x": ...`, `Unsupported value: "x": supported values: ...`), as built
by k8s.io/apimachinery/pkg/util/validation/field/errors.go. The checks follow
k8s pkg/apis/core/validation/validation.go and apimachinery's
pkg/apis/meta/v1/validation/validation.go. Readers never raise on bad input:
they record the problem in the `Ctx` and return something usable.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import yaml

from engine.model.objects import (
    LabelSelector,
    LabelSelectorRequirement,
    NodeAffinity,
    NodeSelectorRequirement,
    NodeSelectorTerm,
    ObjectRef,
    PodAffinity,
    PodAffinityTerm,
    PreferredSchedulingTerm,
    Toleration,
    TopologySpreadConstraint,
    WeightedPodAffinityTerm,
)

# --- errors and their context ------------------------------------------------


@dataclass
class IngestError:
    """One problem in the input; str() is the one-line message users see."""

    file: str
    line: int | None
    obj: ObjectRef | None
    field: str
    message: str
    # Found by a check across objects (duplicates, priority classes); merge()
    # drops and recomputes these.
    cross_object: bool = False

    def __str__(self) -> str:
        parts = [f"{self.file}:{self.line}" if self.line is not None else self.file]
        if self.obj is not None:
            parts.append(str(self.obj))
        if self.field:
            parts.append(self.field)
        parts.append(self.message)
        return ": ".join(parts)


_SEGMENT = re.compile(r'\.?([^.\[\]"]+)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]')


def path_segments(path: str) -> list[str | int]:
    """`spec.containers[0].resources.limits["nvidia.com/gpu"]` -> its steps."""
    steps: list[str | int] = []
    for name, index, key in _SEGMENT.findall(path):
        if name:
            steps.append(name)
        elif index:
            steps.append(int(index))
        else:
            steps.append(json.loads(f'"{key}"'))
    return steps


class LineMap:
    """Finds the YAML line of a field path inside one object.

    Holds the composed YAML node of the document (or a function that composes
    it on first use: JSON is parsed with the json module for speed, and only
    composed again when an error needs a line) and the steps from the
    document root to the object (`items[3]` in a List). Lookups walk the node
    tree, so lines cost nothing until an error asks; a path that is absent
    resolves to its nearest present ancestor.
    """

    __slots__ = ("_load", "_offset", "_prefix", "_root")

    def __init__(
        self,
        root: yaml.Node | None = None,
        prefix: tuple[str | int, ...] = (),
        load: Callable[[], yaml.Node | None] | None = None,
        offset: int = 0,
    ) -> None:
        self._root = root
        self._load = load
        self._prefix = prefix
        self._offset = offset  # lines before the composed text in its file

    def _node(self) -> yaml.Node | None:
        if self._root is None and self._load is not None:
            self._root = self._load()
            self._load = None
        return self._root

    @property
    def loaded(self) -> bool:
        """True when lines are at hand without parsing anything again."""
        return self._root is not None

    def line(self, path: str = "") -> int | None:
        node = self._node()
        if node is None:
            return None
        line = node.start_mark.line
        for step in (*self._prefix, *path_segments(path)):
            if isinstance(node, yaml.MappingNode) and isinstance(step, str):
                found = next((kv for kv in node.value if kv[0].value == step), None)
                if found is None:
                    break
                line = found[0].start_mark.line  # the line naming the field
                node = found[1]
            elif isinstance(node, yaml.SequenceNode) and isinstance(step, int):
                if step >= len(node.value):
                    break
                node = node.value[step]
                line = node.start_mark.line
            else:
                break
        return line + 1 + self._offset


class Ctx:
    """Error context while reading one object."""

    __slots__ = ("file", "lines", "obj", "problems")

    def __init__(
        self,
        file: str,
        obj: ObjectRef | None,
        lines: LineMap | None,
        problems: list[IngestError],
    ) -> None:
        self.file = file
        self.obj = obj
        self.lines = lines
        self.problems = problems

    def line(self, path: str = "") -> int | None:
        return self.lines.line(path) if self.lines is not None else None

    def error(self, path: str, message: str) -> None:
        """Record one problem; the line is looked up from the path."""
        self.problems.append(IngestError(self.file, self.line(path), self.obj, path, message))


# --- field paths and error bodies (apimachinery field.Path / field.Error) ------


def child(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def index(path: str, i: int) -> str:
    return f"{path}[{i}]"


def key(path: str, k: str) -> str:
    return f"{path}[{json.dumps(k)}]"


def go_value(value: Any) -> str:
    """A value as field.Error prints it: strings quoted, numbers bare."""
    if isinstance(value, str):
        return json.dumps(value)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value) if isinstance(value, int | float) else json.dumps(value, default=str)


def required(detail: str = "") -> str:
    return f"Required value: {detail}" if detail else "Required value"


def invalid(value: Any, detail: str) -> str:
    return f"Invalid value: {go_value(value)}: {detail}"


def unsupported(value: Any, supported: Iterable[str]) -> str:
    listed = ", ".join(json.dumps(s) for s in supported)
    return f"Unsupported value: {go_value(value)}: supported values: {listed}"


def forbidden(detail: str) -> str:
    return f"Forbidden: {detail}"


def duplicate(value: Any) -> str:
    return f"Duplicate value: {go_value(value)}"


# --- typed access ---------------------------------------------------------------

_TYPE_NAMES = {
    dict: "an object",
    list: "a list",
    str: "a string",
    int: "an integer",
    bool: "a boolean",
}


def _type_error(ctx: Ctx, path: str, data: Any, want: type) -> None:
    ctx.error(path, invalid(data, f"must be {_TYPE_NAMES[want]}"))


def as_map(data: Any, ctx: Ctx, path: str) -> dict[str, Any]:
    """A mapping field; absent/null gives {} and a wrong type an error."""
    if data is None:
        return {}
    if isinstance(data, dict):
        return data
    _type_error(ctx, path, data, dict)
    return {}


def as_list(data: Any, ctx: Ctx, path: str) -> list[Any]:
    if data is None:
        return []
    if isinstance(data, list):
        return data
    _type_error(ctx, path, data, list)
    return []


def as_str(data: Any, ctx: Ctx, path: str, default: str = "") -> str:
    if data is None:
        return default
    if isinstance(data, str):
        return data
    _type_error(ctx, path, data, str)
    return default


def as_int(data: Any, ctx: Ctx, path: str, default: int | None = None) -> int | None:
    if data is None:
        return default
    if isinstance(data, int) and not isinstance(data, bool):
        return data
    if isinstance(data, float) and data.is_integer():
        return int(data)  # JSON numbers may arrive as 2.0
    _type_error(ctx, path, data, int)
    return default


def as_bool(data: Any, ctx: Ctx, path: str, default: bool = False) -> bool:
    if data is None:
        return default
    if isinstance(data, bool):
        return data
    _type_error(ctx, path, data, bool)
    return default


def _all_str(values: Iterable[Any]) -> bool:
    return all(type(v) is str for v in values)


def as_str_list(data: Any, ctx: Ctx, path: str) -> tuple[str, ...]:
    if type(data) is list and _all_str(data):
        return tuple(data)  # the common case, without building paths
    items = as_list(data, ctx, path)
    return tuple(as_str(v, ctx, index(path, i)) for i, v in enumerate(items))


def as_str_map(data: Any, ctx: Ctx, path: str) -> dict[str, str]:
    """labels, annotations, nodeSelector: string to string. YAML may give
    `gpu: true` or `count: 2`; the API rejects those, so do we."""
    if type(data) is dict and _all_str(data.values()) and _all_str(data):
        return dict(data)
    out: dict[str, str] = {}
    for k, v in as_map(data, ctx, path).items():
        if isinstance(v, str):
            out[str(k)] = v
        elif v is None:
            out[str(k)] = ""
        else:
            ctx.error(key(path, str(k)), invalid(v, "must be a string (quote it in YAML)"))
    return out


# --- names (apimachinery pkg/util/validation/validation.go) -----------------------

_QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
_QUALIFIED_NAME = re.compile(f"^{_QUALIFIED_NAME_FMT}$")
_DNS1123_SUBDOMAIN_FMT = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*"
_DNS1123_SUBDOMAIN = re.compile(f"^{_DNS1123_SUBDOMAIN_FMT}$")
_LABEL_VALUE_FMT = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?"
_LABEL_VALUE = re.compile(f"^{_LABEL_VALUE_FMT}$")


@lru_cache(maxsize=8192)
def qualified_name_problems(value: str) -> tuple[str, ...]:
    """IsQualifiedName: an optional DNS-subdomain prefix and a name part."""
    problems: list[str] = []
    parts = value.split("/")
    if len(parts) == 1:
        name = parts[0]
    elif len(parts) == 2:
        prefix, name = parts
        if not prefix:
            problems.append("prefix part must be non-empty")
        elif len(prefix) > 253:
            problems.append("prefix part must be no more than 253 bytes")
        elif not _DNS1123_SUBDOMAIN.match(prefix):
            problems.append(
                "prefix part a lowercase RFC 1123 subdomain must consist of lower case "
                "alphanumeric characters, '-' or '.', and must start and end with an "
                "alphanumeric character (e.g. 'example.com', regex used for validation is "
                f"'{_DNS1123_SUBDOMAIN_FMT}')"
            )
    else:
        return (
            "a qualified name must consist of alphanumeric characters, '-', '_' or '.', "
            "and must start and end with an alphanumeric character (e.g. 'MyName',  or "
            "'my.name',  or '123-abc', regex used for validation is "
            f"'{_QUALIFIED_NAME_FMT}') with an optional DNS subdomain prefix and '/' "
            "(e.g. 'example.com/MyName')",
        )
    if not name:
        problems.append("name part must be non-empty")
    elif len(name) > 63:
        problems.append("name part must be no more than 63 bytes")
    if name and not _QUALIFIED_NAME.match(name):
        problems.append(
            "name part must consist of alphanumeric characters, '-', '_' or '.', and must "
            "start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  "
            f"or '123-abc', regex used for validation is '{_QUALIFIED_NAME_FMT}')"
        )
    return tuple(problems)


@lru_cache(maxsize=8192)
def label_value_problems(value: str) -> tuple[str, ...]:
    problems: list[str] = []
    if len(value) > 63:
        problems.append("must be no more than 63 bytes")
    if not _LABEL_VALUE.match(value):
        problems.append(
            "a valid label must be an empty string or consist of alphanumeric characters, "
            "'-', '_' or '.', and must start and end with an alphanumeric character (e.g. "
            "'MyValue',  or 'my_value',  or '12345', regex used for validation is "
            f"'{_LABEL_VALUE_FMT}')"
        )
    return tuple(problems)


def check_label_name(name: str, ctx: Ctx, path: str) -> None:
    for problem in qualified_name_problems(name):
        ctx.error(path, invalid(name, problem))


def check_label_value(value: str, ctx: Ctx, path: str) -> None:
    for problem in label_value_problems(value):
        ctx.error(path, invalid(value, problem))


def read_labels(data: Any, ctx: Ctx, path: str) -> dict[str, str]:
    """A label map (metadata.labels, matchLabels, nodeSelector), validated."""
    labels = as_str_map(data, ctx, path)
    for name, value in labels.items():
        check_label_name(name, ctx, path)
        check_label_value(value, ctx, path)
    return labels


# --- label selectors (metav1.LabelSelector) ------------------------------------------

LABEL_SELECTOR_OPERATORS = ("In", "NotIn", "Exists", "DoesNotExist")
NODE_SELECTOR_OPERATORS = ("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt")
_NOT_A_SELECTOR_OPERATOR = "not a valid selector operator"


def _check_values_for_operator(
    operator: str, values: tuple[str, ...], ctx: Ctx, path: str, allowed: tuple[str, ...]
) -> bool:
    """The operator/values rules shared by label and node selector requirements.
    Returns False when the operator itself is unknown."""
    if operator in ("In", "NotIn"):
        if not values:
            ctx.error(
                child(path, "values"),
                required("must be specified when `operator` is 'In' or 'NotIn'"),
            )
    elif operator in ("Exists", "DoesNotExist"):
        if values:
            ctx.error(
                child(path, "values"),
                forbidden("may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
            )
    elif operator in ("Gt", "Lt") and operator in allowed:
        if len(values) != 1:
            ctx.error(
                child(path, "values"),
                required("must be specified single value when `operator` is 'Lt' or 'Gt'"),
            )
        elif not re.fullmatch(r"[+-]?\d+", values[0]):
            # The API accepts it, but the scheduler cannot parse it and the
            # term matches no node (component-helpers nodeaffinity).
            ctx.error(index(child(path, "values"), 0), invalid(values[0], "must be an integer"))
    else:
        ctx.error(child(path, "operator"), invalid(operator, _NOT_A_SELECTOR_OPERATOR))
        return False
    return True


def parse_label_selector(data: Any, ctx: Ctx, path: str) -> LabelSelector | None:
    """metav1.LabelSelector; None for absent/null (upstream's nil selector)."""
    if data is None:
        return None
    raw = as_map(data, ctx, path)
    match_labels = read_labels(raw.get("matchLabels"), ctx, child(path, "matchLabels"))
    requirements: list[LabelSelectorRequirement] = []
    exprs_path = child(path, "matchExpressions")
    for i, item in enumerate(as_list(raw.get("matchExpressions"), ctx, exprs_path)):
        item_path = index(exprs_path, i)
        expr = as_map(item, ctx, item_path)
        req_key = as_str(expr.get("key"), ctx, child(item_path, "key"))
        operator = as_str(expr.get("operator"), ctx, child(item_path, "operator"))
        values = as_str_list(expr.get("values"), ctx, child(item_path, "values"))
        _check_values_for_operator(operator, values, ctx, item_path, LABEL_SELECTOR_OPERATORS)
        check_label_name(req_key, ctx, child(item_path, "key"))
        requirements.append(LabelSelectorRequirement(req_key, operator, values))
    return LabelSelector(tuple(sorted(match_labels.items())), tuple(requirements))


def selector_from_map(data: Any, ctx: Ctx, path: str) -> LabelSelector | None:
    """A plain `key: value` selector (Service, ReplicationController); None if absent."""
    if data is None:
        return None
    labels = read_labels(data, ctx, path)
    return LabelSelector(tuple(sorted(labels.items())))


# --- node affinity --------------------------------------------------------------------

NODE_NAME_FIELD = "metadata.name"


def _parse_node_requirement(
    data: Any, ctx: Ctx, path: str, fields: bool
) -> NodeSelectorRequirement:
    raw = as_map(data, ctx, path)
    req_key = as_str(raw.get("key"), ctx, child(path, "key"))
    operator = as_str(raw.get("operator"), ctx, child(path, "operator"))
    values = as_str_list(raw.get("values"), ctx, child(path, "values"))
    if not fields:
        _check_values_for_operator(operator, values, ctx, path, NODE_SELECTOR_OPERATORS)
        check_label_name(req_key, ctx, child(path, "key"))
        return NodeSelectorRequirement(req_key, operator, values)
    # ValidateNodeFieldSelectorRequirement
    if operator in ("In", "NotIn"):
        if len(values) != 1:
            ctx.error(
                child(path, "values"),
                required(
                    "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"
                ),
            )
    else:
        ctx.error(child(path, "operator"), invalid(operator, _NOT_A_SELECTOR_OPERATOR))
    if req_key != NODE_NAME_FIELD:
        ctx.error(child(path, "key"), invalid(req_key, "not a valid field selector key"))
    return NodeSelectorRequirement(req_key, operator, values)


def parse_node_selector_term(data: Any, ctx: Ctx, path: str) -> NodeSelectorTerm:
    raw = as_map(data, ctx, path)
    exprs_path = child(path, "matchExpressions")
    fields_path = child(path, "matchFields")
    expressions = tuple(
        _parse_node_requirement(item, ctx, index(exprs_path, i), fields=False)
        for i, item in enumerate(as_list(raw.get("matchExpressions"), ctx, exprs_path))
    )
    match_fields = tuple(
        _parse_node_requirement(item, ctx, index(fields_path, i), fields=True)
        for i, item in enumerate(as_list(raw.get("matchFields"), ctx, fields_path))
    )
    return NodeSelectorTerm(expressions, match_fields)


def _check_weight(weight: int | None, ctx: Ctx, path: str) -> int:
    if weight is None or weight <= 0 or weight > 100:
        ctx.error(path, invalid(weight if weight is not None else 0, "must be in the range 1-100"))
        return 0
    return weight


def parse_node_affinity(data: Any, ctx: Ctx, path: str) -> NodeAffinity | None:
    if data is None:
        return None
    raw = as_map(data, ctx, path)
    required_terms: tuple[NodeSelectorTerm, ...] | None = None
    req_path = child(path, "requiredDuringSchedulingIgnoredDuringExecution")
    if raw.get("requiredDuringSchedulingIgnoredDuringExecution") is not None:
        selector = as_map(raw["requiredDuringSchedulingIgnoredDuringExecution"], ctx, req_path)
        terms_path = child(req_path, "nodeSelectorTerms")
        terms = as_list(selector.get("nodeSelectorTerms"), ctx, terms_path)
        if not terms:
            ctx.error(terms_path, required("must have at least one node selector term"))
        required_terms = tuple(
            parse_node_selector_term(t, ctx, index(terms_path, i)) for i, t in enumerate(terms)
        )
    pref_path = child(path, "preferredDuringSchedulingIgnoredDuringExecution")
    preferred: list[PreferredSchedulingTerm] = []
    for i, item in enumerate(
        as_list(raw.get("preferredDuringSchedulingIgnoredDuringExecution"), ctx, pref_path)
    ):
        item_path = index(pref_path, i)
        entry = as_map(item, ctx, item_path)
        weight = _check_weight(
            as_int(entry.get("weight"), ctx, child(item_path, "weight")),
            ctx,
            child(item_path, "weight"),
        )
        pref_term_path = child(item_path, "preference")
        if entry.get("preference") is None:
            ctx.error(pref_term_path, required())
        term = parse_node_selector_term(entry.get("preference"), ctx, pref_term_path)
        preferred.append(PreferredSchedulingTerm(weight, term))
    return NodeAffinity(required_terms, tuple(preferred))


# --- pod affinity ---------------------------------------------------------------------


def parse_pod_affinity_term(data: Any, ctx: Ctx, path: str) -> PodAffinityTerm:
    raw = as_map(data, ctx, path)
    selector = parse_label_selector(raw.get("labelSelector"), ctx, child(path, "labelSelector"))
    namespace_selector = parse_label_selector(
        raw.get("namespaceSelector"), ctx, child(path, "namespaceSelector")
    )
    namespaces = as_str_list(raw.get("namespaces"), ctx, child(path, "namespaces"))
    topology_key = as_str(raw.get("topologyKey"), ctx, child(path, "topologyKey"))
    if not topology_key:
        ctx.error(child(path, "topologyKey"), required("can not be empty"))
    else:
        check_label_name(topology_key, ctx, child(path, "topologyKey"))
    match_keys = as_str_list(raw.get("matchLabelKeys"), ctx, child(path, "matchLabelKeys"))
    mismatch_keys = as_str_list(raw.get("mismatchLabelKeys"), ctx, child(path, "mismatchLabelKeys"))
    _check_label_keys(selector, match_keys, mismatch_keys, ctx, path)
    return PodAffinityTerm(
        topology_key=topology_key,
        label_selector=selector,
        namespaces=namespaces,
        namespace_selector=namespace_selector,
        match_label_keys=match_keys,
        mismatch_label_keys=mismatch_keys,
    )


def _check_label_keys(
    selector: LabelSelector | None,
    match_keys: tuple[str, ...],
    mismatch_keys: tuple[str, ...],
    ctx: Ctx,
    path: str,
) -> None:
    """validateMatchLabelKeysAndMismatchLabelKeys (core validation)."""
    for name, keys in (("matchLabelKeys", match_keys), ("mismatchLabelKeys", mismatch_keys)):
        if keys and selector is None:
            ctx.error(
                child(path, name), forbidden("must not be specified when labelSelector is not set")
            )
        for i, k in enumerate(keys):
            check_label_name(k, ctx, index(child(path, name), i))
    for i, k in enumerate(match_keys):
        if k in mismatch_keys:
            ctx.error(
                index(child(path, "matchLabelKeys"), i),
                invalid(k, "exists in both matchLabelKeys and mismatchLabelKeys"),
            )


def parse_pod_affinity(data: Any, ctx: Ctx, path: str) -> PodAffinity | None:
    """podAffinity or podAntiAffinity."""
    if data is None:
        return None
    raw = as_map(data, ctx, path)
    req_path = child(path, "requiredDuringSchedulingIgnoredDuringExecution")
    required_terms = tuple(
        parse_pod_affinity_term(t, ctx, index(req_path, i))
        for i, t in enumerate(
            as_list(raw.get("requiredDuringSchedulingIgnoredDuringExecution"), ctx, req_path)
        )
    )
    pref_path = child(path, "preferredDuringSchedulingIgnoredDuringExecution")
    preferred: list[WeightedPodAffinityTerm] = []
    for i, item in enumerate(
        as_list(raw.get("preferredDuringSchedulingIgnoredDuringExecution"), ctx, pref_path)
    ):
        item_path = index(pref_path, i)
        entry = as_map(item, ctx, item_path)
        weight_path = child(item_path, "weight")
        weight = _check_weight(as_int(entry.get("weight"), ctx, weight_path), ctx, weight_path)
        term = parse_pod_affinity_term(
            entry.get("podAffinityTerm"), ctx, child(item_path, "podAffinityTerm")
        )
        preferred.append(WeightedPodAffinityTerm(weight, term))
    return PodAffinity(required_terms, tuple(preferred))


# --- topology spread constraints ---------------------------------------------------------

WHEN_UNSATISFIABLE = ("DoNotSchedule", "ScheduleAnyway")
NODE_INCLUSION_POLICIES = ("Honor", "Ignore")
_NOT_POSITIVE = "must be greater than zero"


def parse_topology_spread_constraints(
    data: Any, ctx: Ctx, path: str
) -> tuple[TopologySpreadConstraint, ...]:
    """spec.topologySpreadConstraints, validated as validateTopologySpreadConstraints."""
    constraints: list[TopologySpreadConstraint] = []
    seen: set[tuple[str, str]] = set()
    for i, item in enumerate(as_list(data, ctx, path)):
        item_path = index(path, i)
        raw = as_map(item, ctx, item_path)
        max_skew = as_int(raw.get("maxSkew"), ctx, child(item_path, "maxSkew"), 0) or 0
        if max_skew <= 0:
            ctx.error(child(item_path, "maxSkew"), invalid(max_skew, _NOT_POSITIVE))
        topology_key = as_str(raw.get("topologyKey"), ctx, child(item_path, "topologyKey"))
        if not topology_key:
            ctx.error(child(item_path, "topologyKey"), required("can not be empty"))
        else:
            check_label_name(topology_key, ctx, child(item_path, "topologyKey"))
        when = as_str(raw.get("whenUnsatisfiable"), ctx, child(item_path, "whenUnsatisfiable"))
        if when not in WHEN_UNSATISFIABLE:
            ctx.error(child(item_path, "whenUnsatisfiable"), unsupported(when, WHEN_UNSATISFIABLE))
        if (topology_key, when) in seen:
            ctx.error(
                child(item_path, "{topologyKey, whenUnsatisfiable}"),
                duplicate(f"{{{topology_key}, {when}}}"),
            )
        seen.add((topology_key, when))
        min_domains = as_int(raw.get("minDomains"), ctx, child(item_path, "minDomains"))
        if min_domains is not None:
            if min_domains <= 0:
                ctx.error(child(item_path, "minDomains"), invalid(min_domains, _NOT_POSITIVE))
            if when != "DoNotSchedule":
                ctx.error(
                    child(item_path, "minDomains"),
                    invalid(
                        min_domains,
                        f"can only use minDomains if whenUnsatisfiable=DoNotSchedule, not {when}",
                    ),
                )
        policies: list[str | None] = []
        for name in ("nodeAffinityPolicy", "nodeTaintsPolicy"):
            policy = raw.get(name)
            if policy is not None:
                policy = as_str(policy, ctx, child(item_path, name))
                if policy not in NODE_INCLUSION_POLICIES:
                    ctx.error(child(item_path, name), unsupported(policy, NODE_INCLUSION_POLICIES))
            policies.append(policy)
        selector = parse_label_selector(
            raw.get("labelSelector"), ctx, child(item_path, "labelSelector")
        )
        match_keys = as_str_list(raw.get("matchLabelKeys"), ctx, child(item_path, "matchLabelKeys"))
        _check_spread_match_label_keys(
            selector, match_keys, ctx, child(item_path, "matchLabelKeys")
        )
        constraints.append(
            TopologySpreadConstraint(
                max_skew=max_skew,
                topology_key=topology_key,
                when_unsatisfiable=when,
                label_selector=selector,
                min_domains=min_domains,
                node_affinity_policy=policies[0],
                node_taints_policy=policies[1],
                match_label_keys=match_keys,
            )
        )
    return tuple(constraints)


def _check_spread_match_label_keys(
    selector: LabelSelector | None, keys: tuple[str, ...], ctx: Ctx, path: str
) -> None:
    """validateMatchLabelKeysInTopologySpread."""
    if not keys:
        return
    if selector is None:
        ctx.error(path, forbidden("must not be specified when labelSelector is not set"))
        return
    selector_keys = {k for k, _ in selector.match_labels} | {
        r.key for r in selector.match_expressions
    }
    for i, k in enumerate(keys):
        check_label_name(k, ctx, index(path, i))
        if k in selector_keys:
            ctx.error(index(path, i), invalid(k, "exists in both matchLabelKeys and labelSelector"))


# --- tolerations ------------------------------------------------------------------------

TAINT_EFFECTS = ("NoSchedule", "PreferNoSchedule", "NoExecute")
TOLERATION_OPERATORS = ("Equal", "Exists")


def check_taint_effect(effect: str, ctx: Ctx, path: str, allow_empty: bool) -> bool:
    """validateTaintEffect."""
    if not effect:
        if allow_empty:
            return True
        ctx.error(path, required())
        return False
    if effect not in TAINT_EFFECTS:
        ctx.error(path, unsupported(effect, TAINT_EFFECTS))
        return False
    return True


def parse_tolerations(data: Any, ctx: Ctx, path: str) -> tuple[Toleration, ...]:
    """spec.tolerations, validated as validateTolerations."""
    tolerations: list[Toleration] = []
    for i, item in enumerate(as_list(data, ctx, path)):
        item_path = index(path, i)
        raw = as_map(item, ctx, item_path)
        tol_key = as_str(raw.get("key"), ctx, child(item_path, "key"))
        operator = as_str(raw.get("operator"), ctx, child(item_path, "operator"))
        value = as_str(raw.get("value"), ctx, child(item_path, "value"))
        effect = as_str(raw.get("effect"), ctx, child(item_path, "effect"))
        seconds = as_int(raw.get("tolerationSeconds"), ctx, child(item_path, "tolerationSeconds"))
        if tol_key:
            check_label_name(tol_key, ctx, child(item_path, "key"))
        elif operator != "Exists":
            ctx.error(
                child(item_path, "operator"),
                invalid(
                    operator,
                    'operator must be Exists when `key` is empty, which means "match all values and all keys"',
                ),
            )
        if seconds is not None and effect != "NoExecute":
            ctx.error(
                child(item_path, "effect"),
                invalid(effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"),
            )
        if operator in ("Equal", ""):
            for problem in label_value_problems(value):
                ctx.error(child(item_path, "operator"), invalid(value, problem))
        elif operator == "Exists":
            if value:
                ctx.error(
                    child(item_path, "operator"),
                    invalid(value, "value must be empty when `operator` is 'Exists'"),
                )
        else:
            ctx.error(child(item_path, "operator"), unsupported(operator, TOLERATION_OPERATORS))
        check_taint_effect(effect, ctx, child(item_path, "effect"), allow_empty=True)
        tolerations.append(Toleration(tol_key, operator or "Equal", value, effect, seconds))
    return tuple(tolerations)
