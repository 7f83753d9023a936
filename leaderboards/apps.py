from django.apps import AppConfig


class LeaderboardsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leaderboards"
    verbose_name = "Leaderboards, clubs and tournaments"

    def ready(self):
        from games.services import sequence_register
        from games.signals import game_analysed, game_finished
        from pyramid_site.metrics import collector_register

        from .fair_play.accuracy import accuracy_on_game_analysed
        from .fair_play.metrics import RecheckCollector
        from .fair_play.tasks import check_on_game_finished
        from .services.results import result_on_game_finished
        from .services.tournaments import PURPOSE, tournament_sequence_step

        # the game service announces each ranked game's end, in the transaction that stores it
        game_finished.connect(result_on_game_finished, dispatch_uid="leaderboards.result")
        # and, once that is committed, the fair-play rules that read a game with the other games of its deal
        game_finished.connect(check_on_game_finished, dispatch_uid="leaderboards.game_rules")
        # and each ranked game's analysis, in the transaction that stores it: the accuracy rule of fair play
        game_analysed.connect(accuracy_on_game_analysed, dispatch_uid="leaderboards.accuracy")
        sequence_register(PURPOSE, tournament_sequence_step)
        collector_register(RecheckCollector())
