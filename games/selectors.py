"""Reads of the game service that are more than a filter."""

from __future__ import annotations

import datetime as dt

from .daily import utc_today
from .errors import NotFound, game_not_found
from .models import DailyDeal, Deal, Game, Move


def daily_deals_on(*, date: dt.date, user) -> list[DailyDeal]:
    """The daily deals of a day, each with ``my_game`` (the user's game of it, or None)."""
    dailies = list(DailyDeal.objects.filter(date=date).select_related("deal").order_by("preset"))
    games = {}
    if user is not None and user.is_authenticated:
        games = {g.daily_id: g for g in Game.objects.filter(player=user, daily__in=dailies, mode=Game.Mode.RANKED)}
    for daily in dailies:
        daily.my_game = games.get(daily.pk)
    return dailies


def daily_is_over(daily: DailyDeal | None) -> bool:
    return daily is not None and daily.date < utc_today()


def deal_is_public(deal: Deal) -> bool:
    """A deal chosen for a day that is not over stays secret: its number gives away the stock."""
    return not deal.daily_deals.filter(date__gte=utc_today()).exists()


def game_of_player(*, game_id: int, player) -> Game:
    game = Game.objects.select_related("deal", "daily").filter(pk=game_id, player=player).first()
    if game is None:
        raise game_not_found(game_id)
    return game


def game_log(*, game_id: int, user) -> tuple[Game, list[Move]]:
    """A game's move log: anyone's practice game, a daily game once its day is over, and always
    one's own."""
    game = Game.objects.select_related("deal", "daily").filter(pk=game_id).first()
    # a ranked game outside the daily deals is a tournament game: its log would give the deal away
    if game is None or not (game.player_id == user.pk or game.mode == Game.Mode.PRACTICE
                            or daily_is_over(game.daily)):
        raise NotFound(f"there is no game {game_id} whose log you may see", code="game_not_found")
    return game, list(game.log.order_by("ply"))
