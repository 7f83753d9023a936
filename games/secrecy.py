"""The one rule for secrecy, asked by every read of a deal or a game.

A deal number is secret from the moment it becomes a candidate of a proven deal sequence (a daily deal's, a
tournament's) until every window that uses it has ended: ``Deal.secret_until``, kept on every row of the number
(one per rule set: the number alone gives every card away, under any rules), only ever moved later. A ranked
game's own window is its ``closes_at``; a window that moves moves its games with it. So:

- nobody sees a secret number, its text or its line: not as a practice deal, a solve, a random or proved draw;
- a ranked game is its player's alone (the number hidden from them too) until both its window and its deal's
  secrecy have ended, then anyone's to read;
- a practice game of a number that became secret after it was started (a practice draw that later turned
  candidate) is nobody's, its player's included, until the secrecy ends: its position, with undo and hints,
  would walk through the whole stock.
"""

from __future__ import annotations

import datetime as dt

from django.db.models import Q
from django.utils import timezone

from pyramid_site.clock import utc_today

from .models import DailyDeal, Deal, Game


def is_secret(secret_until: dt.datetime | None, *, now: dt.datetime | None = None) -> bool:
    """The rule itself: secret while its last window has not ended."""
    return secret_until is not None and secret_until > (now or timezone.now())


def public_deals(*, now: dt.datetime | None = None) -> Q:
    """The rule as a filter on deals (for the practice pools)."""
    return Q(secret_until__isnull=True) | Q(secret_until__lte=now or timezone.now())


def deal_is_secret(deal: Deal) -> bool:
    return is_secret(deal.secret_until)


def deal_number_is_secret(number: int) -> bool:
    """The rule for a number that may have no row under the rules asked for (every row of a number carries its
    secrecy, so any one row tells)."""
    return Deal.objects.filter(number=number, secret_until__gt=timezone.now()).exists()


def daily_is_revealed(daily: DailyDeal | None) -> bool:
    """A daily deal's number, text, line and salt are shown once its day is over and no other window still uses
    its number."""
    return daily is not None and daily.date < utc_today() and not deal_is_secret(daily.deal)


def game_opens_at(game: Game) -> dt.datetime | None:
    """When a ranked game's deal, log and analysis become public: the later of its window's end and its deal's
    secrecy (None for a practice game)."""
    if game.mode != Game.Mode.RANKED:
        return None
    ends = [moment for moment in (game.closes_at, game.deal.secret_until) if moment is not None]
    return max(ends) if ends else None


def game_deal_is_public(game: Game) -> bool:
    """Whether a game shows its deal: a practice game unless its number is secret, a ranked one once it opens."""
    if game.mode == Game.Mode.PRACTICE:
        return not deal_is_secret(game.deal)
    opens = game_opens_at(game)
    return opens is not None and not is_secret(opens)


def game_hidden_from_its_player(game: Game) -> bool:
    """A practice game whose number turned secret: answered as if it did not exist, to its player too."""
    return game.mode == Game.Mode.PRACTICE and deal_is_secret(game.deal)


def game_is_visible(game: Game, user) -> bool:
    """Who may read a game (the game, its log, its analysis and replay): its player, unless it is a practice game
    of a secret number; anyone else a ranked game once its deal is public. Anything else is answered 404."""
    if game.player_id == getattr(user, "pk", None):
        return not game_hidden_from_its_player(game)
    return game.mode == Game.Mode.RANKED and game_deal_is_public(game)


def games_visible_to_their_player(*, now: dt.datetime | None = None) -> Q:
    """The rule as a filter on a player's own games (their list): every game but a practice game of a secret number."""
    return ~Q(mode=Game.Mode.PRACTICE, deal__secret_until__gt=now or timezone.now())
