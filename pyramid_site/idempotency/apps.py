from django.apps import AppConfig


class IdempotencyConfig(AppConfig):
    name = "pyramid_site.idempotency"
    label = "idempotency"
    verbose_name = "Idempotency keys"
    default_auto_field = "django.db.models.BigAutoField"
