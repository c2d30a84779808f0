"""PriorityClass, and the checks that need every file read first: duplicate
names and each pod's priority (the Priority admission plugin,
plugin/pkg/admission/priority/admission.go)."""

from __future__ import annotations

from engine.ingest.fields import (
    IngestError,
    as_bool,
    as_int,
    as_str,
    forbidden,
    unsupported,
)
from engine.ingest.kinds.common import Document, start
from engine.ingest.result import BUILT_IN, IngestResult, PrioritySite
from engine.model.objects import ObjectRef, PriorityClass, Source

PREEMPTION_POLICIES = ("Never", "PreemptLowerPriority")
HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000
# pkg/apis/scheduling/types.go SystemPriorityClasses
BUILT_IN_CLASSES = (
    PriorityClass("system-cluster-critical", 2_000_000_000, source=BUILT_IN),
    PriorityClass("system-node-critical", 2_000_001_000, source=BUILT_IN),
)
_BUILT_IN_VALUES = {pc.name: pc.value for pc in BUILT_IN_CLASSES}


def read_priority_class(doc: Document, out: IngestResult) -> None:
    meta, ctx = start(doc, out, namespaced=False)
    value = as_int(doc.data.get("value"), ctx, "value", 0) or 0
    policy = as_str(
        doc.data.get("preemptionPolicy"), ctx, "preemptionPolicy", "PreemptLowerPriority"
    )
    if policy not in PREEMPTION_POLICIES:
        ctx.error("preemptionPolicy", unsupported(policy, PREEMPTION_POLICIES))
    if meta.name in _BUILT_IN_VALUES:
        if value != _BUILT_IN_VALUES[meta.name]:
            ctx.error(
                "value",
                forbidden(f"{meta.name} is built in with value {_BUILT_IN_VALUES[meta.name]}"),
            )
            return
    elif meta.name.startswith("system-"):
        ctx.error(
            "metadata.name", forbidden("priority class names with 'system-' prefix are reserved")
        )
    elif value > HIGHEST_USER_DEFINABLE_PRIORITY:
        ctx.error(
            "value",
            forbidden(
                f"maximum allowed value of a user defined priority is {HIGHEST_USER_DEFINABLE_PRIORITY}"
            ),
        )
    out.priority_classes.append(
        PriorityClass(
            name=meta.name,
            value=value,
            global_default=as_bool(doc.data.get("globalDefault"), ctx, "globalDefault"),
            preemption_policy=policy,
            description=as_str(doc.data.get("description"), ctx, "description"),
            source=doc.source,
        )
    )


def place(source: Source | None) -> str:
    """Where an object is, for messages that name a second place."""
    if source is None:
        return "?"
    if source.line is None and source.index is not None:
        return f"{source.file} (object {source.index + 1})"
    return str(source)


def _cross_error(source: Source | None, obj: ObjectRef, field: str, message: str) -> IngestError:
    file = source.file if source else "?"
    line = source.line if source else None
    return IngestError(file, line, obj, field, message, cross_object=True)


def check_duplicates(out: IngestResult) -> None:
    """Duplicate node names, pods (namespace/name) and PriorityClasses, and
    more than one globalDefault PriorityClass."""
    groups = (
        ("Node", [(n.name, n.ref, n.source) for n in out.nodes]),
        ("Pod", [(p.key, p.ref, p.source) for p in out.pods]),
        (
            "PriorityClass",
            [
                (pc.name, ObjectRef("PriorityClass", None, pc.name), pc.source)
                for pc in out.priority_classes
                if pc.source != BUILT_IN
            ],
        ),
    )
    for kind, entries in groups:
        first_seen: dict[str, Source | None] = {}
        for name, ref, source in entries:
            if name in first_seen:
                message = f'duplicate {kind} "{name}": also defined at {place(first_seen[name])}'
                out.errors.append(_cross_error(source, ref, "metadata.name", message))
            else:
                first_seen[name] = source
    defaults = [pc for pc in out.priority_classes if pc.global_default]
    for pc in defaults[1:]:
        message = f"PriorityClass {defaults[0].name} is already marked as default. Only one default can exist"
        out.errors.append(
            _cross_error(
                pc.source, ObjectRef("PriorityClass", None, pc.name), "globalDefault", message
            )
        )


def add_built_in_classes(out: IngestResult) -> None:
    defined = {pc.name for pc in out.priority_classes}
    out.priority_classes.extend(pc for pc in BUILT_IN_CLASSES if pc.name not in defined)


def resolve_priorities(out: IngestResult) -> None:
    """Give every pod its priority and preemption policy.

    A named class gives its value and policy; an unknown name is an error.
    Without a name, a spec.priority already set (a snapshot pod, admitted
    earlier) stands; otherwise the globalDefault class (the lowest-valued if
    several), else 0.
    """
    classes = {pc.name: pc for pc in out.priority_classes}
    defaults = [pc for pc in out.priority_classes if pc.global_default]
    default = min(defaults, key=lambda pc: pc.value) if defaults else None
    for site in out.priority_sites:
        class_name, policy, priority = (
            site.class_name,
            site.spec_preemption_policy,
            site.spec_priority,
        )
        if class_name:
            pc = classes.get(class_name)
            if pc is None:
                _unknown_class(out, site)
            else:
                priority, policy = pc.value, pc.preemption_policy
        elif priority is None and default is not None:
            class_name, priority, policy = default.name, default.value, default.preemption_policy
        for pod in site.pods:
            pod.priority_class_name = class_name
            pod.priority = priority or 0
            pod.preemption_policy = policy or "PreemptLowerPriority"


def _unknown_class(out: IngestResult, site: PrioritySite) -> None:
    if site.line is None and site.lines is not None:
        site.line = site.lines.line(site.field)
    message = f'no PriorityClass with name "{site.class_name}" was found'
    out.errors.append(
        IngestError(site.file, site.line, site.obj, site.field, message, cross_object=True)
    )
