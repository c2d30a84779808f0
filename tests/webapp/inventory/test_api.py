"""/api/clusters/ and /api/workloads/: owner-scoped, multipart uploads, clear 400s, and a valid schema."""

from __future__ import annotations

import pytest
from django.test import Client
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.webapp.inventory.conftest import tar_of, upload
from webapp.inventory import services
from webapp.inventory.models import ClusterInventory, StoredFile, WorkloadMix
from webapp.scenarios.models import Scenario

pytestmark = pytest.mark.django_db

NODE = b"apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {nvidia.com/gpu: '4', pods: '110'}}\n"
POD = b"apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {containers: [{name: c, image: x}]}\n"


@pytest.fixture
def api(user) -> APIClient:  # type: ignore[no-untyped-def]
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_anonymous_requests_are_refused(client: Client) -> None:
    for url in ("/api/clusters/", "/api/workloads/"):
        assert client.get(url).status_code in (401, 403)


def test_create_list_retrieve_files_delete(api: APIClient, seed_cluster_files) -> None:  # type: ignore[no-untyped-def]
    created = api.post(
        "/api/clusters/",
        {
            "name": "seed",
            "description": "from the API",
            "files": [upload(name, data) for name, data in seed_cluster_files.items()],
        },
        format="multipart",
    )
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["summary"]["nodes"] == 16
    assert body["summary"]["gpus_total"] == 82
    assert [f["name"] for f in body["files"]] == ["nodes.yaml", "running-pods.yaml"]
    assert "content" not in body["files"][0]

    listed = api.get("/api/clusters/").json()
    assert listed["count"] == 1
    assert listed["results"][0]["id"] == body["id"]

    files = api.get(f"/api/clusters/{body['id']}/files/").json()
    assert files[0]["content"] == seed_cluster_files["nodes.yaml"].decode()

    assert api.delete(f"/api/clusters/{body['id']}/").status_code == 204
    assert ClusterInventory.objects.count() == StoredFile.objects.count() == 0


def test_workload_mix_from_an_archive(api: APIClient) -> None:
    created = api.post(
        "/api/workloads/",
        {"name": "mix", "files": [tar_of({"a.yaml": POD})]},
        format="multipart",
    )
    assert created.status_code == 201, created.content
    assert created.json()["summary"]["pods_pending"] == 1


@pytest.mark.parametrize(
    ("url", "data", "expected"),
    [
        pytest.param(
            "/api/workloads/",
            {
                "name": "m",
                "files": [upload("bad.yaml", b"apiVersion: v1\nkind: Pod\nmetadata: {name: a\n")],
            },
            {
                "files": [
                    "bad.yaml:4: invalid YAML: did not find expected ',' or '}' while parsing"
                    " a flow mapping (line 4, column 1)"
                ]
            },
            id="engine-problem",
        ),
        pytest.param(
            "/api/clusters/",
            {"name": "c", "files": [upload("pods.yaml", POD)]},
            {"files": [services.NO_NODES]},
            id="no-nodes",
        ),
        pytest.param(
            "/api/clusters/",
            {"name": "c", "files": [upload("n.txt", b"x")]},
            {
                "files": [
                    "n.txt: not a file this app reads; upload .yaml, .yml or .json files,"
                    " or a .zip or .tar.gz archive of them."
                ]
            },
            id="unknown-file",
        ),
        pytest.param(
            "/api/clusters/",
            {"name": "c"},
            {"files": ["This field is required."]},
            id="no-files",
        ),
        pytest.param(
            "/api/workloads/",
            {"files": [upload("p.yaml", POD)]},
            {"name": ["This field is required."]},
            id="no-name",
        ),
    ],
)
def test_rejections_are_400_with_the_problems(
    api: APIClient, url: str, data: dict, expected: dict
) -> None:  # type: ignore[type-arg]
    response = api.post(url, data, format="multipart")
    assert response.status_code == 400
    assert response.json() == expected
    assert ClusterInventory.objects.count() == WorkloadMix.objects.count() == 0


def test_json_body_is_415_not_500(api: APIClient) -> None:
    response = api.post("/api/clusters/", {"name": "c", "files": []}, format="json")
    assert response.status_code == 415


def test_another_users_objects_are_404(api: APIClient, other_user) -> None:  # type: ignore[no-untyped-def]
    theirs = services.inventory_create(
        owner=other_user, name="bob's", files=[upload("n.yaml", NODE)]
    )
    mix = services.workload_mix_create(
        owner=other_user, name="bob's", files=[upload("p.yaml", POD)]
    )
    assert api.get("/api/clusters/").json()["count"] == 0
    for method, url in (
        ("get", f"/api/clusters/{theirs.pk}/"),
        ("get", f"/api/clusters/{theirs.pk}/files/"),
        ("delete", f"/api/clusters/{theirs.pk}/"),
        ("get", f"/api/workloads/{mix.pk}/"),
        ("delete", f"/api/workloads/{mix.pk}/"),
    ):
        assert getattr(api, method)(url).status_code == 404, url
    assert ClusterInventory.objects.count() == WorkloadMix.objects.count() == 1


def test_filter_by_name_and_token_auth(user) -> None:  # type: ignore[no-untyped-def]
    for name in ("prod H100", "staging", "prod T4"):
        services.inventory_create(owner=user, name=name, files=[upload("n.yaml", NODE)])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    found = client.get("/api/clusters/", {"name": "prod"}).json()
    assert sorted(row["name"] for row in found["results"]) == ["prod H100", "prod T4"]


def test_delete_in_use_is_409(api: APIClient, user) -> None:  # type: ignore[no-untyped-def]
    inventory = services.inventory_create(owner=user, name="c", files=[upload("n.yaml", NODE)])
    mix = services.workload_mix_create(owner=user, name="w", files=[upload("p.yaml", POD)])
    Scenario.objects.create(owner=user, name="s1", cluster=inventory, workload=mix)
    response = api.delete(f"/api/workloads/{mix.pk}/")
    assert response.status_code == 409
    assert response.json() == {
        "detail": 'Workload mix "w" is used by scenario "s1"; delete those scenarios first.'
    }


def test_schema_describes_the_endpoints() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    validate_schema(schema)
    paths = schema["paths"]
    for path in (
        "/api/clusters/",
        "/api/clusters/{id}/",
        "/api/clusters/{id}/files/",
        "/api/workloads/",
    ):
        assert path in paths
    create = paths["/api/clusters/"]["post"]
    assert "multipart/form-data" in create["requestBody"]["content"]
    assert set(create["responses"]) == {"201", "400"}
    assert set(paths["/api/workloads/{id}/"]["delete"]["responses"]) == {"204", "409"}
    summary = schema["components"]["schemas"]["Summary"]["properties"]
    assert {"nodes", "gpus_by_model", "pending_by_priority", "not_simulated"} <= set(summary)


def test_schema_endpoint_answers(alice: Client) -> None:
    assert alice.get("/api/schema/").status_code == 200


def test_over_the_size_limit_is_400(api: APIClient, settings) -> None:  # type: ignore[no-untyped-def]
    settings.GPU_WHATIF_MAX_UPLOAD_BYTES = 100
    response = api.post(
        "/api/clusters/",
        {"name": "c", "files": [upload("n.yaml", NODE + b"#" * 100)]},
        format="multipart",
    )
    assert response.status_code == 400
    assert response.json() == {
        "files": [
            "n.yaml: the upload is larger than the limit of 100 bytes uncompressed;"
            " split it or leave out what the simulation does not need."
        ]
    }
