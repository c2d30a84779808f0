"""Storing inventories and workload mixes: whole, with their summary, or not at all."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.webapp.inventory.conftest import ARTICLE_DIR, tar_of, upload, zip_of
from webapp.inventory import services
from webapp.inventory.models import ClusterInventory, StoredFile, WorkloadMix
from webapp.scenarios.models import Scenario

pytestmark = pytest.mark.django_db

Uploads = Callable[[dict[str, bytes]], list[SimpleUploadedFile]]

BAD_QUANTITY_POD = b"""\
apiVersion: v1
kind: Pod
metadata:
  name: train-0
  namespace: ml
spec:
  containers:
  - name: c
    image: x
    resources:
      limits:
        nvidia.com/gpu: 2x
"""
BROKEN_YAML = b"apiVersion: v1\nkind: Pod\nmetadata: {name: a\n"
NODE = b"""\
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
"""
RUNNING_POD = b"""\
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec: {nodeName: n1, containers: [{name: c, image: x}]}
"""


def row_counts() -> tuple[int, int, int]:
    return (
        ClusterInventory.objects.count(),
        WorkloadMix.objects.count(),
        StoredFile.objects.count(),
    )


# --- the seed cluster and the seed article ----------------------------------------


def test_seed_cluster_inventory_summary(user, seed_cluster_files, as_uploads: Uploads) -> None:  # type: ignore[no-untyped-def]
    inventory = services.inventory_create(
        owner=user,
        name=" seed ",
        description="the article's cluster",
        files=as_uploads(seed_cluster_files),
    )

    summary = ClusterInventory.objects.get(pk=inventory.pk).summary
    assert inventory.name == "seed"
    assert summary["nodes"] == 16
    assert summary["gpus_total"] == 82
    by_model = {row["model"]: (row["nodes"], row["gpus"]) for row in summary["gpus_by_model"]}
    assert by_model == {
        "NVIDIA-A100": (2, 16),
        "NVIDIA-H100-80GB-HBM3": (2, 16),
        "NVIDIA-A100-SXM4-40GB": (2, 12),
        "NVIDIA-T4": (3, 12),
        "Tesla-V100-SXM2-32GB": (3, 10),
        "NVIDIA-A100-SXM4-80GB": (1, 8),
        "NVIDIA-L40S": (1, 4),
        "Tesla-T4-SHARED": (1, 4),
    }
    assert summary["mig_resources"] == [
        {"resource": "nvidia.com/mig-1g.5gb", "nodes": 1, "count": 14},
        {"resource": "nvidia.com/mig-3g.20gb", "nodes": 1, "count": 4},
    ]
    assert summary["zones"] == [
        {"zone": "ru-central1-b", "nodes": 6},
        {"zone": "ru-central1-a", "nodes": 5},
        {"zone": "ru-central1-d", "nodes": 5},
    ]
    assert {"taint": "dedicated=inference:NoSchedule", "nodes": 3} in summary["taints"]
    assert summary["pods_running"] == 6
    assert summary["pods_pending"] == 0
    files = list(inventory.files.values_list("name", "size_bytes"))
    assert files == [(name, len(data)) for name, data in seed_cluster_files.items()]
    assert (
        inventory.files.get(name="nodes.yaml").content == seed_cluster_files["nodes.yaml"].decode()
    )


def test_seed_article_workload_mix_summary(user, seed_article_files, as_uploads: Uploads) -> None:  # type: ignore[no-untyped-def]
    mix = services.workload_mix_create(
        owner=user, name="article", files=as_uploads(seed_article_files)
    )

    summary = mix.summary
    assert summary["nodes"] == 0
    assert summary["pods_pending"] == 17
    assert summary["pods_running"] == 1  # example 01 names its node
    assert summary["pending_by_priority"] == [
        {"priority": 1_000_000, "priority_classes": ["production-critical"], "pods": 1},
        {"priority": 100_000, "priority_classes": ["high-priority-inference"], "pods": 1},
        {"priority": 5_000, "priority_classes": ["medium-priority-training"], "pods": 1},
        {"priority": 0, "priority_classes": [], "pods": 14},
    ]
    assert summary["pending_by_namespace"] == [
        {"namespace": "default", "pods": 13},
        {"namespace": "ml-inference", "pods": 4},
    ]
    assert summary["pending_by_scheduler"] == [
        {"scheduler": "default-scheduler", "pods": 13},
        {"scheduler": "yunikorn", "pods": 4},
    ]
    assert summary["workloads_expanded"] == [
        {"workload": "Job/default/distributed-training", "pods": 4},
        {"workload": "Job/ml-inference/inference-job", "pods": 4},
    ]
    assert [pc["name"] for pc in summary["priority_classes"]] == [
        "production-critical",
        "high-priority-inference",
        "medium-priority-training",
    ]
    assert summary["scheduler_configs"] == 6
    assert {
        "kind": "DeschedulerPolicy",
        "name": "",
        "note": "DeschedulerPolicy is not simulated yet",
        "source": "13-descheduler-consolidate-gpu.yaml:1",
    } in summary["not_simulated"]
    local_queue = next(row for row in summary["not_simulated"] if row["kind"] == "LocalQueue")
    assert local_queue["source"] == "26-kueue-flavor-clusterqueue-localqueue.yaml:25"
    assert mix.files.count() == len(seed_article_files)


@pytest.mark.parametrize(
    "archive",
    [pytest.param(zip_of, id="zip"), pytest.param(tar_of, id="tar-gz")],
)
def test_archives_store_the_same_as_plain_files(  # type: ignore[no-untyped-def]
    user, seed_article_files, as_uploads: Uploads, archive
) -> None:
    plain = services.workload_mix_create(
        owner=user, name="plain", files=as_uploads(seed_article_files)
    )
    members = {f"seed-article/{name}": data for name, data in reversed(seed_article_files.items())}
    packed = services.workload_mix_create(owner=user, name="packed", files=[archive(members)])

    assert packed.summary["pods_pending"] == plain.summary["pods_pending"] == 17
    assert packed.summary["pending_by_priority"] == plain.summary["pending_by_priority"]
    # Members are stored under their path, in sorted order, whatever the archive's order.
    assert list(packed.files.values_list("name", flat=True)) == sorted(members)


# --- rejected whole, every problem listed, nothing stored ----------------------------


@pytest.mark.parametrize(
    ("create", "files", "problems"),
    [
        pytest.param(
            services.workload_mix_create,
            {"pods.yaml": BAD_QUANTITY_POD},
            [
                'pods.yaml:12: Pod ml/train-0: spec.containers[0].resources.limits["nvidia.com/gpu"]:'
                " '2x' is not a quantity"
            ],
            id="bad-quantity",
        ),
        pytest.param(
            services.inventory_create,
            {"nodes.yaml": NODE, "broken.yaml": BROKEN_YAML},
            [
                "broken.yaml:4: invalid YAML: did not find expected ',' or '}' while parsing"
                " a flow mapping (line 4, column 1)"
            ],
            id="bad-yaml-beside-a-good-file",
        ),
        pytest.param(
            services.workload_mix_create,
            {"broken.yaml": BROKEN_YAML, "pods.yaml": BAD_QUANTITY_POD},
            [
                "broken.yaml:4: invalid YAML: did not find expected ',' or '}' while parsing"
                " a flow mapping (line 4, column 1)",
                'pods.yaml:12: Pod ml/train-0: spec.containers[0].resources.limits["nvidia.com/gpu"]:'
                " '2x' is not a quantity",
            ],
            id="all-problems-listed",
        ),
        pytest.param(
            services.inventory_create,
            {"pods.yaml": RUNNING_POD},
            [services.NO_NODES],
            id="inventory-without-nodes",
        ),
        pytest.param(
            services.workload_mix_create,
            {"running.yaml": RUNNING_POD, "nodes.yaml": NODE},
            [services.NO_PODS_TO_PLACE],
            id="mix-without-pods-to-place",
        ),
    ],
)
def test_rejected_uploads_store_nothing(  # type: ignore[no-untyped-def]
    user, as_uploads: Uploads, create, files: dict[str, bytes], problems: list[str]
) -> None:
    before = row_counts()
    with pytest.raises(services.UploadRejected) as rejected:
        create(owner=user, name="bad", files=as_uploads(files))
    assert rejected.value.problems == problems
    assert row_counts() == before


def test_problems_across_files_are_found(user, seed_article_files, as_uploads: Uploads) -> None:  # type: ignore[no-untyped-def]
    files = dict(seed_article_files)
    files["03-fragment-node-affinity-notin-shared.yaml"] = (
        ARTICLE_DIR / "03-fragment-node-affinity-notin-shared.yaml"
    ).read_bytes()
    files["11-priorityclass-production-critical.yaml"] = (
        ARTICLE_DIR / "11-priorityclass-production-critical.yaml"
    ).read_bytes()
    before = row_counts()
    with pytest.raises(services.UploadRejected) as rejected:
        services.workload_mix_create(owner=user, name="article", files=as_uploads(files))
    assert rejected.value.problems == [
        "03-fragment-node-affinity-notin-shared.yaml:1: not a Kubernetes object (missing"
        " apiVersion/kind); top-level keys: nodeAffinity (a fragment of a pod spec: put it under"
        " a Pod's spec)",
        "11-priorityclass-production-critical.yaml:1: PriorityClass production-critical:"
        ' metadata.name: duplicate PriorityClass "production-critical": also defined at'
        " priorityclasses.yaml:7",
    ]
    assert row_counts() == before


def test_an_unsafe_archive_stores_nothing(user) -> None:  # type: ignore[no-untyped-def]
    before = row_counts()
    with pytest.raises(services.UploadRejected) as rejected:
        services.inventory_create(
            owner=user, name="x", files=[zip_of({"nodes.yaml": NODE, "../evil.yaml": NODE})]
        )
    assert rejected.value.problems == [
        "manifests.zip: member '../evil.yaml' points outside the archive (it contains '..')."
    ]
    assert row_counts() == before


def test_already_read_text_is_accepted(user) -> None:  # type: ignore[no-untyped-def]
    # The way a snapshot command hands in what it read from a live cluster.
    inventory = services.inventory_create(
        owner=user, name="live", files=[("snapshot/nodes.yaml", NODE.decode())]
    )
    assert inventory.summary["nodes"] == 1
    assert list(inventory.files.values_list("name", flat=True)) == ["snapshot/nodes.yaml"]


# --- deleting -------------------------------------------------------------------------


def stored_pair(user):  # type: ignore[no-untyped-def]
    inventory = services.inventory_create(owner=user, name="c", files=[upload("n.yaml", NODE)])
    mix = services.workload_mix_create(
        owner=user,
        name="w",
        files=[
            upload(
                "p.yaml",
                b"apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {containers: [{name: c, image: x}]}\n",
            )
        ],
    )
    return inventory, mix


def test_delete_removes_the_files_too(user) -> None:  # type: ignore[no-untyped-def]
    inventory, mix = stored_pair(user)
    services.inventory_delete(inventory=inventory)
    services.workload_mix_delete(workload_mix=mix)
    assert row_counts() == (0, 0, 0)


def test_delete_is_refused_while_a_scenario_uses_it(user) -> None:  # type: ignore[no-untyped-def]
    inventory, mix = stored_pair(user)
    Scenario.objects.create(owner=user, name="h100 what-if", cluster=inventory, workload=mix)

    with pytest.raises(services.InUse) as in_use:
        services.inventory_delete(inventory=inventory)
    assert str(in_use.value) == (
        'Cluster inventory "c" is used by scenario "h100 what-if"; delete those scenarios first.'
    )
    with pytest.raises(services.InUse) as in_use:
        services.workload_mix_delete(workload_mix=mix)
    assert str(in_use.value).startswith('Workload mix "w" is used by scenario "h100 what-if"')
    assert row_counts() == (1, 1, 2)


def test_ingesting_at_once_equals_ingest_text_merged(seed_article_files) -> None:  # type: ignore[no-untyped-def]
    from engine.ingest import IngestResult, ingest_text
    from webapp.inventory.services import ingest_upload
    from webapp.inventory.summaries import summary_of
    from webapp.inventory.uploads import Upload

    files = [(name, data.decode()) for name, data in seed_article_files.items()]
    files.append(
        ("dup.yaml", (ARTICLE_DIR / "11-priorityclass-production-critical.yaml").read_text())
    )
    merged = IngestResult()
    for name, text in files:
        merged.merge(ingest_text(text, name))
    at_once = ingest_upload(Upload(files=files))
    assert [str(e) for e in at_once.errors] == [str(e) for e in merged.errors]
    assert len(at_once.errors) == 1  # the duplicate PriorityClass, found across files
    assert summary_of(at_once) == summary_of(merged)
