"""The gpu-whatif Django project.

The Celery app is imported here, as Celery's Django guide recommends, so that
it is the current app when Django starts and ``@shared_task`` binds to it.
"""

from webapp.celery import app as celery_app

__all__ = ("celery_app",)
