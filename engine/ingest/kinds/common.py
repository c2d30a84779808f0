"""What every kind reader shares: the document being read, its metadata,
resource lists, and upstream's name generators."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engine.ingest.fields import (
    Ctx,
    LineMap,
    as_list,
    as_map,
    as_str,
    check_label_name,
    child,
    index,
    invalid,
    key,
    qualified_name_problems,
    read_labels,
    required,
)
from engine.ingest.result import IngestResult
from engine.model.objects import ObjectRef, OwnerRef, Source
from engine.model.quantity import Quantity, QuantityError, parse_quantity

DEFAULT_NAMESPACE = "default"


@dataclass(slots=True)
class Document:
    """One Kubernetes object to read (a YAML/JSON document or a List item)."""

    data: dict[str, Any]
    file: str
    lines: LineMap | None
    source: Source
    api_version: str
    kind: str

    @property
    def group(self) -> str:
        return self.api_version.rpartition("/")[0]


@dataclass(slots=True)
class Meta:
    name: str
    namespace: str | None
    uid: str
    labels: dict[str, str]
    annotations: dict[str, str]
    owner: OwnerRef | None  # the ownerReference with controller: true


# --- names --------------------------------------------------------------------

# k8s.io/apimachinery/pkg/util/rand: the alphabet of generated name suffixes
# (no vowels, no look-alike characters).
SUFFIX_ALPHABET = "bcdfghjklmnpqrstvwxz2456789"


def random_suffix(seed: str, length: int = 5) -> str:
    """A stand-in for rand.String(5): same alphabet, derived from `seed` so
    that the same input always gives the same names."""
    number = int.from_bytes(hashlib.blake2b(seed.encode(), digest_size=8).digest(), "big")
    chars = []
    for _ in range(length):
        number, digit = divmod(number, len(SUFFIX_ALPHABET))
        chars.append(SUFFIX_ALPHABET[digit])
    return "".join(chars)


def safe_encode(text: str) -> str:
    """rand.SafeEncodeString: each byte mapped into the suffix alphabet."""
    return "".join(SUFFIX_ALPHABET[b % len(SUFFIX_ALPHABET)] for b in text.encode())


def fnv32a(data: bytes) -> int:
    h = 0x811C9DC5
    for b in data:
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return h


def deterministic_uid(seed: str) -> str:
    digest = hashlib.blake2b(seed.encode(), digest_size=16).hexdigest()
    return f"{digest[:8]}-{digest[8:12]}-{digest[12:16]}-{digest[16:20]}-{digest[20:32]}"


# --- metadata -----------------------------------------------------------------


def start(doc: Document, out: IngestResult, namespaced: bool) -> tuple[Meta, Ctx]:
    """Read metadata and open the error context named after the object.

    A missing name with a generateName gets upstream's 5-character suffix,
    derived from the file and position so repeated ingests agree.
    """
    raw = doc.data.get("metadata")
    meta_raw = raw if isinstance(raw, dict) else {}
    name = meta_raw.get("name")
    generate_name = meta_raw.get("generateName")
    if not isinstance(name, str) or not name:
        name = ""
        if isinstance(generate_name, str) and generate_name:
            name = generate_name + random_suffix(
                f"{doc.source.file}#{doc.source.index}#{generate_name}"
            )
    namespace: str | None = None
    if namespaced:
        ns = meta_raw.get("namespace")
        namespace = ns if isinstance(ns, str) and ns else DEFAULT_NAMESPACE
    ctx = Ctx(doc.file, ObjectRef(doc.kind, namespace, name or "<unnamed>"), doc.lines, out.errors)
    if raw is not None and not isinstance(raw, dict):
        as_map(raw, ctx, "metadata")
    if not name:
        ctx.error("metadata.name", required("name or generateName is required"))
    uid = as_str(meta_raw.get("uid"), ctx, "metadata.uid")
    labels = read_labels(meta_raw.get("labels"), ctx, "metadata.labels")
    annotations = read_annotations(meta_raw.get("annotations"), ctx, "metadata.annotations")
    owner = read_controller_ref(meta_raw.get("ownerReferences"), ctx, "metadata.ownerReferences")
    return Meta(name, namespace, uid, labels, annotations, owner), ctx


def read_annotations(data: Any, ctx: Ctx, path: str) -> dict[str, str]:
    annotations: dict[str, str] = {}
    for k, v in as_map(data, ctx, path).items():
        k = str(k)
        if isinstance(v, str):
            annotations[k] = v
        else:
            ctx.error(key(path, k), invalid(v, "must be a string (quote it in YAML)"))
        for problem in qualified_name_problems(k.lower()):
            ctx.error(path, invalid(k, problem))
    return annotations


def read_controller_ref(data: Any, ctx: Ctx, path: str) -> OwnerRef | None:
    """The owner reference marked `controller: true` (metav1.GetControllerOf)."""
    for i, item in enumerate(as_list(data, ctx, path)):
        ref = as_map(item, ctx, index(path, i))
        if ref.get("controller") is True:
            return OwnerRef(
                kind=as_str(ref.get("kind"), ctx, child(index(path, i), "kind")),
                name=as_str(ref.get("name"), ctx, child(index(path, i), "name")),
                uid=as_str(ref.get("uid"), ctx, child(index(path, i), "uid")),
            )
    return None


# --- resources ------------------------------------------------------------------

INTEGER_NATIVE_RESOURCES = frozenset(
    {
        "pods",
        "quota",
        "services",
        "replicationcontrollers",
        "secrets",
        "configmaps",
        "persistentvolumeclaims",
        "services.nodeports",
        "services.loadbalancers",
    }
)
STANDARD_CONTAINER_RESOURCES = frozenset({"cpu", "memory", "ephemeral-storage"})


def is_native_resource(name: str) -> bool:
    """IsNativeResource: no domain, or a kubernetes.io domain."""
    return "/" not in name or "kubernetes.io/" in name


def is_extended_resource(name: str) -> bool:
    """IsExtendedResourceName (pkg/apis/core/helper): a domain-prefixed name
    outside kubernetes.io, e.g. nvidia.com/gpu."""
    if is_native_resource(name) or name.startswith("requests."):
        return False
    return not qualified_name_problems("requests." + name)


def is_integer_resource(name: str) -> bool:
    return name in INTEGER_NATIVE_RESOURCES or is_extended_resource(name)


def read_quantity(data: Any, ctx: Ctx, path: str) -> Quantity | None:
    """One quantity; strings are trimmed as Quantity.UnmarshalJSON does."""
    if isinstance(data, str):
        data = data.strip()
    if not isinstance(data, str | int | float) or isinstance(data, bool):
        ctx.error(path, invalid(data, "must be a quantity such as 2, 500m or 64Gi"))
        return None
    try:
        return parse_quantity(data)
    except QuantityError as exc:
        ctx.error(path, str(exc))
        return None


def read_resource_list(data: Any, ctx: Ctx, path: str) -> dict[str, Quantity]:
    """A ResourceList, each value checked as ValidateResourceQuantityValue:
    not negative, and whole for pods and extended resources."""
    quantities: dict[str, Quantity] = {}
    for name, value in as_map(data, ctx, path).items():
        name = str(name)
        item_path = key(path, name)
        quantity = read_quantity(value, ctx, item_path)
        if quantity is None:
            continue
        shown = value.strip() if isinstance(value, str) else str(value)  # as Quantity.String()
        if quantity.amount < 0:
            ctx.error(item_path, invalid(shown, "must be greater than or equal to 0"))
        if is_integer_resource(name) and quantity.amount.denominator != 1:
            ctx.error(item_path, invalid(shown, "must be an integer"))
        quantities[name] = quantity
    return quantities


def check_container_resource_name(name: str, ctx: Ctx, path: str) -> None:
    """validateContainerResourceName."""
    if "/" not in name:
        if name not in STANDARD_CONTAINER_RESOURCES and not name.startswith("hugepages-"):
            ctx.error(path, invalid(name, "must be a standard resource for containers"))
    elif not is_native_resource(name) and not is_extended_resource(name):
        ctx.error(path, invalid(name, "doesn't follow extended resource name standard"))
    else:
        check_label_name(name, ctx, path)


@lru_cache(maxsize=4096)
def to_base_unit(name: str, quantity: Quantity) -> int:
    """cpu in milli, everything else in units (bytes, counts)."""
    return quantity.milli_value() if name == "cpu" else quantity.value()
