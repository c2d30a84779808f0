"""Ingest: Kubernetes YAML/JSON in, engine objects and one-line errors out.

Validation messages are the API server's (k8s pkg/apis/core/validation,
apimachinery pkg/apis/meta/v1/validation, field.Error bodies); names and
labels of generated pods follow the upstream controllers (deployment,
replicaset, statefulset and job controllers).
"""

from __future__ import annotations

import json
import re
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ingest import IngestResult, ingest_paths, ingest_text
from engine.model.objects import HostPort, LabelSelector, OwnerRef, Taint

REPO = Path(__file__).resolve().parents[2]
ARTICLE = REPO.parent / "shared" / "examples" / "seed-article"
FIXTURES = REPO / "tests" / "fixtures" / "ingest"
SEED_CLUSTER = REPO / "tests" / "fixtures" / "seed-cluster"
GI = 1024**3
SUFFIX = "[bcdfghjklmnpqrstvwxz2456789]"

needs_article = pytest.mark.skipif(not ARTICLE.is_dir(), reason=f"no seed article at {ARTICLE}")


def yaml_text(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def ingest_yaml(text: str, filename: str = "objects.yaml") -> IngestResult:
    return ingest_text(yaml_text(text), filename)


def messages(result: IngestResult) -> list[str]:
    return [str(e) for e in result.errors]


def article(number: str) -> Path:
    (path,) = ARTICLE.glob(f"{number}-*.yaml")
    return path


# --- the seed article's manifests -----------------------------------------------------

POD_EXAMPLES = [
    ("00", "default/gpu-inference", {"nvidia.com/gpu": 1}),
    ("01", "default/direct-placement-gpu", {"nvidia.com/gpu": 1}),
    ("02", "default/gpu-training", {"nvidia.com/gpu": 4}),
    ("04", "default/model-server", {"nvidia.com/gpu": 1}),
    ("07", "default/critical-model-training", {"nvidia.com/gpu": 8}),
    ("09", "default/object-detection-training", {}),  # containers: only a name
    ("10", "default/distributed-training", {"nvidia.com/gpu": 2}),
]


@needs_article
@pytest.mark.parametrize(
    ("number", "key", "requests"), POD_EXAMPLES, ids=[r[0] for r in POD_EXAMPLES]
)
def test_article_pods_ingest(number: str, key: str, requests: dict[str, int]) -> None:
    result = ingest_paths([str(article(number))])
    assert messages(result) == []
    (pod,) = result.pods
    assert (pod.key, pod.requests) == (key, requests)


@needs_article
def test_article_pod_with_node_name_is_bound() -> None:
    (pod,) = ingest_paths([str(article("01"))]).pods
    assert pod.node_name is not None


@needs_article
@pytest.mark.parametrize(
    ("number", "line", "pod", "class_name"),
    [
        ("12", 6, "default/customer-facing-inference", "production-critical"),
        ("17", 9, "default/production-inference", "high-priority-inference"),
        ("18", 10, "default/distributed-llm-training-worker-1", "medium-priority-training"),
    ],
    ids=["12", "17", "18"],
)
def test_article_pods_naming_undefined_classes(
    number: str, line: int, pod: str, class_name: str
) -> None:
    path = article(number)
    result = ingest_paths([str(path)])
    assert messages(result) == [
        f'{path}:{line}: Pod {pod}: spec.priorityClassName: no PriorityClass with name "{class_name}" was found'
    ]
    assert len(result.pods) == 1


@needs_article
def test_article_priority_class_gives_its_value() -> None:
    result = ingest_paths([str(article("11")), str(article("12"))])
    assert messages(result) == []
    (pod,) = result.pods
    assert (pod.priority_class_name, pod.priority, pod.preemption_policy) == (
        "production-critical",
        1_000_000,
        "PreemptLowerPriority",
    )


@needs_article
@pytest.mark.skipif(not SEED_CLUSTER.is_dir(), reason="no seed cluster fixture")
def test_article_17_and_18_with_their_classes() -> None:
    files = [SEED_CLUSTER / "priorityclasses.yaml", article("17"), article("18")]
    result = ingest_paths([str(f) for f in files])
    assert messages(result) == []
    assert all(p.priority > 0 for p in result.pods)


@needs_article
@pytest.mark.parametrize("number", ["19", "20", "21", "22", "23", "24"])
def test_article_scheduler_configs_pass_through(number: str) -> None:
    result = ingest_paths([str(article(number))])
    assert messages(result) == []
    ((doc, source),) = result.scheduler_configs
    assert doc["kind"] == "KubeSchedulerConfiguration"
    assert (source.file, source.line) == (str(article(number)), 1)
    rows = article(number).read_text().splitlines()
    profiles_line = next(i for i, row in enumerate(rows, 1) if row.startswith("profiles:"))
    lines = result.config_lines(source)
    assert lines is not None and lines.line("profiles") == profiles_line


NOT_SIMULATED_EXAMPLES = [
    ("13", ["DeschedulerPolicy is not simulated yet"]),
    ("14", ["DeschedulerPolicy is not simulated yet"]),
    ("15", ["DeschedulerPolicy is not simulated yet"]),
    ("16", ["DeschedulerPolicy is not simulated yet"]),
    ("25", ["JobSet is not simulated yet"]),
    (
        "26",
        [
            "Kueue ResourceFlavor is not simulated yet",
            "Kueue ClusterQueue is not simulated yet",
            "Kueue LocalQueue is not simulated yet",
        ],
    ),
    ("27", ["JobSet is not simulated yet"]),
    ("28", ["Volcano Job is not simulated yet"]),
    ("32", ["Volcano Job is not simulated yet"]),
    ("33", ["ResourceQuota is not simulated yet"] * 2),
    ("34", ["YuniKorn queues.yaml (partitions: default) is not simulated yet"]),
    ("35", ["Volcano Job is not simulated yet"]),
]


@needs_article
@pytest.mark.parametrize(
    ("number", "notes"), NOT_SIMULATED_EXAMPLES, ids=[r[0] for r in NOT_SIMULATED_EXAMPLES]
)
def test_article_kinds_not_simulated_yet(number: str, notes: list[str]) -> None:
    result = ingest_paths([str(article(number))])
    assert messages(result) == []
    assert [n.note for n in result.not_simulated] == notes
    assert result.pods == []


@needs_article
@pytest.mark.parametrize(("number", "kind"), [("30", "GPUTask"), ("36", "GPUWorkload")])
def test_article_invented_kai_kinds_are_called_out(number: str, kind: str) -> None:
    (item,) = ingest_paths([str(article(number))]).not_simulated
    assert item.kind == kind
    assert item.note.startswith(f"{kind} (scheduling.kai.io/v1) does not exist in KAI-Scheduler.")
    for real_api in (
        "kai.scheduler/queue",
        "PodGroup (scheduling.run.ai/v2alpha2)",
        "Queue (scheduling.run.ai/v2)",
    ):
        assert real_api in item.note


@needs_article
@pytest.mark.parametrize(("number", "key"), [("03", "nodeAffinity"), ("05", "podAntiAffinity")])
def test_article_fragments_are_not_objects(number: str, key: str) -> None:
    path = article(number)
    result = ingest_paths([str(path)])
    assert messages(result) == [
        f"{path}:1: not a Kubernetes object (missing apiVersion/kind); top-level keys: {key} "
        "(a fragment of a pod spec: put it under a Pod's spec)"
    ]


@needs_article
@pytest.mark.parametrize(("number", "pods"), [("29", 4), ("31", 4)])
def test_article_batch_jobs_expand(number: str, pods: int) -> None:
    result = ingest_paths([str(article(number))])
    assert messages(result) == []
    assert len(result.pods) == pods
    assert {p.owner.kind for p in result.pods if p.owner} == {"Job"}


@needs_article
def test_whole_article_folder_ingests() -> None:
    result = ingest_paths([str(ARTICLE)])
    assert len(result.scheduler_configs) == 6
    assert len(result.pods) == 10 + 4 + 4  # single pods, example 29's and 31's Jobs
    kinds = [e.message for e in result.errors]
    assert sum("not a Kubernetes object" in m for m in kinds) == 2
    # 12 finds 11's class; 17 and 18 name classes the article never defines
    assert sum("no PriorityClass" in m for m in kinds) == 2


# --- errors: one line naming file, line, object and field --------------------------------

ERROR_ROWS = [
    (
        "unparsable YAML",
        """
        apiVersion: v1
        kind: Pod
        metadata:
          name: train-0
           namespace: ml
        """,
        [
            "pods.yaml:5: invalid YAML: mapping values are not allowed in this context (line 5, column 13)"
        ],
    ),
    (
        "quantity 2x",
        """
        apiVersion: v1
        kind: Pod
        metadata:
          name: train-0
          namespace: ml
        spec:
          containers:
          - name: trainer
            resources:
              limits:
                nvidia.com/gpu: 2x
        """,
        [
            'pods.yaml:11: Pod ml/train-0: spec.containers[0].resources.limits["nvidia.com/gpu"]: '
            "'2x' is not a quantity"
        ],
    ),
    (
        "negative GPU count",
        """
        apiVersion: v1
        kind: Pod
        metadata: {name: train-0, namespace: ml}
        spec:
          containers:
          - name: trainer
            resources:
              limits:
                nvidia.com/gpu: -1
        """,
        [
            'pods.yaml:9: Pod ml/train-0: spec.containers[0].resources.limits["nvidia.com/gpu"]: '
            'Invalid value: "-1": must be greater than or equal to 0'
        ],
    ),
    (
        "fractional GPU count",
        """
        apiVersion: v1
        kind: Pod
        metadata: {name: train-0, namespace: ml}
        spec:
          containers:
          - name: trainer
            resources:
              limits:
                nvidia.com/gpu: 500m
        """,
        [
            'pods.yaml:9: Pod ml/train-0: spec.containers[0].resources.limits["nvidia.com/gpu"]: '
            'Invalid value: "500m": must be an integer'
        ],
    ),
    (
        "unknown node selector operator",
        """
        apiVersion: v1
        kind: Pod
        metadata: {name: train-0, namespace: ml}
        spec:
          containers: [{name: trainer}]
          affinity:
            nodeAffinity:
              requiredDuringSchedulingIgnoredDuringExecution:
                nodeSelectorTerms:
                - matchExpressions:
                  - key: gpu-type
                    operator: In
                    values: [a100]
                  - key: nvidia.com/gpu.memory
                    operator: Foo
                    values: ["40000"]
        """,
        [
            "pods.yaml:15: Pod ml/train-0: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
            '.nodeSelectorTerms[0].matchExpressions[1].operator: Invalid value: "Foo": not a valid selector operator'
        ],
    ),
    (
        "label selector In without values",
        """
        apiVersion: v1
        kind: Pod
        metadata: {name: web-0}
        spec:
          containers: [{name: web}]
          affinity:
            podAntiAffinity:
              requiredDuringSchedulingIgnoredDuringExecution:
              - topologyKey: kubernetes.io/hostname
                labelSelector:
                  matchExpressions:
                  - {key: app, operator: In}
        """,
        [
            "pods.yaml:12: Pod default/web-0: spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]"
            ".labelSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"
        ],
    ),
    (
        "Gt with two values and a non-metadata.name field",
        """
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec:
          containers: [{name: c}]
          affinity:
            nodeAffinity:
              preferredDuringSchedulingIgnoredDuringExecution:
              - weight: 101
                preference:
                  matchExpressions:
                  - {key: nvidia.com/gpu.memory, operator: Gt, values: ["1", "2"]}
                  matchFields:
                  - {key: metadata.labels, operator: In, values: [a]}
        """,
        [
            "pods.yaml:9: Pod default/p: spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]"
            ".weight: Invalid value: 101: must be in the range 1-100",
            "pods.yaml:12: Pod default/p: spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]"
            ".preference.matchExpressions[0].values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'",
            "pods.yaml:14: Pod default/p: spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]"
            '.preference.matchFields[0].key: Invalid value: "metadata.labels": not a valid field selector key',
        ],
    ),
    (
        "Pod missing containers",
        """
        apiVersion: v1
        kind: Pod
        metadata:
          name: train-0
          namespace: ml
        spec:
          nodeSelector:
            gpu-type: a100
        """,
        ["pods.yaml:6: Pod ml/train-0: spec.containers: Required value"],
    ),
    (
        "toleration Exists with a value, and a bad effect",
        """
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec:
          containers: [{name: c}]
          tolerations:
          - key: dedicated
            operator: Exists
            value: ml-prod
            effect: NoScheduel
        """,
        [
            'pods.yaml:8: Pod default/p: spec.tolerations[0].operator: Invalid value: "ml-prod": '
            "value must be empty when `operator` is 'Exists'",
            'pods.yaml:10: Pod default/p: spec.tolerations[0].effect: Unsupported value: "NoScheduel": '
            'supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
        ],
    ),
    (
        "topology spread: maxSkew 0 and an unknown whenUnsatisfiable",
        """
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec:
          containers: [{name: c}]
          topologySpreadConstraints:
          - maxSkew: 0
            topologyKey: topology.kubernetes.io/zone
            whenUnsatisfiable: DoNotScheduleEver
        """,
        [
            "pods.yaml:7: Pod default/p: spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero",
            "pods.yaml:9: Pod default/p: spec.topologySpreadConstraints[0].whenUnsatisfiable: "
            'Unsupported value: "DoNotScheduleEver": supported values: "DoNotSchedule", "ScheduleAnyway"',
        ],
    ),
    (
        "extended resource request differs from its limit",
        """
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec:
          containers:
          - name: c
            resources:
              requests: {nvidia.com/gpu: 1, cpu: "4"}
              limits: {nvidia.com/gpu: 2, cpu: "2"}
        """,
        [
            "pods.yaml:8: Pod default/p: spec.containers[0].resources.requests: "
            'Invalid value: "1": must be equal to nvidia.com/gpu limit of 2',
            "pods.yaml:8: Pod default/p: spec.containers[0].resources.requests: "
            'Invalid value: "4": must be less than or equal to cpu limit of 2',
        ],
    ),
    (
        "a resource name without a domain",
        """
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec:
          containers:
          - name: c
            resources:
              limits: {gpu: 1}
        """,
        [
            'pods.yaml:8: Pod default/p: spec.containers[0].resources.limits["gpu"]: '
            'Invalid value: "gpu": must be a standard resource for containers'
        ],
    ),
    (
        "node taint with an unknown effect",
        """
        apiVersion: v1
        kind: Node
        metadata: {name: gpu-1}
        spec:
          taints:
          - {key: dedicated, value: ml-prod, effect: NoSchedule}
          - {key: team, value: cv, effect: Evict}
        """,
        [
            'pods.yaml:7: Node gpu-1: spec.taints[1].effect: Unsupported value: "Evict": '
            'supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"'
        ],
    ),
    (
        "unknown kind",
        """
        apiVersion: example.com/v1
        kind: GPUPool
        metadata: {name: pool-a}
        """,
        [
            'pods.yaml:2: GPUPool pool-a: kind: unknown kind "GPUPool" (apiVersion "example.com/v1"); '
            "gpu-whatif reads Node, Pod, Deployment, ReplicaSet, ReplicationController, StatefulSet, Job, "
            "PriorityClass, Namespace, Service, KubeSchedulerConfiguration, and recognises the kinds of "
            "JobSet, Kueue, Volcano, YuniKorn, KAI-Scheduler, scheduler-plugins and the descheduler"
        ],
    ),
    (
        "known kind under the wrong apiVersion",
        """
        apiVersion: apps/v1
        kind: Pod
        metadata: {name: p}
        """,
        ['pods.yaml:1: Pod p: apiVersion: Pod is not in apiVersion "apps/v1"; expected v1'],
    ),
    (
        "a label value YAML reads as a boolean",
        """
        apiVersion: v1
        kind: Pod
        metadata:
          name: p
          labels: {gpu: yes}
        spec:
          containers: [{name: c}]
        """,
        [
            'pods.yaml:5: Pod default/p: metadata.labels["gpu"]: Invalid value: true: must be a string (quote it in YAML)'
        ],
    ),
]


@pytest.mark.parametrize(
    ("text", "expected"), [r[1:] for r in ERROR_ROWS], ids=[r[0] for r in ERROR_ROWS]
)
def test_error_messages(text: str, expected: list[str]) -> None:
    assert messages(ingest_yaml(text, "pods.yaml")) == expected


def test_errors_do_not_stop_the_other_objects() -> None:
    result = ingest_yaml(
        """
        apiVersion: v1
        kind: Pod
        metadata: {name: bad}
        spec:
          containers: [{name: c, resources: {limits: {cpu: lots}}}]
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: good}
        spec:
          containers: [{name: c, resources: {limits: {cpu: "1"}}}]
        """
    )
    assert messages(result) == [
        "objects.yaml:5: Pod default/bad: spec.containers[0].resources.limits[\"cpu\"]: 'lots' is not a quantity"
    ]
    assert [p.name for p in result.pods] == ["bad", "good"]
    assert not result.ok


def test_documents_before_a_yaml_error_are_kept() -> None:
    result = ingest_yaml(
        """
        apiVersion: v1
        kind: Namespace
        metadata: {name: ml}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: [oops
        """
    )
    assert [n.name for n in result.namespaces] == ["ml"]
    assert len(result.errors) == 1
    assert result.errors[0].message.startswith("invalid YAML: ")


def test_duplicate_node_names_name_both_places(tmp_path: Path) -> None:
    node = "apiVersion: v1\nkind: Node\nmetadata:\n  name: gpu-1\n"
    (tmp_path / "a.yaml").write_text(node)
    (tmp_path / "b.yaml").write_text("# the same node again\n---\n" + node)
    result = ingest_paths([str(tmp_path)])
    assert messages(result) == [
        f'{tmp_path}/b.yaml:3: Node gpu-1: metadata.name: duplicate Node "gpu-1": also defined at {tmp_path}/a.yaml:1'
    ]


def test_duplicate_pods_across_namespaces_are_fine_within_one_an_error() -> None:
    result = ingest_yaml(
        """
        apiVersion: v1
        kind: List
        items:
        - {apiVersion: v1, kind: Pod, metadata: {name: p, namespace: a}, spec: {containers: [{name: c}]}}
        - {apiVersion: v1, kind: Pod, metadata: {name: p, namespace: b}, spec: {containers: [{name: c}]}}
        - {apiVersion: v1, kind: Pod, metadata: {name: p, namespace: a}, spec: {containers: [{name: c}]}}
        """
    )
    assert messages(result) == [
        'objects.yaml:6: Pod a/p: metadata.name: duplicate Pod "a/p": also defined at objects.yaml:4'
    ]


def test_json_errors_find_their_line() -> None:
    text = json.dumps(
        {
            "apiVersion": "v1",
            "kind": "List",
            "items": [
                {
                    "apiVersion": "v1",
                    "kind": "Pod",
                    "metadata": {"name": "p", "namespace": "ml"},
                    "spec": {
                        "containers": [
                            {"name": "c", "resources": {"limits": {"nvidia.com/gpu": "2x"}}}
                        ]
                    },
                }
            ],
        },
        indent=4,
    )
    line = next(i for i, row in enumerate(text.splitlines(), 1) if '"2x"' in row)
    assert messages(ingest_text(text, "pods.json")) == [
        f"pods.json:{line}: Pod ml/p: spec.containers[0].resources.limits[\"nvidia.com/gpu\"]: '2x' is not a quantity"
    ]


def test_invalid_json_names_line_and_column() -> None:
    assert messages(ingest_text('{"apiVersion": "v1",\n "kind": "Pod",,}', "pods.json")) == [
        "pods.json:2: invalid JSON: Expecting property name enclosed in double quotes (line 2, column 16)"
    ]


def test_missing_path() -> None:
    assert messages(ingest_paths(["no/such/dir"])) == ["no/such/dir: no such file or directory"]


# --- kubectl output -----------------------------------------------------------------------


def test_kubectl_list_json() -> None:
    path = FIXTURES / "kubectl-get-nodes-pods.json"
    result = ingest_paths([str(path)])
    assert messages(result) == []
    gpu, cpu = result.nodes
    assert gpu.allocatable == {
        "cpu": 223_400,
        "memory": 994_050_048 * 1024,
        "ephemeral-storage": 966_367_641_600,
        "nvidia.com/gpu": 8,
        "pods": 110,
        "hugepages-1Gi": 0,
        "hugepages-2Mi": 0,
    }
    assert gpu.taints == (Taint("dedicated", "NoSchedule", "ml-prod"),)
    assert gpu.labels["nvidia.com/gpu.product"] == "NVIDIA-A100-SXM4-80GB"
    assert [image.size_bytes for image in gpu.images] == [9_876_543_210, 321_520]
    assert "nvcr.io/nvidia/pytorch:24.05-py3" in gpu.images[0].names
    # allocatable lacks ephemeral-storage: capacity stands in for it
    assert cpu.allocatable["ephemeral-storage"] == 101_430_960 * 1024
    assert cpu.unschedulable
    serve, exporter, finetune = result.pods
    assert (serve.key, serve.node_name, serve.phase) == (
        "ml-inference/llm-serve-7c9d8b6f5d-x2kqp",
        "gpu-a100-0",
        "Running",
    )
    assert serve.requests == {"cpu": 8000, "memory": 64 * GI, "nvidia.com/gpu": 2}
    assert serve.owner == OwnerRef(
        "ReplicaSet", "llm-serve-7c9d8b6f5d", "1b2c3d4e-5f60-4718-92a3-b4c5d6e7f809"
    )
    assert exporter.host_ports == (HostPort(9100, "TCP", "0.0.0.0"),)
    assert (exporter.priority_class_name, exporter.priority) == (
        "system-node-critical",
        2_000_001_000,
    )
    assert (finetune.node_name, finetune.requests) == (
        None,
        {"nvidia.com/gpu": 4, "cpu": 32_000, "memory": 256 * GI},
    )
    assert [p.arrival_index for p in result.pods] == [0, 1, 2]
    assert result.skipped_terminal == 1  # eval-batch-0 Succeeded


def test_kubectl_list_yaml_and_multi_documents() -> None:
    result = ingest_yaml(
        """
        apiVersion: v1
        kind: NodeList
        items:
        - apiVersion: v1
          kind: Node
          metadata: {name: n1}
          status: {capacity: {cpu: "8", memory: 32Gi, nvidia.com/gpu: "1"}}
        ---
        apiVersion: v1
        kind: PodList
        items:
        - apiVersion: v1
          kind: Pod
          metadata: {name: p1}
          spec: {nodeName: n1, containers: [{name: c, resources: {requests: {cpu: 250m}}}]}
        ---
        """
    )
    assert messages(result) == []
    (node,) = result.nodes
    assert node.allocatable == {"cpu": 8000, "memory": 32 * GI, "nvidia.com/gpu": 1}
    assert node.source is not None and node.source.line == 4
    (pod,) = result.pods
    assert (pod.node_name, pod.requests, pod.source.line if pod.source else None) == (
        "n1",
        {"cpu": 250},
        12,
    )


def test_folders_are_read_recursively_in_sorted_order(tmp_path: Path) -> None:
    pod = "apiVersion: v1\nkind: Pod\nmetadata: {{name: {}}}\nspec: {{containers: [{{name: c}}]}}\n"
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "z.yml").write_text(pod.format("third"))
    (tmp_path / "a.yaml").write_text(pod.format("first"))
    (tmp_path / "b" / "a.json").write_text(
        json.dumps(
            {
                "apiVersion": "v1",
                "kind": "Pod",
                "metadata": {"name": "second"},
                "spec": {"containers": [{"name": "c"}]},
            }
        )
    )
    (tmp_path / "notes.txt").write_text("not read")
    result = ingest_paths([str(tmp_path)])
    assert [(p.name, p.arrival_index) for p in result.pods] == [
        ("first", 0),
        ("second", 1),
        ("third", 2),
    ]


# --- workloads ---------------------------------------------------------------------------


def test_deployment_expands_into_replica_set_pods() -> None:
    result = ingest_yaml(
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: llm-serve, namespace: ml}
        spec:
          replicas: 3
          selector: {matchLabels: {app: llm-serve}}
          template:
            metadata:
              labels: {app: llm-serve}
              annotations: {gpu-whatif/duration: 2h}
            spec:
              containers: [{name: s, image: vllm:0.5, resources: {limits: {nvidia.com/gpu: 1}}}]
        """
    )
    assert messages(result) == []
    assert len(result.pods) == 3
    template_hash = result.pods[0].labels["pod-template-hash"]
    assert re.fullmatch(f"{SUFFIX}{{1,10}}", template_hash)
    for pod in result.pods:
        assert re.fullmatch(f"llm-serve-{template_hash}-{SUFFIX}{{5}}", pod.name)
        assert pod.namespace == "ml"
        assert pod.labels == {"app": "llm-serve", "pod-template-hash": template_hash}
        assert pod.annotations == {"gpu-whatif/duration": "2h"}
        assert pod.owner is not None and (pod.owner.kind, pod.owner.name) == (
            "ReplicaSet",
            f"llm-serve-{template_hash}",
        )
        assert pod.extra["controller"] == {"kind": "Deployment", "name": "llm-serve"}
        assert pod.requests == {"nvidia.com/gpu": 1}
    assert len({p.name for p in result.pods}) == 3
    (controller,) = result.controllers
    assert (controller.kind, controller.name) == ("ReplicaSet", f"llm-serve-{template_hash}")
    assert controller.selector == LabelSelector(
        (("app", "llm-serve"), ("pod-template-hash", template_hash))
    )


def test_generated_names_are_the_same_every_time() -> None:
    text = """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: d}
        spec:
          selector: {matchLabels: {app: d}}
          template: {metadata: {labels: {app: d}}, spec: {containers: [{name: c}]}}
        """
    assert [p.name for p in ingest_yaml(text).pods] == [p.name for p in ingest_yaml(text).pods]


def test_stateful_set_pods_have_ordinals() -> None:
    result = ingest_yaml(
        """
        apiVersion: apps/v1
        kind: StatefulSet
        metadata: {name: trainer, namespace: ml}
        spec:
          replicas: 3
          serviceName: trainer
          selector: {matchLabels: {app: trainer}}
          template:
            metadata: {labels: {app: trainer}}
            spec: {containers: [{name: t, resources: {limits: {nvidia.com/gpu: 8}}}]}
        """
    )
    assert messages(result) == []
    assert [p.name for p in result.pods] == ["trainer-0", "trainer-1", "trainer-2"]
    last = result.pods[2]
    assert last.labels["statefulset.kubernetes.io/pod-name"] == "trainer-2"
    assert last.labels["apps.kubernetes.io/pod-index"] == "2"
    assert last.owner is not None and (last.owner.kind, last.owner.name) == (
        "StatefulSet",
        "trainer",
    )
    assert [(c.kind, c.name) for c in result.controllers] == [("StatefulSet", "trainer")]


JOB_ROWS = [
    ("parallelism 4, completions unset", {"parallelism": 4}, 4),
    ("completions below parallelism", {"parallelism": 8, "completions": 3}, 3),
    ("defaults: one pod", {}, 1),
    ("suspended", {"parallelism": 4, "suspend": True}, 0),
    ("parallelism 0", {"parallelism": 0, "completions": 5}, 0),
]


@pytest.mark.parametrize(("spec", "count"), [r[1:] for r in JOB_ROWS], ids=[r[0] for r in JOB_ROWS])
def test_job_runs_min_of_parallelism_and_completions(spec: dict[str, Any], count: int) -> None:
    job = {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {
            "name": "eval",
            "namespace": "ml",
            "uid": "0f1e2d3c-0000-4000-8000-000000000001",
        },
        "spec": {
            **spec,
            "template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "c"}]}},
        },
    }
    result = ingest_text(json.dumps(job), "job.json")
    assert messages(result) == []
    assert len(result.pods) == count
    for pod in result.pods:
        assert re.fullmatch(f"eval-{SUFFIX}{{5}}", pod.name)
        assert pod.labels == {
            "batch.kubernetes.io/job-name": "eval",
            "job-name": "eval",
            "batch.kubernetes.io/controller-uid": "0f1e2d3c-0000-4000-8000-000000000001",
            "controller-uid": "0f1e2d3c-0000-4000-8000-000000000001",
        }
        assert pod.owner == OwnerRef("Job", "eval", "0f1e2d3c-0000-4000-8000-000000000001")


def test_indexed_job_pods_carry_their_index() -> None:
    result = ingest_yaml(
        """
        apiVersion: batch/v1
        kind: Job
        metadata: {name: sweep}
        spec:
          completionMode: Indexed
          completions: 6
          parallelism: 2
          template:
            metadata: {labels: {team: cv}}
            spec: {restartPolicy: Never, containers: [{name: c}]}
        """
    )
    assert messages(result) == []
    assert [p.labels["batch.kubernetes.io/job-completion-index"] for p in result.pods] == ["0", "1"]
    assert [p.annotations["batch.kubernetes.io/job-completion-index"] for p in result.pods] == [
        "0",
        "1",
    ]
    assert re.fullmatch(f"sweep-1-{SUFFIX}{{5}}", result.pods[1].name)
    assert result.pods[0].labels["team"] == "cv"


def test_selector_must_match_template_labels() -> None:
    result = ingest_yaml(
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: d}
        spec:
          selector: {matchLabels: {app: web}}
          template: {metadata: {labels: {app: api}}, spec: {containers: [{name: c}]}}
        """
    )
    assert messages(result) == [
        'objects.yaml:6: Deployment default/d: spec.template.metadata.labels: Invalid value: {"app": "api"}: '
        "`selector` does not match template `labels`"
    ]


def test_workload_errors_point_into_the_template() -> None:
    result = ingest_yaml(
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: d}
        spec:
          replicas: 5
          selector: {matchLabels: {app: d}}
          template:
            metadata: {labels: {app: d}}
            spec:
              priorityClassName: gold
              containers: [{name: c}]
        """
    )
    # one error for the template, not one per replica
    assert messages(result) == [
        'objects.yaml:10: Deployment default/d: spec.template.spec.priorityClassName: no PriorityClass with name "gold" was found'
    ]


def test_snapshot_pods_replace_their_controllers_pods() -> None:
    result = ingest_yaml(
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web, namespace: ml}
        spec:
          replicas: 2
          selector: {matchLabels: {app: web}}
          template: {metadata: {labels: {app: web}}, spec: {containers: [{name: c}]}}
        ---
        apiVersion: v1
        kind: Pod
        metadata:
          name: web-5d4f8c7b9-abcde
          namespace: ml
          labels: {app: web, pod-template-hash: 5d4f8c7b9}
          ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-5d4f8c7b9, uid: u1, controller: true}]
        spec: {nodeName: n1, containers: [{name: c}]}
        """
    )
    assert [p.name for p in result.pods] == ["web-5d4f8c7b9-abcde"]
    assert result.pods[0].arrival_index == 0


def test_service_selector_is_a_controller() -> None:
    result = ingest_yaml(
        """
        apiVersion: v1
        kind: Service
        metadata: {name: llm, namespace: ml}
        spec: {selector: {app: llm}, ports: [{port: 80}]}
        """
    )
    (controller,) = result.controllers
    assert (controller.kind, controller.namespace, controller.selector) == (
        "Service",
        "ml",
        LabelSelector((("app", "llm"),)),
    )


# --- priorities and namespaces -----------------------------------------------------------

PRIORITY_ROWS = [
    ("global default applies to pods without a class", "", None, ("low", 100, "Never")),
    ("a named class wins", "priorityClassName: high", None, ("high", 1000, "PreemptLowerPriority")),
    ("an admitted spec.priority stands", "", 42, (None, 42, "PreemptLowerPriority")),
    (
        "built-in classes exist",
        "priorityClassName: system-cluster-critical",
        None,
        ("system-cluster-critical", 2_000_000_000, "PreemptLowerPriority"),
    ),
]


@pytest.mark.parametrize(
    ("spec_line", "priority", "expected"),
    [r[1:] for r in PRIORITY_ROWS],
    ids=[r[0] for r in PRIORITY_ROWS],
)
def test_pod_priority(spec_line: str, priority: int | None, expected: tuple[Any, int, str]) -> None:
    spec_priority = f"priority: {priority}" if priority is not None else ""
    result = ingest_yaml(
        f"""
        apiVersion: scheduling.k8s.io/v1
        kind: PriorityClass
        metadata: {{name: low}}
        value: 100
        globalDefault: true
        preemptionPolicy: Never
        ---
        apiVersion: scheduling.k8s.io/v1
        kind: PriorityClass
        metadata: {{name: high}}
        value: 1000
        ---
        apiVersion: v1
        kind: Pod
        metadata: {{name: p}}
        spec:
          {spec_line}
          {spec_priority}
          containers: [{{name: c}}]
        """
    )
    assert messages(result) == []
    (pod,) = result.pods
    assert (pod.priority_class_name, pod.priority, pod.preemption_policy) == expected


def test_only_one_global_default() -> None:
    result = ingest_yaml(
        """
        apiVersion: scheduling.k8s.io/v1
        kind: PriorityClass
        metadata: {name: a}
        value: 10
        globalDefault: true
        ---
        apiVersion: scheduling.k8s.io/v1
        kind: PriorityClass
        metadata: {name: b}
        value: 20
        globalDefault: true
        """
    )
    assert messages(result) == [
        "objects.yaml:7: PriorityClass b: globalDefault: PriorityClass a is already marked as default. "
        "Only one default can exist"
    ]


def test_namespace_gets_its_metadata_name_label() -> None:
    (namespace,) = ingest_yaml(
        """
        apiVersion: v1
        kind: Namespace
        metadata: {name: ml, labels: {team: research}}
        """
    ).namespaces
    assert namespace.label_dict == {"kubernetes.io/metadata.name": "ml", "team": "research"}


# --- merging uploads ---------------------------------------------------------------------


def test_merge_resolves_classes_and_duplicates_across_uploads() -> None:
    pods = ingest_yaml(
        """
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec: {priorityClassName: gold, containers: [{name: c}]}
        """,
        "pods.yaml",
    )
    assert len(pods.errors) == 1
    classes = ingest_yaml(
        """
        apiVersion: scheduling.k8s.io/v1
        kind: PriorityClass
        metadata: {name: gold}
        value: 5000
        """,
        "classes.yaml",
    )
    merged = pods.merge(classes)
    assert messages(merged) == []
    assert merged.pods[0].priority == 5000
    assert [pc.name for pc in merged.priority_classes].count("system-node-critical") == 1


# --- never raise -------------------------------------------------------------------------

FIELD_NAMES = [
    "containers",
    "initContainers",
    "resources",
    "limits",
    "requests",
    "cpu",
    "nvidia.com/gpu",
    "affinity",
    "nodeAffinity",
    "podAntiAffinity",
    "requiredDuringSchedulingIgnoredDuringExecution",
    "nodeSelectorTerms",
    "matchExpressions",
    "matchFields",
    "labelSelector",
    "key",
    "operator",
    "values",
    "weight",
    "topologyKey",
    "tolerations",
    "effect",
    "topologySpreadConstraints",
    "maxSkew",
    "whenUnsatisfiable",
    "ports",
    "hostPort",
    "overhead",
    "name",
    "restartPolicy",
    "priorityClassName",
    "template",
    "spec",
    "metadata",
    "replicas",
    "selector",
    "parallelism",
]
JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from(["1", "2x", "In", "Gt", "Exists", "", "a/b", "500m"]),
)
JSONISH = st.recursive(
    JUNK,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(FIELD_NAMES), inner, max_size=4)
    ),
    max_leaves=25,
)


@settings(max_examples=150, deadline=None)
@given(
    kind=st.sampled_from(
        [("v1", "Pod"), ("v1", "Node"), ("apps/v1", "Deployment"), ("batch/v1", "Job")]
    ),
    spec=JSONISH,
)
def test_malformed_objects_become_errors_not_exceptions(kind: tuple[str, str], spec: Any) -> None:
    manifest = {"apiVersion": kind[0], "kind": kind[1], "metadata": {"name": "x"}, "spec": spec}
    result = ingest_text(json.dumps(manifest), "fuzz.json")
    assert all("\n" not in str(e) for e in result.errors)


def test_a_large_kubectl_dump_ingests_quickly() -> None:
    """Ours: ingest must keep up with 50,000-pod snapshots (the bench's scale);
    a tenth of that, generously bounded, guards against quadratic slips."""
    node = json.loads((FIXTURES / "kubectl-get-nodes-pods.json").read_text())["items"][0]
    pod = json.loads((FIXTURES / "kubectl-get-nodes-pods.json").read_text())["items"][2]
    items = []
    for i in range(500):
        items.append({**node, "metadata": {**node["metadata"], "name": f"gpu-{i}"}})
    for i in range(5000):
        items.append(
            {
                **pod,
                "metadata": {**pod["metadata"], "name": f"serve-{i}"},
                "spec": {**pod["spec"], "nodeName": f"gpu-{i % 500}"},
            }
        )
    text = json.dumps({"apiVersion": "v1", "kind": "List", "items": items}, indent=4)
    started = time.perf_counter()
    result = ingest_text(text, "dump.json")
    elapsed = time.perf_counter() - started
    assert (len(result.nodes), len(result.pods), result.errors) == (500, 5000, [])
    assert elapsed < 5.0, f"{elapsed:.2f}s"
