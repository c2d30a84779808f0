"""The seed article's examples on a realistic GPU cluster, end to end through the CLI.

Each test is something a reader of "Scheduling GPU workloads in Kubernetes"
expects from one of its manifests (../shared/examples/seed-article/), placed
with `python -m engine place` on the inventory in tests/fixtures/seed-cluster/
(README.md there says why each node exists). Reasons and messages are
upstream kube-scheduler's:
- FitError.Error (pkg/scheduler/framework/types.go): "0/N nodes are
  available: " + sort.Strings("<count> <reason>") joined by ", " + ".".
- Filter order of the default profile (pkg/scheduler/apis/config/v1/
  default_plugins.go): NodeUnschedulable, NodeName, TaintToleration,
  NodeAffinity, NodePorts, NodeResourcesFit, ..., PodTopologySpread,
  InterPodAffinity; a node is reported under its first failing plugin.
- Plugins a profile enables at one extension point run before the
  multiPoint defaults there (runtime/framework.go expandMultiPointPlugins).
- DefaultPreemption (enabled in the default profile) evicts lower-priority
  pods where that makes room: defaultpreemption/default_preemption.go and
  framework/preemption/preemption.go. Messages are compared by prefix, since
  upstream appends "preemption: ..." to a FitError when preemption fails.
- Reason strings: tainttoleration "node(s) had untolerated taint {k: v}",
  nodeaffinity ErrReasonPod / errReasonEnforced, noderesources/fit.go
  "Insufficient <resource>", interpodaffinity ErrReasonAffinityRulesNotMatch /
  ErrReasonAntiAffinityRulesNotMatch, podtopologyspread
  ErrReasonConstraintsNotMatch.
"""

from __future__ import annotations

import copy
import io
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.cli import main

REPO = Path(__file__).resolve().parents[2]
CLUSTER_DIR = REPO / "tests" / "fixtures" / "seed-cluster"
ARTICLE_DIR = REPO.parent / "shared" / "examples" / "seed-article"

NODES = CLUSTER_DIR / "nodes.yaml"
RUNNING_PODS = CLUSTER_DIR / "running-pods.yaml"
PRIORITY_CLASSES = CLUSTER_DIR / "priorityclasses.yaml"
SEED_CLUSTER = (NODES, RUNNING_PODS, PRIORITY_CLASSES)
NUM_NODES = 16

ZONE = "topology.kubernetes.io/zone"
T4_NODES_WITHOUT_TRAINING = {"t4-inference-a1", "t4-inference-d1"}
H100_NODES = {"h100-nvlink-a1", "h100-nvlink-b1"}

pytestmark = pytest.mark.skipif(
    not ARTICLE_DIR.is_dir(), reason=f"the seed article's manifests are not at {ARTICLE_DIR}"
)


# --- tiny helpers ------------------------------------------------------------


def article(number: str) -> Path:
    """The article's example file by its two-digit number."""
    (path,) = ARTICLE_DIR.glob(f"{number}-*.yaml")
    return path


def place(*paths: Path, config: Path | None = None, seed: int | None = None) -> dict[str, Any]:
    """`python -m engine place -f ... --explain -o json`, in-process; fails on exit != 0."""
    argv = ["place"]
    for path in paths:
        argv += ["-f", str(path)]
    if config is not None:
        argv += ["--config", str(config)]
    if seed is not None:
        argv += ["--seed", str(seed)]
    argv += ["--explain", "-o", "json"]
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, out, err)
    assert code == 0, f"exit {code}: {err.getvalue()}"
    doc: dict[str, Any] = json.loads(out.getvalue())
    return doc


def pod_result(doc: dict[str, Any], key: str) -> dict[str, Any]:
    found = [p for p in doc["pods"] if p["pod"] == key]
    assert len(found) == 1, f"{key} not in {[p['pod'] for p in doc['pods']]}"
    return found[0]


def node_summary(doc: dict[str, Any], name: str) -> dict[str, Any]:
    (found,) = [n for n in doc["nodes"] if n["name"] == name]
    return found


def verdict(result: dict[str, Any], node: str) -> Any:
    """The explain filter verdict of one node: "passed" or {"plugin", "reason"}."""
    return result["explain"]["nodes"][node]["filter"]


def rejected(plugin: str, reason: str) -> dict[str, str]:
    return {"plugin": plugin, "reason": reason}


def untolerated(key: str, value: str) -> str:
    return f"node(s) had untolerated taint {{{key}: {value}}}"


def fit_error(*histogram: str) -> str:
    """Upstream FitError text without any preemption suffix; entries in given order."""
    return f"0/{NUM_NODES} nodes are available: " + ", ".join(histogram) + "."


def histogram(message: str) -> list[tuple[int, str]]:
    """The "<count> <reason>" entries of a FitError message, in message order."""
    head, _, body = message.partition(" nodes are available: ")
    assert head.startswith("0/"), message
    body = body.split(". ")[0].removesuffix(".")  # drop a "preemption: ..." tail
    entries = []
    for entry in body.split(", "):
        count, _, reason = entry.partition(" ")
        entries.append((int(count), reason))
    return entries


def load_docs(path: Path) -> list[dict[str, Any]]:
    return [d for d in yaml.safe_load_all(path.read_text()) if d]


def write_docs(path: Path, docs: list[dict[str, Any]]) -> Path:
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    return path


def article_pod(number: str, name: str | None = None, **spec_changes: Any) -> dict[str, Any]:
    """The article's pod, renamed and with spec fields replaced (None removes one)."""
    (pod,) = load_docs(article(number))
    pod = copy.deepcopy(pod)
    if name is not None:
        pod["metadata"]["name"] = name
    for field, value in spec_changes.items():
        if value is None:
            pod["spec"].pop(field, None)
        else:
            pod["spec"][field] = value
    return pod


def gpu_pod(
    name: str, gpus: int, scheduler: str | None = None, image: str = "cuda:12.4"
) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "containers": [
            {"name": "main", "image": image, "resources": {"limits": {"nvidia.com/gpu": gpus}}}
        ]
    }
    if scheduler is not None:
        spec["schedulerName"] = scheduler
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name}, "spec": spec}


def zone_of(doc: dict[str, Any], node: str) -> str:
    zone: str = node_summary(doc, node)["labels"][ZONE]
    return zone


# --- nodeSelector, nodeName, node affinity ------------------------------------


def test_00_node_selector_lands_on_the_node_labelled_tesla_v100() -> None:
    doc = place(*SEED_CLUSTER, article("00"))
    result = pod_result(doc, "default/gpu-inference")
    assert (result["status"], result["node"]) == ("Scheduled", "v100-legacy-d1")


def test_02_requires_v100_and_prefers_instance_type_gpu_standard_v2() -> None:
    doc = place(*SEED_CLUSTER, article("02"))
    result = pod_result(doc, "default/gpu-training")
    assert (result["status"], result["node"]) == ("Scheduled", "v100-std2-b1")
    explain = result["explain"]["nodes"]
    # Both gpu-type=v100 nodes are feasible; NodeAffinity's preferred term
    # (weight 100) normalizes to 100 on the gpu-standard-v2 node, 0 on the v1.
    assert explain["v100-std2-b1"]["filter"] == "passed"
    assert explain["v100-std1-a1"]["filter"] == "passed"
    assert explain["v100-std2-b1"]["scores"]["NodeAffinity"] == 100
    assert explain["v100-std1-a1"]["scores"]["NodeAffinity"] == 0
    # The hand-labelled gpu-type=tesla-v100 node is not "v100" to this pod.
    pod_affinity_miss = rejected(
        "NodeAffinity", "node(s) didn't match Pod's node affinity/selector"
    )
    assert verdict(result, "v100-legacy-d1") == pod_affinity_miss


def test_01_node_name_pod_is_running_where_it_says() -> None:
    doc = place(*SEED_CLUSTER, article("01"))
    assert "default/direct-placement-gpu" not in [p["pod"] for p in doc["pods"]]
    node = node_summary(doc, "gpu-node-0012")
    assert "default/direct-placement-gpu" in node["pods"]
    # jupyter-alice-0 already holds 2 of the 8 GPUs.
    assert node["requested"]["nvidia.com/gpu"] == 3


# --- pod affinity and anti-affinity ----------------------------------------------


@pytest.mark.parametrize(
    ("inputs", "status", "node", "message"),
    [
        pytest.param(SEED_CLUSTER, "Scheduled", "v100-std1-a1", None, id="beside-model-cache"),
        pytest.param(
            (NODES, PRIORITY_CLASSES),
            "Unschedulable",
            None,
            fit_error(
                "1 Insufficient nvidia.com/gpu",
                "1 " + untolerated("dedicated", "ml-prod"),
                "1 " + untolerated("team", "computer-vision"),
                "2 " + untolerated("workload", "training"),
                "3 " + untolerated("dedicated", "inference"),
                "8 node(s) didn't match pod affinity rules",
            ),
            id="no-model-cache-anywhere",
        ),
    ],
)
def test_04_model_server_follows_the_model_cache(
    inputs: tuple[Path, ...], status: str, node: str | None, message: str | None
) -> None:
    doc = place(*inputs, article("04"))
    result = pod_result(doc, "default/model-server")
    assert (result["status"], result["node"]) == (status, node)
    if message is not None:
        assert result["message"].startswith(message)


def test_17_production_inference_avoids_the_t4_node_running_training() -> None:
    doc = place(*SEED_CLUSTER, article("17"))
    result = pod_result(doc, "default/production-inference")
    assert result["status"] == "Scheduled"
    assert result["node"] in T4_NODES_WITHOUT_TRAINING
    assert result["priority"] == 100000
    assert verdict(result, "t4-inference-b1") == rejected(
        "InterPodAffinity", "node(s) didn't match pod anti-affinity rules"
    )
    # The time-sliced T4 says Tesla-T4-SHARED, not NVIDIA-T4.
    assert verdict(result, "t4-shared-b1") == rejected(
        "NodeAffinity", "node(s) didn't match Pod's node affinity/selector"
    )


@pytest.mark.parametrize(
    ("priority_class", "preempts"),
    [
        # Equal priority: DefaultPreemption finds no victims, the pod waits.
        pytest.param(None, False, id="priority-0-waits"),
        # The article's class outranks the training pod (priority 0): upstream
        # evicts it from t4-inference-b1 (InterPodAffinity's anti-affinity
        # failure is Unschedulable, so preemption may resolve it), as the
        # article's "high priority, so it can preempt other pods" promises.
        pytest.param(
            "high-priority-inference",
            True,
            id="high-priority-preempts-training",
            marks=pytest.mark.xfail(
                strict=True,
                reason="DefaultPreemption is not simulated yet (issue #4); strict, so it flips once preemption lands",
            ),
        ),
    ],
)
def test_17_a_third_replica_needs_zone_b_where_training_runs(
    tmp_path: Path, priority_class: str | None, preempts: bool
) -> None:
    """Zone spread sends replica 3 to zone b, whose only T4 node runs training."""
    replicas = [
        article_pod("17", f"production-inference-{i}", priorityClassName=priority_class)
        for i in range(3)
    ]
    doc = place(*SEED_CLUSTER, write_docs(tmp_path / "replicas.yaml", replicas))
    first, second, third = (pod_result(doc, f"default/production-inference-{i}") for i in range(3))
    assert {first["node"], second["node"]} == T4_NODES_WITHOUT_TRAINING
    if preempts:
        assert (third["status"], third["node"]) == ("Scheduled", "t4-inference-b1")
        assert third["victims"] == ["default/resnet-training-0"]
        assert "default/resnet-training-0" not in node_summary(doc, "t4-inference-b1")["pods"]
        return
    assert third["status"] == "Unschedulable"
    assert third["victims"] == []
    assert third["message"].startswith(
        fit_error(
            "1 node(s) didn't match pod anti-affinity rules",
            "1 " + untolerated("dedicated", "ml-prod"),
            "1 " + untolerated("team", "computer-vision"),
            "2 node(s) didn't match pod topology spread constraints",
            "2 " + untolerated("workload", "training"),
            "9 node(s) didn't match Pod's node affinity/selector",
        )
    )


# --- taints and tolerations ---------------------------------------------------------


@pytest.mark.parametrize(
    ("number", "pod", "node", "taint"),
    [
        pytest.param(
            "07", "critical-model-training", "gpu-node-1", ("dedicated", "ml-prod"), id="07"
        ),
        pytest.param(
            "09", "object-detection-training", "gpu-node-2", ("team", "computer-vision"), id="09"
        ),
    ],
)
def test_toleration_opens_the_tainted_node_and_only_to_tolerating_pods(
    tmp_path: Path, number: str, pod: str, node: str, taint: tuple[str, str]
) -> None:
    doc = place(*SEED_CLUSTER, article(number))
    tolerating = pod_result(doc, f"default/{pod}")
    assert tolerating["status"] == "Scheduled"
    assert verdict(tolerating, node) == "passed"

    intolerant = write_docs(tmp_path / "intolerant.yaml", [article_pod(number, tolerations=None)])
    doc = place(*SEED_CLUSTER, intolerant)
    assert verdict(pod_result(doc, f"default/{pod}"), node) == rejected(
        "TaintToleration", untolerated(*taint)
    )


def test_07_the_eight_gpu_pod_gets_the_ml_prod_node() -> None:
    # No untainted node has 8 free GPUs; the training pool is tainted for training.
    doc = place(*SEED_CLUSTER, article("07"))
    result = pod_result(doc, "default/critical-model-training")
    assert (result["status"], result["node"]) == ("Scheduled", "gpu-node-1")
    assert node_summary(doc, "gpu-node-1")["requested"]["nvidia.com/gpu"] == 8


# --- topology spread ------------------------------------------------------------------


def test_10_six_workers_spread_two_per_zone_never_skewed_more_than_one() -> None:
    doc = place(*SEED_CLUSTER, CLUSTER_DIR / "10-spread-six-replicas.yaml")
    results = [pod_result(doc, f"default/distributed-training-{i}") for i in range(6)]
    assert [r["status"] for r in results] == ["Scheduled"] * 6
    zones = sorted({n["labels"][ZONE] for n in doc["nodes"]})
    per_zone: Counter[str] = Counter({zone: 0 for zone in zones})
    for result in results:  # results come in queue order, which is placement order
        per_zone[zone_of(doc, result["node"])] += 1
        assert max(per_zone.values()) - min(per_zone.values()) <= 1, per_zone
    assert per_zone == {"ru-central1-a": 2, "ru-central1-b": 2, "ru-central1-d": 2}


# --- priority ---------------------------------------------------------------------------


def test_12_production_critical_pod_gets_the_last_gpu_before_an_earlier_pod() -> None:
    doc = place(
        CLUSTER_DIR / "one-gpu-left.yaml",
        CLUSTER_DIR / "batch-eval-low-priority.yaml",  # listed first
        article("11"),
        article("12"),
    )
    critical = pod_result(doc, "default/customer-facing-inference")
    earlier = pod_result(doc, "default/batch-eval")
    assert (critical["status"], critical["node"], critical["priority"]) == (
        "Scheduled",
        "a100-last-0",
        1000000,
    )
    assert (earlier["status"], earlier["priority"]) == ("Unschedulable", 0)
    assert earlier["message"].startswith("0/1 nodes are available: 1 Insufficient nvidia.com/gpu.")


@pytest.mark.xfail(
    strict=True,
    reason="DefaultPreemption is not simulated yet (issue #4); strict, so it flips once preemption lands",
)
def test_12_production_critical_pod_preempts_the_pod_holding_the_last_gpu(
    tmp_path: Path,
) -> None:
    """The article's use case: the customer-facing pod evicts a lower-priority one.

    Upstream DefaultPreemption (defaultpreemption/default_preemption.go,
    preemption.go selectVictimsOnNode) removes all lower-priority pods, then
    reprieves them most important first (priority, then earlier start): the
    7-GPU fine-tune that started first is put back, the 1-GPU eval is the victim.
    """
    running_eval = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "batch-eval-running", "namespace": "research"},
        "spec": {
            "nodeName": "a100-last-0",
            "containers": [
                {
                    "name": "eval",
                    "image": "ml-eval:latest",
                    "resources": {"limits": {"nvidia.com/gpu": 1}},
                }
            ],
        },
        "status": {"phase": "Running", "startTime": "2024-06-03T12:00:00Z"},
    }
    cluster = load_docs(CLUSTER_DIR / "one-gpu-left.yaml")[0]
    for item in cluster["items"]:
        if item["kind"] == "Pod":
            item["status"]["startTime"] = "2024-06-03T02:00:00Z"
    doc = place(
        write_docs(tmp_path / "cluster.yaml", [cluster, running_eval]),
        article("11"),
        article("12"),
    )
    critical = pod_result(doc, "default/customer-facing-inference")
    assert (critical["status"], critical["node"]) == ("Scheduled", "a100-last-0")
    assert critical["victims"] == ["research/batch-eval-running"]
    node = node_summary(doc, "a100-last-0")
    assert "research/nightly-finetune-0" in node["pods"]
    assert node["requested"]["nvidia.com/gpu"] == 8


# --- large requests ---------------------------------------------------------------------


def test_18_llm_worker_lands_on_the_a100_training_node_with_hugepages() -> None:
    doc = place(*SEED_CLUSTER, article("18"))
    result = pod_result(doc, "default/distributed-llm-training-worker-1")
    assert (result["status"], result["node"]) == ("Scheduled", "a100-train-b1")
    assert result["priority"] == 5000
    # The other training node has 2Gi of 2Mi hugepages, the pod wants 5Gi.
    assert verdict(result, "a100-train-d1") == rejected(
        "NodeResourcesFit", "Insufficient hugepages-2Mi"
    )


def test_18_without_hugepages_on_the_a100_nodes_the_worker_waits(tmp_path: Path) -> None:
    inventory = load_docs(NODES)[0]
    for node in inventory["items"]:
        if node["metadata"]["labels"].get("nvidia.com/gpu.product") == "NVIDIA-A100":
            for resources in (node["status"]["capacity"], node["status"]["allocatable"]):
                resources["hugepages-2Mi"] = "0"
    nodes = write_docs(tmp_path / "nodes-without-hugepages.yaml", [inventory])
    doc = place(nodes, RUNNING_PODS, PRIORITY_CLASSES, article("18"))
    result = pod_result(doc, "default/distributed-llm-training-worker-1")
    assert result["status"] == "Unschedulable"
    assert result["message"].startswith(
        fit_error(
            "1 " + untolerated("dedicated", "ml-prod"),
            "1 " + untolerated("team", "computer-vision"),
            "2 Insufficient hugepages-2Mi",
            "3 " + untolerated("dedicated", "inference"),
            "9 node(s) didn't match Pod's node affinity/selector",
        )
    )


def test_a_sixteen_gpu_pod_gets_upstreams_aggregated_message(tmp_path: Path) -> None:
    doc = place(*SEED_CLUSTER, write_docs(tmp_path / "big.yaml", [gpu_pod("sixteen", 16)]))
    result = pod_result(doc, "default/sixteen")
    assert result["status"] == "Unschedulable"
    entries = histogram(result["message"])
    assert sum(count for count, _ in entries) == NUM_NODES
    as_strings = [f"{count} {reason}" for count, reason in entries]
    assert as_strings == sorted(as_strings)  # sort.Strings, not by count
    assert result["message"].startswith(
        fit_error(
            "1 " + untolerated("dedicated", "ml-prod"),
            "1 " + untolerated("team", "computer-vision"),
            "2 " + untolerated("workload", "training"),
            "3 " + untolerated("dedicated", "inference"),
            "9 Insufficient nvidia.com/gpu",
        )
    )


# --- KubeSchedulerConfiguration profiles (examples 19-24) ------------------------------


@pytest.mark.parametrize(
    ("number", "scheduler", "pods_per_node"),
    [
        pytest.param("19", "gpu-optimized-scheduler", [0, 4], id="19-MostAllocated-packs"),
        pytest.param("20", "gpu-balanced-scheduler", [2, 2], id="20-LeastAllocated-spreads"),
    ],
)
def test_profile_packs_or_spreads_one_gpu_pods(
    tmp_path: Path, number: str, scheduler: str, pods_per_node: list[int]
) -> None:
    pods = [gpu_pod(f"worker-{i}", 1, scheduler) for i in range(4)]
    doc = place(
        CLUSTER_DIR / "two-empty-a100-nodes.yaml",
        write_docs(tmp_path / "pods.yaml", pods),
        config=article(number),
    )
    assert [p["status"] for p in doc["pods"]] == ["Scheduled"] * 4
    assert sorted(len(n["pods"]) for n in doc["nodes"]) == pods_per_node


def test_23_inference_profile_places_and_scores_image_locality(tmp_path: Path) -> None:
    triton = "nvcr.io/nvidia/tritonserver:24.05-py3"
    pod = gpu_pod("triton-0", 1, "inference-scheduler", image=triton)
    doc = place(*SEED_CLUSTER, write_docs(tmp_path / "pod.yaml", [pod]), config=article("23"))
    result = pod_result(doc, "default/triton-0")
    assert result["status"] == "Scheduled"
    # 15.6 GB on 2 of 16 nodes is past ImageLocality's 1000 MB ceiling: 100 where
    # the image is, 0 elsewhere (imagelocality/image_locality.go calculatePriority).
    image_scores = {
        node: info["scores"]["ImageLocality"]
        for node, info in result["explain"]["nodes"].items()
        if info["filter"] == "passed"
    }
    assert image_scores["v100-std1-a1"] == 100
    assert image_scores["h100-nvlink-a1"] == 100
    assert image_scores["v100-std2-b1"] == 0
    assert image_scores["h100-nvlink-b1"] == 0


@pytest.mark.parametrize(
    ("number", "pod", "nodes"),
    [
        pytest.param(
            "21", gpu_pod("big-model-0", 4, "large-model-scheduler"), None, id="21-large-model"
        ),
        pytest.param(
            "24",
            {
                "apiVersion": "v1",
                "kind": "Pod",
                "metadata": {"name": "mig-notebook-0"},
                "spec": {
                    "schedulerName": "mig-aware-scheduler",
                    "containers": [
                        {
                            "name": "nb",
                            "image": "jupyter:cuda",
                            "resources": {"limits": {"nvidia.com/mig-1g.5gb": 1}},
                        }
                    ],
                },
            },
            {"a100-mig-d1"},
            id="24-mig-aware",
        ),
        pytest.param(
            "22", gpu_pod("nvlink-job-0", 2, "nvlink-aware-scheduler"), H100_NODES, id="22-nvlink"
        ),
    ],
)
def test_profile_loads_and_places(
    tmp_path: Path, number: str, pod: dict[str, Any], nodes: set[str] | None
) -> None:
    doc = place(*SEED_CLUSTER, write_docs(tmp_path / "pod.yaml", [pod]), config=article(number))
    result = pod_result(doc, f"default/{pod['metadata']['name']}")
    assert result["status"] == "Scheduled"
    if nodes is not None:
        assert result["node"] in nodes


def test_22_added_affinity_keeps_pods_on_nvlink_h100_nodes(tmp_path: Path) -> None:
    # 4 GPUs are free on each H100 node: room for exactly four 2-GPU pods.
    pods = [gpu_pod(f"nvlink-job-{i}", 2, "nvlink-aware-scheduler") for i in range(5)]
    doc = place(*SEED_CLUSTER, write_docs(tmp_path / "pods.yaml", pods), config=article("22"))
    results = [pod_result(doc, f"default/nvlink-job-{i}") for i in range(5)]
    assert [r["status"] for r in results[:4]] == ["Scheduled"] * 4
    assert {r["node"] for r in results[:4]} == H100_NODES
    fifth = results[4]
    assert fifth["status"] == "Unschedulable"
    # The profile enables NodeResourcesFit and NodeAffinity at filter, so they
    # run first: nodes with 2 free GPUs fail the enforced affinity, not a taint.
    # "13 ..." sorts before "3 ..." as upstream sorts strings.
    assert fifth["message"].startswith(
        fit_error(
            "13 node(s) didn't match scheduler-enforced node affinity",
            "3 Insufficient nvidia.com/gpu",
        )
    )


def test_22_profile_filters_run_before_the_default_ones(tmp_path: Path) -> None:
    pod = gpu_pod("sixteen", 16, "nvlink-aware-scheduler")
    doc = place(*SEED_CLUSTER, write_docs(tmp_path / "pod.yaml", [pod]), config=article("22"))
    result = pod_result(doc, "default/sixteen")
    assert result["status"] == "Unschedulable"
    assert result["message"].startswith(fit_error(f"{NUM_NODES} Insufficient nvidia.com/gpu"))
    assert verdict(result, "gpu-node-1") == rejected(
        "NodeResourcesFit", "Insufficient nvidia.com/gpu"
    )


@pytest.mark.parametrize(
    ("scheduler", "config"),
    [
        pytest.param("gpu-optimized-scheduler", None, id="profile-not-configured"),
        pytest.param(None, "19", id="default-scheduler-not-in-config"),
    ],
)
def test_pod_for_a_scheduler_without_profile_is_left_alone(
    tmp_path: Path, scheduler: str | None, config: str | None
) -> None:
    pods = write_docs(tmp_path / "pod.yaml", [gpu_pod("orphan", 1, scheduler)])
    doc = place(*SEED_CLUSTER, pods, config=article(config) if config else None)
    result = pod_result(doc, "default/orphan")
    assert (result["status"], result["node"]) == ("NoScheduler", None)
