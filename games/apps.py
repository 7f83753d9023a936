from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from .services.daily import PURPOSE, daily_sequence_step
        from .services.sequences import sequence_register

        sequence_register(PURPOSE, daily_sequence_step)
