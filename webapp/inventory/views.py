"""Pages for inventories and workload mixes: list, upload, detail, file content, delete.

Thin: the services store and delete, the selectors read (owner-scoped, so
another user's object is a 404).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from webapp.inventory import selectors, services
from webapp.inventory.forms import INVENTORY, UploadForm
from webapp.inventory.models import ClusterInventory, WorkloadMix


@login_required
def stored_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "inventory/list.html",
        {
            "inventories": selectors.inventory_list(owner=request.user),
            "workload_mixes": selectors.workload_mix_list(owner=request.user),
        },
    )


@login_required
def upload(request: HttpRequest) -> HttpResponse:
    problems: list[str] = []
    if request.method == "POST":
        form = UploadForm(request.POST, request.FILES)
        if form.is_valid():
            data = form.cleaned_data
            create = (
                services.inventory_create
                if data["kind"] == INVENTORY
                else services.workload_mix_create
            )
            try:
                stored = create(
                    owner=request.user,
                    name=data["name"],
                    description=data["description"],
                    files=data["files"],
                )
            except services.UploadRejected as rejected:
                problems = rejected.problems
            else:
                return redirect(_detail_url_name(stored), pk=stored.pk)
    else:
        form = UploadForm(initial={"kind": request.GET.get("kind", INVENTORY)})
    status = 400 if request.method == "POST" else 200
    return render(
        request, "inventory/upload.html", {"form": form, "problems": problems}, status=status
    )


def _detail_url_name(stored: ClusterInventory | WorkloadMix) -> str:
    return "inventory:cluster" if isinstance(stored, ClusterInventory) else "inventory:workload"


def _detail(request: HttpRequest, stored: ClusterInventory | WorkloadMix) -> HttpResponse:
    return render(
        request,
        "inventory/detail.html",
        {
            "stored": stored,
            "is_inventory": isinstance(stored, ClusterInventory),
            "summary": stored.summary,
            "files": selectors.stored_file_list(stored=stored),
        },
    )


@login_required
def cluster_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return _detail(request, selectors.inventory_get(owner=request.user, pk=pk))


@login_required
def workload_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return _detail(request, selectors.workload_mix_get(owner=request.user, pk=pk))


def _file(
    request: HttpRequest, stored: ClusterInventory | WorkloadMix, file_pk: int
) -> HttpResponse:
    return render(
        request,
        "inventory/file.html",
        {
            "stored": stored,
            "is_inventory": isinstance(stored, ClusterInventory),
            "file": selectors.stored_file_get(stored=stored, pk=file_pk),
        },
    )


@login_required
def cluster_file(request: HttpRequest, pk: int, file_pk: int) -> HttpResponse:
    return _file(request, selectors.inventory_get(owner=request.user, pk=pk), file_pk)


@login_required
def workload_file(request: HttpRequest, pk: int, file_pk: int) -> HttpResponse:
    return _file(request, selectors.workload_mix_get(owner=request.user, pk=pk), file_pk)


@login_required
@require_POST
def cluster_delete(request: HttpRequest, pk: int) -> HttpResponse:
    inventory = selectors.inventory_get(owner=request.user, pk=pk)
    try:
        services.inventory_delete(inventory=inventory)
    except services.InUse as in_use:
        messages.error(request, str(in_use))
        return redirect("inventory:cluster", pk=pk)
    messages.success(request, f'Cluster inventory "{inventory.name}" was deleted.')
    return redirect("inventory:list")


@login_required
@require_POST
def workload_delete(request: HttpRequest, pk: int) -> HttpResponse:
    workload_mix = selectors.workload_mix_get(owner=request.user, pk=pk)
    try:
        services.workload_mix_delete(workload_mix=workload_mix)
    except services.InUse as in_use:
        messages.error(request, str(in_use))
        return redirect("inventory:workload", pk=pk)
    messages.success(request, f'Workload mix "{workload_mix.name}" was deleted.')
    return redirect("inventory:list")
