"""Reads of the game service that are more than a filter."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import cache

from django.db import connection
from django.db.models import Count, DurationField, ExpressionWrapper, F, Min, Q
from django.utils import timezone
from django.utils.translation import gettext

import engine
from engine.solver.analysis import Analysis, Costly, unpack
from pyramid_site.db import prepared_cursor
from pyramid_site.errors import Code, DomainError
from pyramid_site.solver_budget import SolverPayer, refuse_when_spent

from .daily import commitment  # the daily check (daily_verification)
from .engine_glue import start_position
from .errors import game_not_found
from .models import DailyDeal, Deal, Game, GameAnalysis
from .move_log import LoggedMove, log_moves, log_notations
from .secrecy import (
    daily_is_revealed,
    deal_number_is_secret,
    game_deal_is_public,
    game_hidden_from_its_player,
    game_is_visible,
    game_opens_at,
    games_visible_to_their_player,
)


def daily_deals_on(*, date: dt.date, user) -> list[DailyDeal]:
    """The daily deals of a day, each with ``my_game`` (the user's game of it, or None)."""
    dailies = list(DailyDeal.objects.filter(date=date).select_related("deal").order_by("preset"))
    games = {}
    if user is not None and user.is_authenticated:
        games = {g.daily_id: g for g in Game.objects.filter(player=user, daily__in=dailies, mode=Game.Mode.RANKED)}
    for daily in dailies:
        daily.my_game = games.get(daily.pk)
    return dailies


def daily_deal(*, date: dt.date, preset: str) -> DailyDeal:
    """The daily deal of a day and preset, with its deal; 404 when there is none."""
    daily = DailyDeal.objects.select_related("deal").filter(date=date, preset=preset).first()
    if daily is None:
        raise DomainError(
            Code.DAILY_NOT_FOUND,
            gettext("there is no %(preset)s daily deal on %(date)s") % {"preset": preset, "date": date},
        )
    return daily


def daily_verification(*, date: dt.date, preset: str) -> dict:
    """A daily deal checked against the commitment published before its day (a ``DailyVerifyOutput``): before
    the day is over only the commitment and a message; after it the salt and the deal, whether SHA-256 of
    ``deal_text|salt`` is the commitment, whether the number deals that text, and a shell command to check it."""
    daily = daily_deal(date=date, preset=preset)
    found = {
        "date": daily.date,
        "preset": daily.preset,
        "commitment": daily.commitment,
        "revealed": daily_is_revealed(daily),
    }
    if not found["revealed"]:
        return found | {"message": "the salt and the deal are shown when the day is over (UTC)"}
    deal_text = daily.deal.text
    return found | {
        "salt": daily.salt,
        "number": daily.deal.number,
        "number_text": str(daily.deal.number),
        "deal_text": deal_text,
        "commitment_matches": commitment(deal_text, daily.salt) == daily.commitment,
        "number_gives_text": engine.deal_from_number(daily.deal.number).text == deal_text,
        "check": f"printf '%s' '{deal_text}|{daily.salt}' | sha256sum",
    }


def practice_deal(*, number: int, rules: engine.Rules) -> Deal | None:
    """The stored deal of this number under these rules (None when nobody has asked for it to be solved);
    404 while the number is secret."""
    if deal_number_is_secret(number):
        raise DomainError(Code.DEAL_NOT_FOUND, gettext("there is no practice deal %(number)s") % {"number": number})
    return Deal.objects.filter(number=number, rules=rules.to_text()).first()


def window_is_over(game: Game) -> bool:
    """A ranked game's window (its day, its tournament) has ended: it takes no move from then on. (What it
    shows is for ``secrecy`` to say.)"""
    return game.closes_at is not None and game.closes_at <= timezone.now()


GAMES_OF_PLAYER_ORDER = ["-started_at", "-id"]  # the latest started first; unique, for a cursor


def games_of_player(*, player):
    """A player's games, the latest started first (a queryset, for a page of it), but a practice game of a
    number that is secret now (``secrecy``)."""
    return (
        Game.objects.filter(games_visible_to_their_player(), player=player)
        .select_related("deal", "daily")
        .order_by(*GAMES_OF_PLAYER_ORDER)
    )


def game_for_viewer(*, game_id: int, user) -> Game:
    if user is not None and user.is_authenticated:
        try:
            return game_of_player(game_id=game_id, player=user)
        except DomainError as exc:
            if exc.code is not Code.GAME_NOT_FOUND:
                raise
    game = Game.objects.select_related("deal", "daily").filter(pk=game_id).first()
    if game is None or not game_is_visible(game, user):
        raise DomainError(
            Code.GAME_NOT_FOUND, gettext("there is no game %(game_id)s that you may see") % {"game_id": game_id}
        )
    return game


def game_of_player(*, game_id: int, player) -> Game:
    """A game of the player's, with its deal and daily deal."""
    if connection.vendor == "postgresql":
        game = _game_of_player_row(game_id, player.pk)
    else:
        game = Game.objects.select_related("deal", "daily").filter(pk=game_id, player=player).first()
    if game is None or game_hidden_from_its_player(game):
        raise game_not_found(game_id)
    return game


_JOINED = ((Game, "g"), (Deal, "d"), (DailyDeal, "y"))


@cache
def _game_of_player_sql() -> str:
    columns = ", ".join(
        f'{alias}."{field.column}"' for model, alias in _JOINED for field in model._meta.concrete_fields
    )
    return (
        f"SELECT {columns} FROM {Game._meta.db_table} g"
        f" JOIN {Deal._meta.db_table} d ON d.id = g.deal_id"
        f" LEFT JOIN {DailyDeal._meta.db_table} y ON y.id = g.daily_id"
        " WHERE g.id = %s AND g.player_id = %s"
    )


@cache
def _row_layout() -> list[tuple[type, int, int, list]]:
    """For each model of the row: where its columns are, and the conversions its fields ask for (the
    deal number's field shifts it back from its signed column; PostgreSQL's own values need none)."""
    layout, start = [], 0
    for model, _ in _JOINED:
        fields = model._meta.concrete_fields
        converters = [(i, field.from_db_value) for i, field in enumerate(fields) if hasattr(field, "from_db_value")]
        layout.append((model, start, start + len(fields), converters))
        start += len(fields)
    return layout


def _game_of_player_row(game_id: int, player_id: int) -> Game | None:
    """What ``select_related("deal", "daily").filter(pk=..., player=...).first()`` gives, from SQL
    written once per process: building that query anew was about a third of a move's CPU time."""
    with prepared_cursor() as cursor:
        cursor.execute(_game_of_player_sql(), [game_id, player_id])
        row = cursor.fetchone()
    if row is None:
        return None
    instances = []
    for model, start, end, converters in _row_layout():
        values = list(row[start:end])
        if values[0] is None:  # a game without a daily deal (the left join)
            instances.append(None)
            continue
        for i, convert in converters:
            values[i] = convert(values[i], None, connection)
        instances.append(model.from_db(connection.alias, None, values))
    game, deal, daily = instances
    Game.deal.field.set_cached_value(game, deal)
    Game.daily.field.set_cached_value(game, daily)
    return game


@dataclass(frozen=True)
class MoveLog:
    """A game's moves in order, each with the server's time (``MoveLogOutput``)."""

    game: int
    status: str
    moves: list[LoggedMove]

    @property
    def log(self) -> str:
        """The whole line in one string, the moves separated by spaces."""
        return " ".join(move.notation for move in self.moves)


def game_log(*, game_id: int, user) -> MoveLog:
    """A game's move log, to whoever may see the game (``secrecy.game_is_visible``)."""
    game = game_for_viewer(game_id=game_id, user=user)
    return MoveLog(game.pk, game.status, log_moves(game.move_log, started_at=game.started_at))


def game_notations(game: Game) -> list[str]:
    """A game's moves in notation, in order."""
    return log_notations(game.move_log)


def analysis_open(game: Game) -> None:
    """An analysis shows the whole game's best play: it waits for the game's end, and a ranked game's for the
    end of its day or tournament (before it, it would give the deal away to those still playing)."""
    if game.mode == Game.Mode.RANKED and not game_deal_is_public(game):
        opens_at = game_opens_at(game)
        opens = (
            gettext("the analysis of a ranked game opens when its day is over, at %(time)s")
            if game.daily_id
            else gettext("the analysis of a ranked game opens when its tournament is over, at %(time)s")
        )
        raise DomainError(Code.NOT_YET, opens % {"time": opens_at.isoformat()}, opens_at=opens_at.isoformat())
    if not game.is_over:
        raise DomainError(
            Code.NOT_YET, gettext("the game is still being played: its analysis comes when it ends"), opens_at=None
        )


@dataclass(frozen=True)
class AnalysisPly:
    """The solver's answer for one position of a game: ply 0 the start, ply k after move k (``move``)."""

    ply: int
    move: str | None
    verdict: str
    best_cards_left: int | None
    moves_to_win: int | None
    best_move: str | None


@dataclass(frozen=True)
class GameAnalysisReport:
    """A finished game's analysis as it is answered (``GameAnalysisOutput``): ``pending`` with nothing else while
    the solver works."""

    game: int
    status: str
    plies: list[AnalysisPly]
    lost_at: int | None
    keep_move: str | None
    costly: list[Costly]
    seconds: float | None

    @property
    def pending(self) -> bool:
        return self.status == "pending"


def analysis_report(game: Game, analysis: GameAnalysis | None, moves: list[str]) -> GameAnalysisReport:
    """The report of a game's stored analysis (None: not made yet) over its moves."""
    if analysis is None:
        return GameAnalysisReport(game.pk, "pending", [], None, None, [], None)
    found = Analysis(moves, unpack(bytes(analysis.plies)))
    plies = [
        AnalysisPly(
            ply,
            moves[ply - 1] if ply else None,
            answer.verdict,
            answer.best_cards_left,
            answer.moves_to_win,
            answer.best_move,
        )
        for ply, answer in enumerate(found.plies)
    ]
    return GameAnalysisReport(
        game.pk, "ready", plies, found.lost_at, found.keep_move, found.costly, round(analysis.seconds, 3)
    )


def game_analysis(*, game_id: int, user, payer: SolverPayer | None = None) -> GameAnalysisReport:
    """A finished game's analysis (pending while it is computed), to whoever may see its log, once
    ``analysis_open`` allows. A practice game's analysis not made yet waits while the payer's solver budget is
    spent (429): the caller would queue it."""
    game = game_for_viewer(game_id=game_id, user=user)
    analysis_open(game)
    analysis = GameAnalysis.objects.filter(game=game).first()
    if analysis is None and game.mode == Game.Mode.PRACTICE:
        refuse_when_spent(payer)
    return analysis_report(game, analysis, game_notations(game))


def replay_positions(*, game_id: int, user) -> tuple[Game, list[str], list[engine.Position]]:
    """A finished game's moves and the position after each (the start first), on the analysis' terms."""
    game = game_for_viewer(game_id=game_id, user=user)
    analysis_open(game)
    moves = game_notations(game)
    current = start_position(game.deal)
    positions = [current.copy()]
    for notation in moves:
        current.apply(notation)
        positions.append(current.copy())
    return game, moves, positions


# a game whose 28 pyramid cards are gone: its state's pyramid mask (the first field of Position.dumps, in
# hexadecimal without leading zeros) is 0 whatever the goal; under goal: all the game may go on after it
PYRAMID_CLEARED = Q(state__startswith="0.")


def practice_figures(*, player_id: int) -> list[dict]:
    """A player's finished practice games (won, stuck or resigned; not those still being played) per preset
    (``custom`` for any other rule set), in one grouped query: ``played``, ``won``, ``cleared`` (the
    pyramid gone), ``best_moves`` and ``best_duration`` (the fewest moves and the shortest time from start
    to finish of a won game; None without one)."""
    won = Q(status=Game.Status.WON)
    duration = ExpressionWrapper(F("finished_at") - F("started_at"), output_field=DurationField())
    return list(
        Game.objects.filter(player_id=player_id, mode=Game.Mode.PRACTICE)
        .exclude(status=Game.Status.PLAYING)
        .values(preset=F("deal__preset"))
        .annotate(
            played=Count("id"),
            won=Count("id", filter=won),
            cleared=Count("id", filter=PYRAMID_CLEARED),
            best_moves=Min("moves", filter=won),
            best_duration=Min(duration, filter=won),
        )
        .order_by("preset")
    )
