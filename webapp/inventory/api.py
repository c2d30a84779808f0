"""REST endpoints of this app, registered on the project's router by webapp/api/urls.py.

/api/clusters/ and /api/workloads/: list, retrieve, create (multipart, one or
many `files`), destroy, and `files/` with the stored content. Querysets are
the owner's only, so another user's object is a 404. A rejected upload is a
400 with every problem under "files"; an object still used by a scenario is a
409. Mostly configuration: the services and selectors do the work.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.db.models import Prefetch, QuerySet
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.routers import BaseRouter

from webapp.inventory import selectors, services
from webapp.inventory.filters import ClusterInventoryFilter, WorkloadMixFilter
from webapp.inventory.models import ClusterInventory, StoredFile, WorkloadMix
from webapp.inventory.serializers import (
    ClusterInventorySerializer,
    DetailSerializer,
    StoredFileContentSerializer,
    UploadProblemsSerializer,
    UploadSerializer,
    WorkloadMixSerializer,
)

REJECTED = OpenApiResponse(
    UploadProblemsSerializer,
    description="The upload was not stored; every problem is listed under `files`.",
)
IN_USE = OpenApiResponse(DetailSerializer, description="A scenario still uses it.")


class _StoredViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    parser_classes: ClassVar[list[Any]] = [MultiPartParser, FormParser]
    create_service: ClassVar[Any]
    delete_service: ClassVar[Any]
    delete_keyword: ClassVar[str]

    def list_for(self, owner: Any) -> QuerySet[Any]:
        raise NotImplementedError

    def get_queryset(self) -> QuerySet[Any]:
        return self.list_for(self.request.user).prefetch_related(
            Prefetch("files", queryset=StoredFile.objects.defer("content"))
        )

    def get_serializer_class(self) -> Any:
        if self.action == "create":
            return UploadSerializer
        if self.action == "files":
            return StoredFileContentSerializer
        return self.serializer_class

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        upload = UploadSerializer(data=request.data)
        upload.is_valid(raise_exception=True)
        try:
            stored = type(self).create_service(owner=request.user, **upload.validated_data)
        except services.UploadRejected as rejected:
            return Response({"files": rejected.problems}, status=status.HTTP_400_BAD_REQUEST)
        stored = self.get_queryset().get(pk=stored.pk)
        return Response(self.serializer_class(stored).data, status=status.HTTP_201_CREATED)

    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        stored = self.get_object()
        try:
            type(self).delete_service(**{self.delete_keyword: stored})
        except services.InUse as in_use:
            return Response({"detail": str(in_use)}, status=status.HTTP_409_CONFLICT)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def files(self, request: Request, pk: str | None = None) -> Response:
        """The stored files with their content, verbatim as uploaded."""
        stored = self.get_object()
        serializer = StoredFileContentSerializer(stored.files.all(), many=True)
        return Response(serializer.data)


def _schema(label: str, plural: str, serializer: Any) -> Any:
    return extend_schema_view(
        list=extend_schema(summary=f"List your {plural}"),
        retrieve=extend_schema(summary=f"One {label}, with its summary and file list"),
        create=extend_schema(
            summary=f"Upload a {label}",
            request={"multipart/form-data": UploadSerializer},
            responses={201: serializer, 400: REJECTED},
        ),
        destroy=extend_schema(summary=f"Delete a {label}", responses={204: None, 409: IN_USE}),
        files=extend_schema(
            summary=f"The {label}'s files with their content",
            responses=StoredFileContentSerializer(many=True),
        ),
    )


@_schema("cluster inventory", "cluster inventories", ClusterInventorySerializer)
class ClusterInventoryViewSet(_StoredViewSet):
    serializer_class = ClusterInventorySerializer
    filterset_class = ClusterInventoryFilter
    queryset = ClusterInventory.objects.none()  # for the schema; get_queryset scopes to the owner
    create_service = staticmethod(services.inventory_create)
    delete_service = staticmethod(services.inventory_delete)
    delete_keyword = "inventory"

    def list_for(self, owner: Any) -> QuerySet[Any]:
        return selectors.inventory_list(owner=owner)


@_schema("workload mix", "workload mixes", WorkloadMixSerializer)
class WorkloadMixViewSet(_StoredViewSet):
    serializer_class = WorkloadMixSerializer
    filterset_class = WorkloadMixFilter
    queryset = WorkloadMix.objects.none()
    create_service = staticmethod(services.workload_mix_create)
    delete_service = staticmethod(services.workload_mix_delete)
    delete_keyword = "workload_mix"

    def list_for(self, owner: Any) -> QuerySet[Any]:
        return selectors.workload_mix_list(owner=owner)


def register(router: BaseRouter) -> None:
    """Add this app's ViewSets to the shared router."""
    router.register("clusters", ClusterInventoryViewSet, basename="cluster")
    router.register("workloads", WorkloadMixViewSet, basename="workload")
