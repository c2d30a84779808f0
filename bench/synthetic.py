"""A synthetic GPU cluster and pending workload, deterministic for a seed.

The shape follows the placement benchmark's issue: GPU nodes of 8 GPUs in
four realistic pools spread over 4 zones, with the labels that GPU Operator,
the cloud provider and a node autoscaler put on them, and a few taints; pods
made from a modest number of templates (real pods come from Jobs and
Deployments), GPU pods of 1/2/4/8 GPUs and CPU-only pods. Of the pods:

- a quarter carry node constraints (nodeSelector, required and preferred
  node affinity, tolerations),
- a tenth carry topology spread constraints or pod anti-affinity, with the
  labels their selectors match,
- the rest ask for resources only.

The GPU demand is sized to about `GPU_DEMAND_FRACTION` of the cluster's
GPUs, so most pods fit and the cluster ends well filled. Everything is built
as engine objects (engine.model.objects), as ingest would produce them.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.model.objects import (
    CPU,
    EPHEMERAL_STORAGE,
    GPU,
    MEMORY,
    PODS,
    Affinity,
    ImageState,
    LabelSelector,
    Node,
    NodeAffinity,
    NodeSelectorRequirement,
    NodeSelectorTerm,
    OwnerRef,
    Pod,
    PodAffinity,
    PodAffinityTerm,
    PreferredSchedulingTerm,
    Taint,
    Toleration,
    TopologySpreadConstraint,
    WeightedPodAffinityTerm,
)

KI, MI, GI, TI = 2**10, 2**20, 2**30, 2**40

GPUS_PER_NODE = 8
REGION = "us-east-1"
ZONES = ("us-east-1a", "us-east-1b", "us-east-1c", "us-east-1d")

HOSTNAME_LABEL = "kubernetes.io/hostname"
ZONE_LABEL = "topology.kubernetes.io/zone"
REGION_LABEL = "topology.kubernetes.io/region"
INSTANCE_TYPE_LABEL = "node.kubernetes.io/instance-type"
POOL_LABEL = "karpenter.sh/nodepool"
GPU_PRODUCT_LABEL = "nvidia.com/gpu.product"
GPU_MEMORY_LABEL = "nvidia.com/gpu.memory"  # MiB per GPU, as GPU Feature Discovery sets it
GPU_COUNT_LABEL = "nvidia.com/gpu.count"
DEDICATED_LABEL = "dedicated"

# Share of nodes tainted dedicated=inference:NoSchedule, and of the rest
# tainted nvidia.com/gpu=present:PreferNoSchedule.
DEDICATED_TAINT_FRACTION = 0.05
GPU_PREFER_NO_SCHEDULE_FRACTION = 0.02
DEDICATED_TAINT = Taint(DEDICATED_LABEL, "NoSchedule", "inference")
GPU_SOFT_TAINT = Taint(GPU, "PreferNoSchedule", "present")

# Shares of the pending pods by kind of constraint (the rest: resources only).
NODE_CONSTRAINED_FRACTION = 0.25
SPREAD_FRACTION = 0.10
# Requested GPUs as a share of all GPUs: leaves room for fragmentation and
# for the tainted nodes most pods cannot use.
GPU_DEMAND_FRACTION = 0.75
# GPU pods by size: (GPUs, share of GPU pods).
GPU_SIZES = ((1, 0.55), (2, 0.25), (4, 0.12), (8, 0.08))
DEFAULT_TEMPLATES = 200

NAMESPACES = ("ml-training", "ml-inference", "research", "data-platform", "batch")


@dataclass(frozen=True, slots=True)
class NodePool:
    name: str
    instance_type: str
    gpu_product: str
    gpu_memory_mib: int
    cpu_cores: int
    memory_bytes: int
    ephemeral_storage_bytes: int
    share: float  # of all nodes


POOLS = (
    NodePool("h100", "p5.48xlarge", "NVIDIA-H100-80GB-HBM3", 81559, 192, 2 * TI, 3 * TI, 0.30),
    NodePool(
        "a100-80gb", "p4de.24xlarge", "NVIDIA-A100-SXM4-80GB", 81920, 96, 1152 * GI, 3 * TI, 0.25
    ),
    NodePool(
        "a100-40gb", "p4d.24xlarge", "NVIDIA-A100-SXM4-40GB", 40960, 96, 1152 * GI, 3 * TI, 0.25
    ),
    NodePool("l40s", "g6e.48xlarge", "NVIDIA-L40S", 46068, 192, 1536 * GI, 2 * TI, 0.20),
)

# Kubelet reservations subtracted from capacity (system-reserved + kube-reserved).
RESERVED_CPU_MILLI = 1000
RESERVED_MEMORY_BYTES = 16 * GI
RESERVED_EPHEMERAL_BYTES = 100 * GI
MAX_PODS = 110

IMAGES = (
    ("nvcr.io/nvidia/pytorch:24.05-py3", 9 * GI),
    ("nvcr.io/nvidia/pytorch:24.08-py3", 10 * GI),
    ("nvcr.io/nvidia/tritonserver:24.05-py3", 7 * GI),
    ("nvcr.io/nvidia/nemo:24.07", 12 * GI),
    ("vllm/vllm-openai:v0.5.4", 5 * GI),
    ("ghcr.io/example/trainer:1.14.0", 3 * GI),
    ("ghcr.io/example/feature-store:2.3.1", 800 * MI),
    ("ghcr.io/example/data-loader:0.9.2", 600 * MI),
    ("python:3.11-slim", 50 * MI),
    ("nvcr.io/nvidia/k8s/dcgm-exporter:3.3.5-3.4.1-ubuntu22.04", 400 * MI),
)
# Images every node has (daemonsets) and how many workload images it caches.
DAEMON_IMAGES = ("nvcr.io/nvidia/k8s/dcgm-exporter:3.3.5-3.4.1-ubuntu22.04",)
CACHED_IMAGES_PER_NODE = 3


# --- nodes -------------------------------------------------------------------


def synthetic_nodes(count: int, seed: int = 0) -> list[Node]:
    """`count` GPU nodes of 8 GPUs, pools by share, zones round-robin."""
    rng = random.Random(f"nodes-{seed}")
    pools = _split(count, [p.share for p in POOLS])
    image_sizes = dict(IMAGES)
    workload_images = [name for name, _ in IMAGES if name not in DAEMON_IMAGES]
    # Exactly the promised shares of tainted nodes, scattered over the pools.
    shuffled = list(range(count))
    rng.shuffle(shuffled)
    num_dedicated = round(count * DEDICATED_TAINT_FRACTION)
    num_soft = round(count * GPU_PREFER_NO_SCHEDULE_FRACTION)
    dedicated = set(shuffled[:num_dedicated])
    soft = set(shuffled[num_dedicated : num_dedicated + num_soft])
    nodes: list[Node] = []
    for pool, pool_count in zip(POOLS, pools, strict=True):
        for i in range(pool_count):
            name = f"{pool.name}-{i:05d}"
            zone = ZONES[len(nodes) % len(ZONES)]
            labels = {
                HOSTNAME_LABEL: name,
                "kubernetes.io/os": "linux",
                "kubernetes.io/arch": "amd64",
                ZONE_LABEL: zone,
                REGION_LABEL: REGION,
                INSTANCE_TYPE_LABEL: pool.instance_type,
                POOL_LABEL: pool.name,
                "nvidia.com/gpu.present": "true",
                GPU_PRODUCT_LABEL: pool.gpu_product,
                GPU_MEMORY_LABEL: str(pool.gpu_memory_mib),
                GPU_COUNT_LABEL: str(GPUS_PER_NODE),
            }
            taints: tuple[Taint, ...] = ()
            if len(nodes) in dedicated:
                taints = (DEDICATED_TAINT,)
                labels[DEDICATED_LABEL] = DEDICATED_TAINT.value
            elif len(nodes) in soft:
                taints = (GPU_SOFT_TAINT,)
            capacity = {
                CPU: pool.cpu_cores * 1000,
                MEMORY: pool.memory_bytes,
                EPHEMERAL_STORAGE: pool.ephemeral_storage_bytes,
                PODS: MAX_PODS,
                GPU: GPUS_PER_NODE,
            }
            allocatable = dict(capacity)
            allocatable[CPU] -= RESERVED_CPU_MILLI
            allocatable[MEMORY] -= RESERVED_MEMORY_BYTES
            allocatable[EPHEMERAL_STORAGE] -= RESERVED_EPHEMERAL_BYTES
            cached = [*DAEMON_IMAGES, *rng.sample(workload_images, CACHED_IMAGES_PER_NODE)]
            nodes.append(
                Node(
                    name=name,
                    labels=labels,
                    taints=taints,
                    allocatable=allocatable,
                    capacity=capacity,
                    images=tuple(ImageState((image,), image_sizes[image]) for image in cached),
                )
            )
    return nodes


# --- pods --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PodTemplate:
    """What a Job or Deployment stamps onto each of its pods."""

    name: str
    namespace: str
    owner_kind: str
    category: str  # "resources", "node-constrained" or "spread"
    gpus: int  # 0: a CPU-only pod
    requests: tuple[tuple[str, int], ...]
    priority: int
    images: tuple[str, ...]
    node_selector: tuple[tuple[str, str], ...] = ()
    affinity: Affinity | None = None
    tolerations: tuple[Toleration, ...] = ()
    topology_spread_constraints: tuple[TopologySpreadConstraint, ...] = ()

    @property
    def app_labels(self) -> dict[str, str]:
        return {"app": self.name, "team": self.namespace}


RESOURCES_ONLY = "resources"
NODE_CONSTRAINED = "node-constrained"
SPREAD = "spread"


def synthetic_pods(
    count: int,
    nodes: Sequence[Node],
    seed: int = 0,
    *,
    constraints: bool = True,
    templates: int = DEFAULT_TEMPLATES,
) -> list[Pod]:
    """`count` pending pods from about `templates` templates.

    With `constraints=False` the pods are the same but ask for resources
    only (no selectors, affinity, tolerations or spread constraints).
    Pods arrive in bursts of up to 32 from one template at a time, the
    bursts shuffled, as controllers create them.
    """
    rng = random.Random(f"pods-{seed}")
    total_gpus = sum(node.allocatable.get(GPU, 0) for node in nodes)
    mean_gpus = sum(size * share for size, share in GPU_SIZES)
    gpu_pod_fraction = min(0.9, GPU_DEMAND_FRACTION * total_gpus / max(1, count) / mean_gpus)

    categories = _split(
        count,
        [
            1 - NODE_CONSTRAINED_FRACTION - SPREAD_FRACTION,
            NODE_CONSTRAINED_FRACTION,
            SPREAD_FRACTION,
        ],
    )
    # Cells: (category, GPUs per pod) with an exact number of pods each.
    kinds = [0] + [size for size, _ in GPU_SIZES]
    kind_shares = [1 - gpu_pod_fraction] + [gpu_pod_fraction * share for _, share in GPU_SIZES]
    cells: list[tuple[str, int, int]] = []
    for category, category_count in zip(
        (RESOURCES_ONLY, NODE_CONSTRAINED, SPREAD), categories, strict=True
    ):
        for gpus, n in zip(kinds, _split(category_count, kind_shares), strict=True):
            if n:
                cells.append((category, gpus, n))

    bursts: list[tuple[PodTemplate, int, int]] = []  # template, first replica, size
    serial = 0
    # Templates shared out like the pods, at least one per cell: about `templates` in all.
    spare = max(0, min(templates, count) - len(cells))
    cell_templates = _split(spare, [n for _, _, n in cells])
    for (category, gpus, n), extra in zip(cells, cell_templates, strict=True):
        num_templates = min(n, 1 + extra)
        weights = [rng.lognormvariate(0, 0.6) for _ in range(num_templates)]
        for replicas in _split(n, weights):
            if not replicas:
                continue
            template = _template(rng, serial, category, gpus, replicas)
            serial += 1
            for first in range(0, replicas, 32):
                bursts.append((template, first, min(32, replicas - first)))
    rng.shuffle(bursts)

    pods: list[Pod] = []
    for template, first, size in bursts:
        for replica in range(first, first + size):
            pods.append(_pod(template, replica, len(pods), constraints))
    return pods


def _template(
    rng: random.Random, serial: int, category: str, gpus: int, replicas: int
) -> PodTemplate:
    namespace = NAMESPACES[serial % len(NAMESPACES)]
    owner_kind = "Job" if gpus >= 2 or rng.random() < 0.4 else "ReplicaSet"
    kind = f"gpu{gpus}" if gpus else "cpu"
    name = f"{kind}-{category}-{serial:03d}"
    requests: dict[str, int] = {}
    if gpus:
        requests[CPU] = gpus * rng.choice((4, 6, 8, 10)) * 1000
        requests[MEMORY] = gpus * rng.choice((32, 64, 96, 120)) * GI
        requests[GPU] = gpus
        images = (rng.choice(IMAGES[:6])[0],)
    else:
        requests[CPU] = rng.choice((250, 500, 1000, 2000, 4000, 8000))
        requests[MEMORY] = rng.choice((512 * MI, GI, 2 * GI, 4 * GI, 8 * GI, 16 * GI, 32 * GI))
        images = (rng.choice(IMAGES[5:9])[0],)
    if rng.random() < 0.3:
        requests[EPHEMERAL_STORAGE] = rng.choice((10, 50, 100)) * GI
    priority = rng.choices((0, 1000, 100000), weights=(70, 20, 10))[0]
    template = PodTemplate(
        name=name,
        namespace=namespace,
        owner_kind=owner_kind,
        category=category,
        gpus=gpus,
        requests=tuple(requests.items()),
        priority=priority,
        images=images,
    )
    if category == NODE_CONSTRAINED:
        return _node_constrained(rng, serial, template)
    if category == SPREAD:
        return _spread(serial, template, replicas)
    return template


def _node_constrained(rng: random.Random, serial: int, template: PodTemplate) -> PodTemplate:
    """One of five constraint styles seen in GPU clusters, by template number."""
    pool = rng.choices(POOLS, weights=[p.share for p in POOLS])[0]
    gpu_operator_toleration = Toleration(key=GPU, operator="Exists")
    inference_toleration = Toleration(DEDICATED_LABEL, "Equal", "inference", "NoSchedule")
    other_zones = tuple(z for z in ZONES if z != ZONES[serial % len(ZONES)])
    style = serial % 5
    if style == 0:  # pin to a GPU model
        return replace(template, node_selector=((GPU_PRODUCT_LABEL, pool.gpu_product),))
    if style == 1:  # big-memory GPUs required, a zone preferred
        affinity = Affinity(
            node_affinity=NodeAffinity(
                required=(
                    NodeSelectorTerm(
                        (NodeSelectorRequirement(GPU_MEMORY_LABEL, "Gt", ("65536",)),)
                    ),
                ),
                preferred=(
                    PreferredSchedulingTerm(
                        50,
                        NodeSelectorTerm(
                            (NodeSelectorRequirement(ZONE_LABEL, "In", (ZONES[serial % 4],)),)
                        ),
                    ),
                ),
            )
        )
        return replace(template, affinity=affinity)
    if style == 2:  # three zones allowed, instance types preferred, no dedicated nodes
        affinity = Affinity(
            node_affinity=NodeAffinity(
                required=(
                    NodeSelectorTerm(
                        (
                            NodeSelectorRequirement(ZONE_LABEL, "In", other_zones),
                            NodeSelectorRequirement(DEDICATED_LABEL, "DoesNotExist"),
                        )
                    ),
                ),
                preferred=(
                    PreferredSchedulingTerm(
                        80,
                        NodeSelectorTerm(
                            (
                                NodeSelectorRequirement(
                                    INSTANCE_TYPE_LABEL, "In", (pool.instance_type,)
                                ),
                            )
                        ),
                    ),
                    PreferredSchedulingTerm(
                        20,
                        NodeSelectorTerm(
                            (NodeSelectorRequirement(POOL_LABEL, "NotIn", ("l40s",)),)
                        ),
                    ),
                ),
            )
        )
        return replace(template, affinity=affinity)
    if style == 3:  # inference pods that may use the dedicated nodes
        return replace(template, tolerations=(inference_toleration, gpu_operator_toleration))
    # a node pool and the GPU operator's toleration
    return replace(
        template,
        node_selector=((POOL_LABEL, pool.name), ("kubernetes.io/os", "linux")),
        tolerations=(gpu_operator_toleration,),
    )


def _spread(serial: int, template: PodTemplate, replicas: int) -> PodTemplate:
    """Topology spread (zone or hostname, hard or soft) or hostname anti-affinity."""
    selector = LabelSelector(match_labels=(("app", template.name),))
    style = serial % 6
    if style in (0, 1, 2, 3):
        key = ZONE_LABEL if style in (0, 1) else HOSTNAME_LABEL
        when = "DoNotSchedule" if style in (0, 2) else "ScheduleAnyway"
        constraint = TopologySpreadConstraint(
            max_skew=1, topology_key=key, when_unsatisfiable=when, label_selector=selector
        )
        return replace(template, topology_spread_constraints=(constraint,))
    term = PodAffinityTerm(HOSTNAME_LABEL, selector)
    if style == 4:
        anti = PodAffinity(required=(term,))
    else:
        anti = PodAffinity(preferred=(WeightedPodAffinityTerm(100, term),))
    return replace(template, affinity=Affinity(pod_anti_affinity=anti))


def _pod(template: PodTemplate, replica: int, arrival: int, constraints: bool) -> Pod:
    name = f"{template.name}-{replica:05d}"
    requests = dict(template.requests)
    labels = template.app_labels
    if template.owner_kind == "Job":
        labels["batch.kubernetes.io/job-name"] = template.name
        labels["batch.kubernetes.io/job-completion-index"] = str(replica)
    else:
        labels["pod-template-hash"] = f"{zlib.crc32(template.name.encode()) & 0xFFFFFF:06x}"
    return Pod(
        namespace=template.namespace,
        name=name,
        uid=f"{template.namespace}-{name}",
        labels=labels,
        priority=template.priority,
        priority_class_name={0: None, 1000: "batch-high", 100000: "production"}[template.priority],
        requests=requests,
        nonzero_requests=(requests[CPU], requests[MEMORY]),
        node_selector=template.node_selector if constraints else (),
        affinity=template.affinity if constraints else None,
        tolerations=template.tolerations if constraints else (),
        topology_spread_constraints=template.topology_spread_constraints if constraints else (),
        images=template.images,
        owner=OwnerRef(template.owner_kind, template.name),
        arrival_index=arrival,
    )


def _split(total: int, weights: Sequence[float]) -> list[int]:
    """`total` split in proportion to `weights` (largest remainder), summing exactly."""
    scale = sum(weights)
    exact = [total * w / scale for w in weights]
    counts = [int(x) for x in exact]
    by_remainder = sorted(range(len(weights)), key=lambda i: exact[i] - counts[i], reverse=True)
    for i in by_remainder[: total - sum(counts)]:
        counts[i] += 1
    return counts
