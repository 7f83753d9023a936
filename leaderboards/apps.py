from django.apps import AppConfig


class LeaderboardsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leaderboards"
    verbose_name = "Leaderboards, clubs and tournaments"

    def ready(self):
        from games.services import sequence_register
        from games.signals import game_analysed, game_finished, game_moved
        from pyramid_site.metrics import collector_register

        from .boards.services.results import result_on_game_finished
        from .boards.signals import result_held, result_written
        from .fair_play.accuracy import accuracy_on_game_analysed
        from .fair_play.metrics import RecheckCollector
        from .fair_play.services import result_held_by_fair_play
        from .fair_play.tasks import check_on_game_finished
        from .tournaments.services.race import race_on_game_moved
        from .tournaments.services.standings import entries_refresh_on_result_written
        from .tournaments.services.tournaments import PURPOSE, tournament_sequence_step

        # the game service announces each ranked game's end, in the transaction that stores it
        game_finished.connect(result_on_game_finished, dispatch_uid="leaderboards.result")
        # the boards write it without knowing the rooms above them: fair play holds it off the boards (a void or an
        # open flag), and the tournaments' standings follow it, in its transaction
        result_held.connect(result_held_by_fair_play, dispatch_uid="leaderboards.fair_play.hold")
        result_written.connect(entries_refresh_on_result_written, dispatch_uid="leaderboards.tournaments.standings")
        # and, once that is committed, the fair-play rules that read a game with the other games of its deal
        game_finished.connect(check_on_game_finished, dispatch_uid="leaderboards.game_rules")
        # and each ranked game's analysis, in the transaction that stores it: the accuracy rule of fair play
        game_analysed.connect(accuracy_on_game_analysed, dispatch_uid="leaderboards.accuracy")
        # each change of a race's game is told to its entrants as counts, and its last end ends the race
        game_moved.connect(race_on_game_moved, dispatch_uid="leaderboards.tournaments.race")
        sequence_register(PURPOSE, tournament_sequence_step)
        collector_register(RecheckCollector())
