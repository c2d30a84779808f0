"""URL routes of the web app; each app keeps its own routes in its urls module."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("webapp.core.urls")),
    path("health/", include("webapp.health.urls")),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("clusters/", include("webapp.inventory.urls")),
    path("scenarios/", include("webapp.scenarios.urls")),
    path("", include("webapp.dashboard.urls")),
    path("api/", include("webapp.api.urls")),
]
