"""Tasks that belong to no domain app."""

from celery import shared_task


@shared_task
def ping() -> str:
    """Answer "pong": proves a worker consumes the queue and results come back.

    Tests use it, and so can an operator: `ping.delay().get(timeout=10)`.
    """
    return "pong"
