"""The scouting rule of fair play (docs/fair-play.md, "Fair play"): a second account (a guest is one request away) draws
through a ranked deal's stock, or plays a little and stops; a local solver then gives the line, and the main
account plays it at par with a person's pauses. No rule on one game sees that; the two games together do.

A game *scouted* its deal when, with at least ``PYRAMID_FLAG_SCOUT_SHARE`` (three quarters) of the cards its
goal counts still there (21 of a pyramid's 28, 39 of the 52 under ``goal: all``), it had turned every stock card
over (the first pass through), or it stopped there (resigned, or abandoned: closed at its window's end; a game
left playing counts once it has walked the stock). A *better* game of the same deal by another account from the
same client address (its salted hash) or the same device id, which finished with fewer cards left after the
scout's last look (the move that completed the walk, or the last move of a game that stopped), gets a
``scouted`` flag naming both games. Addresses are shared (a household, an office, a mobile carrier), so the flag
is a question for an operator, never a penalty by itself; the device id links one browser only.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Q

from engine import parse_move
from games.engine_glue import start_position
from games.models import Game
from games.move_log import LoggedMove, log_moves

from .models import Flag
from .services import flag_raise

_STOPPED = (Game.Status.RESIGNED, Game.Status.CLOSED)


@dataclass(slots=True, frozen=True)
class Scouting:
    """How a game scouted its deal: the moment the knowledge was there, and the cards left then."""

    how: str  # "walked the stock", or how it stopped ("resigned", "closed")
    at: dt.datetime  # the move that completed the walk; for a game that stopped, its last move (or its start)
    cards_left: int


def scouting_of(game: Game, log: list[LoggedMove] | None = None) -> Scouting | None:
    """How ``game`` scouted its deal, or None when it did not (it paired too many cards first)."""
    if game.mode != Game.Mode.RANKED:
        return None
    log = log_moves(game.move_log, started_at=game.started_at) if log is None else log
    position, at = start_position(game.deal), game.started_at
    least = math.ceil(settings.PYRAMID_FLAG_SCOUT_SHARE * position.cards_left)
    for move in [*log, None]:
        if position.cards_left < least:
            break
        if position.pass_no > 1 or position.stock_count == 0:  # every stock card has been seen
            return Scouting("walked the stock", at, position.cards_left)
        if move is None:
            break
        position.apply(parse_move(move.notation))
        at = move.created_at
    if game.status in _STOPPED and game.cards_left >= least:
        return Scouting(game.status, log[-1].created_at if log else game.started_at, game.cards_left)
    return None


def _linked(game: Game):
    """The other accounts' ranked games of ``game``'s deal from its address or its device."""
    link = Q(pk__in=[])
    if game.client_hash:
        link |= Q(client_hash=game.client_hash)
    if game.device_id:
        link |= Q(device_id=game.device_id)
    return (
        Game.objects.filter(link, deal_id=game.deal_id, mode=Game.Mode.RANKED)
        .exclude(player_id=game.player_id)
        .select_related("deal")
        .order_by("pk")
    )


def _how_linked(scout: Game, better: Game) -> str:
    same = [
        name
        for name, field in (("address", "client_hash"), ("device", "device_id"))
        if getattr(scout, field) and getattr(scout, field) == getattr(better, field)
    ]
    return " and ".join(same)


def _pair(scout: Game, scouting: Scouting, better: Game) -> Flag | None:
    if better.status == Game.Status.PLAYING or better.finished_at <= scouting.at:
        return None
    if better.cards_left >= scout.cards_left:
        return None
    detail = (
        f"game {scout.pk} of player {scout.player_id} (same {_how_linked(scout, better)}) "
        f"{scouting.how} with {scouting.cards_left} cards left at {scouting.at.isoformat()}; this game, "
        f"finished after it at {better.finished_at.isoformat()}, left {better.cards_left} in {better.moves} "
        f"moves ({better.status})"
    )
    return flag_raise(game=better, kind=Flag.Kind.SCOUTED, detail=detail)


def scouting_check(*, game: Game, log: list[LoggedMove] | None = None) -> list[Flag]:
    """Pair ``game`` with its deal's linked games both ways (as the better game, and as the scout); the flags
    written. Safe to run twice: a game keeps one flag of a kind."""
    if game.mode != Game.Mode.RANKED or not (game.client_hash or game.device_id):
        return []
    flags = []
    own = scouting_of(game, log)
    for other in _linked(game):
        if game.is_over and game.cards_left < other.cards_left:
            scouted = scouting_of(other)
            if scouted is not None:
                flags.append(_pair(other, scouted, game))
        if own is not None:
            flags.append(_pair(game, own, other))
    return [flag for flag in flags if flag is not None]
