"""Django project of the Pyramid service: settings, URLs, the Celery app, WSGI and ASGI."""

from .celery import app as celery_app

__all__ = ["celery_app"]
