"""The fair-play rules that read one ranked game as it ends (with the other games of its deal): the scouting
rule and the speed rule. Queued on commit by the game's end (``tasks.check_ranked_game``) and run again by the
daily re-check, which catches what a lost job missed; a game keeps one flag of a kind, so twice is harmless."""

from __future__ import annotations

from games.models import Game
from games.move_log import LoggedMove

from .models import Flag
from .scouting import scouting_check
from .speed import speed_check


def game_rules_check(*, game: Game, log: list[LoggedMove] | None = None) -> list[Flag]:
    """The flags these rules wrote for ``game`` (or, as a scout, for the better games of its deal)."""
    if game.mode != Game.Mode.RANKED:
        return []
    flags = [speed_check(game=game)] if game.is_over else []
    flags += scouting_check(game=game, log=log)
    return [flag for flag in flags if flag is not None]


def game_rules_check_by_id(*, game_id: int) -> int:
    game = Game.objects.select_related("deal").filter(pk=game_id).first()
    return len(game_rules_check(game=game)) if game is not None else 0
