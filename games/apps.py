import logging

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from engine.solver import fast
        from pyramid_site.metrics import collector_register

        from .metrics import GamesCollector
        from .services.daily import PURPOSE, daily_sequence_step
        from .services.sequences import sequence_register
        from .signals import game_finished
        from .tasks import analysis_on_game_finished

        sequence_register(PURPOSE, daily_sequence_step)
        game_finished.connect(analysis_on_game_finished, dispatch_uid="games.analysis")
        collector_register(GamesCollector())
        if not fast.available:
            logging.getLogger(__name__).warning(
                "the solver's compiled core is not built: solving falls back to the plain-Python search, hundreds "
                "of times slower (install gcc and the Python headers, then pip install the project again)"
            )
