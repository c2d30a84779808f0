"""GET /health/: is this process able to serve, and does its database answer?"""

import logging

from django.db import connections
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

logger = logging.getLogger(__name__)


def database_problem(alias: str = "default") -> str | None:
    """None when the database answers ``SELECT 1``, else one sentence saying it does not.

    The sentence names the error class but not its text: the endpoint is
    public, and driver messages carry host names and user names. The full
    error goes to the log for the operator.
    """
    try:
        with connections[alias].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:
        # Any failure means "not healthy"; a health check must answer, not crash.
        logger.warning("Health check: database %r is unreachable", alias, exc_info=True)
        return f"The database did not answer a trivial query ({type(error).__name__})."
    return None


@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    problem = database_problem()
    if problem is not None:
        return JsonResponse({"status": "error", "database": problem}, status=503)
    return JsonResponse({"status": "ok", "database": "ok"})
