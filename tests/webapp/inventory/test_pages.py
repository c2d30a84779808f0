"""The pages under /clusters/: list, upload, details, file content, delete; private to their owner."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.webapp.inventory.conftest import upload, zip_of
from webapp.inventory import services
from webapp.inventory.models import ClusterInventory, WorkloadMix
from webapp.scenarios.models import Scenario

pytestmark = pytest.mark.django_db

NODE = b"apiVersion: v1\nkind: Node\nmetadata: {name: n1, labels: {nvidia.com/gpu.product: NVIDIA-H100}}\nstatus: {allocatable: {nvidia.com/gpu: '8', pods: '110'}}\n"
POD = b"apiVersion: v1\nkind: Pod\nmetadata: {name: a, namespace: ml}\nspec: {containers: [{name: c, image: x}]}\n"
BAD_POD = b"apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {containers: [{name: c, image: x, resources: {limits: {cpu: lots}}}]}\n"


def test_login_is_required(client: Client) -> None:
    for name in ("inventory:list", "inventory:upload"):
        response = client.get(reverse(name))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))


def test_login_page_renders(client: Client) -> None:
    response = client.get(reverse("login"))
    assert response.status_code == 200
    assert b'<label for="id_username">' in response.content


def test_upload_form_has_labelled_fields(alice: Client) -> None:
    response = alice.get(reverse("inventory:upload"))
    html = response.content.decode()
    assert response.status_code == 200
    for field in ("id_name", "id_description", "id_files"):
        assert f'<label for="{field}">' in html
    assert 'type="file" name="files" multiple' in html
    assert "<script" not in html  # no inline JavaScript


def test_upload_an_inventory_then_see_it(alice: Client, seed_cluster_files) -> None:  # type: ignore[no-untyped-def]
    response = alice.post(
        reverse("inventory:upload"),
        {
            "kind": "inventory",
            "name": "seed",
            "description": "",
            "files": [upload(name, data) for name, data in seed_cluster_files.items()],
        },
    )
    inventory = ClusterInventory.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("inventory:cluster", args=[inventory.pk])

    page = alice.get(response["Location"]).content.decode()
    assert "<h1>seed</h1>" in page
    assert "<dt>Nodes</dt><dd>16</dd>" in page
    assert '<th scope="row">NVIDIA-A100</th><td>2</td><td>16</td>' in page
    assert "running-pods.yaml" in page

    listing = alice.get(reverse("inventory:list")).content.decode()
    assert "NVIDIA-A100 × 16" in listing

    file = inventory.files.get(name="nodes.yaml")
    shown = alice.get(reverse("inventory:cluster-file", args=[inventory.pk, file.pk]))
    assert shown.status_code == 200
    assert "kind: List" in shown.content.decode()


def test_upload_a_workload_mix_as_a_zip(alice: Client) -> None:
    response = alice.post(
        reverse("inventory:upload"),
        {"kind": "workload", "name": "mix", "files": [zip_of({"pods/a.yaml": POD})]},
    )
    mix = WorkloadMix.objects.get()
    assert response["Location"] == reverse("inventory:workload", args=[mix.pk])
    page = alice.get(response["Location"]).content.decode()
    assert '<th scope="row">ml</th><td>1</td>' in page
    assert "pods/a.yaml" in page


def test_rejected_upload_lists_every_problem_and_keeps_the_form(alice: Client) -> None:
    response = alice.post(
        reverse("inventory:upload"),
        {
            "kind": "workload",
            "name": "my mix",
            "description": "keep me",
            "files": [upload("bad.yaml", BAD_POD), upload("notes.txt", b"x")],
        },
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert "2 problems" in html
    assert "notes.txt: not a file this app reads" in html
    assert 'value="my mix"' in html
    assert "keep me</textarea>" in html
    assert 'value="workload" id="id_kind_1" required checked' in html
    assert WorkloadMix.objects.count() == 0


def test_engine_problem_is_shown_with_its_line(alice: Client) -> None:
    response = alice.post(
        reverse("inventory:upload"),
        {"kind": "workload", "name": "m", "files": [upload("bad.yaml", BAD_POD)]},
    )
    assert "bad.yaml:4: Pod default/a: spec.containers[0].resources.limits[&quot;cpu&quot;]" in (
        response.content.decode()
    )


def test_missing_fields_are_reported_per_field(alice: Client) -> None:
    response = alice.post(reverse("inventory:upload"), {"kind": "inventory", "name": ""})
    html = response.content.decode()
    assert response.status_code == 400
    assert html.count("This field is required.") == 2  # name and files


@pytest.fixture
def bobs_things(other_user):  # type: ignore[no-untyped-def]
    inventory = services.inventory_create(
        owner=other_user, name="bob's", files=[upload("n.yaml", NODE)]
    )
    mix = services.workload_mix_create(
        owner=other_user, name="bob's", files=[upload("p.yaml", POD)]
    )
    return inventory, mix


def test_another_users_objects_are_not_found(alice: Client, bobs_things) -> None:  # type: ignore[no-untyped-def]
    inventory, mix = bobs_things
    file_pk = inventory.files.get().pk
    for url in (
        reverse("inventory:cluster", args=[inventory.pk]),
        reverse("inventory:workload", args=[mix.pk]),
        reverse("inventory:cluster-file", args=[inventory.pk, file_pk]),
        reverse("inventory:workload", args=[inventory.pk + 1000]),
    ):
        assert alice.get(url).status_code == 404, url
    for url in (
        reverse("inventory:cluster-delete", args=[inventory.pk]),
        reverse("inventory:workload-delete", args=[mix.pk]),
    ):
        assert alice.post(url).status_code == 404, url
    assert "bob&#x27;s" not in alice.get(reverse("inventory:list")).content.decode()
    assert ClusterInventory.objects.count() == 1


def test_a_file_of_another_object_is_not_found(alice: Client, user) -> None:  # type: ignore[no-untyped-def]
    mine = services.inventory_create(owner=user, name="a", files=[upload("n.yaml", NODE)])
    other = services.inventory_create(owner=user, name="b", files=[upload("n.yaml", NODE)])
    url = reverse("inventory:cluster-file", args=[mine.pk, other.files.get().pk])
    assert alice.get(url).status_code == 404


def test_delete_and_refused_delete(alice: Client, user) -> None:  # type: ignore[no-untyped-def]
    inventory = services.inventory_create(owner=user, name="c", files=[upload("n.yaml", NODE)])
    mix = services.workload_mix_create(owner=user, name="w", files=[upload("p.yaml", POD)])
    Scenario.objects.create(owner=user, name="s1", cluster=inventory, workload=mix)

    refused = alice.post(reverse("inventory:cluster-delete", args=[inventory.pk]), follow=True)
    assert "is used by scenario &quot;s1&quot;" in refused.content.decode()
    assert ClusterInventory.objects.count() == 1

    Scenario.objects.all().delete()
    done = alice.post(reverse("inventory:workload-delete", args=[mix.pk]), follow=True)
    assert "Workload mix &quot;w&quot; was deleted." in done.content.decode()
    assert WorkloadMix.objects.count() == 0
    assert alice.get(reverse("inventory:cluster-delete", args=[inventory.pk])).status_code == 405
