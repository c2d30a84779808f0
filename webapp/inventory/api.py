"""REST endpoints of this app, registered on the project's router by webapp/api/urls.py."""

from rest_framework.routers import BaseRouter


def register(router: BaseRouter) -> None:
    """Add this app's ViewSets to the shared router."""
