"""One REST API for the whole app: each app registers its ViewSets here.

The OpenAPI schema comes from drf-spectacular; the docs page is served
from the installed package's own assets, so it works offline.
"""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView
from rest_framework.routers import DefaultRouter

from webapp.dashboard import api as dashboard_api
from webapp.inventory import api as inventory_api
from webapp.scenarios import api as scenarios_api

app_name = "api"

router = DefaultRouter()
for module in (inventory_api, scenarios_api, dashboard_api):
    module.register(router)

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularRedocView.as_view(url_name="api:schema"), name="docs"),
    path("", include(router.urls)),
]
