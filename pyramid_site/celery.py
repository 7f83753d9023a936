"""The Celery app: configuration comes from Django's settings (the CELERY_ names)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pyramid_site.settings")

app = Celery("pyramid_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
