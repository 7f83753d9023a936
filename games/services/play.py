"""Games: start, move, resign, undo and hint. A move is a compare-and-swap on the game's version;
resign and undo lock the game row. Either way the writes to one game are applied one at a time, and
a refused request writes nothing."""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

import engine
from engine.solver import Hint
from engine.solver import hint as solver_hint
from pyramid_site.client import ClientMark
from pyramid_site.clock import day_end, utc_today
from pyramid_site.db import prepared_cursor
from pyramid_site.errors import Code, DomainError
from pyramid_site.metrics import MOVES
from pyramid_site.solver_budget import SolverPayer, spending

from ..engine_glue import engine_deal, engine_rules, game_position, start_position
from ..errors import game_not_found
from ..live import game_changed
from ..models import DailyDeal, Deal, Game
from ..move_log import log_append, log_notations, log_without_last
from ..secrecy import deal_is_secret, deal_number_is_secret, game_hidden_from_its_player
from ..selectors import game_of_player, window_is_over
from ..signals import game_finished, game_moved
from ..words import refusal
from .deals import deal_get_or_create
from .practice import practice_pool_fill, proven_deal_draw


@dataclass(slots=True)
class MoveOutcome:
    game: Game
    position: engine.Position
    applied: bool  # False when the request repeated a move already in the log (a safe retry)


def game_over(game: Game) -> DomainError:
    return DomainError(
        Code.GAME_OVER, gettext("the game is over (%(status)s)") % {"status": game.status}, status=game.status
    )


def _new_game(
    *,
    player,
    deal: Deal,
    mode: str,
    daily: DailyDeal | None = None,
    closes_at: dt.datetime | None = None,
    client: ClientMark | None = None,
) -> Game:
    position = start_position(deal)
    now = timezone.now()
    client = client or ClientMark()
    return Game.objects.create(
        player=player,
        deal=deal,
        daily=daily,
        mode=mode,
        state=position.dumps(),
        cards_left=position.cards_left,
        status=position.status,
        started_at=now,
        finished_at=None if position.status == Game.Status.PLAYING else now,
        closes_at=closes_at,
        client_hash=client.address_hash,
        device_id=client.device_id,
    )


def game_start(
    *,
    player,
    daily_id: int | None = None,
    number: int | None = None,
    rules: str | None = None,
    winnable: bool = False,
    difficulty: int | None = None,
    payer: SolverPayer | None = None,
    client: ClientMark | None = None,
) -> Game:
    """A ranked game of one of today's daily deals, or a practice game of deal ``number`` (random
    when none is given) under ``rules`` (a preset name or rule-set text; ``classic`` by default); with
    ``winnable`` or a ``difficulty``, a random deal the solver has proved winnable (of that difficulty), the
    search for one when none is ready paid by ``payer``. ``client`` is kept with a ranked game, for fair play
    (a practice game keeps nothing of it)."""
    if daily_id is not None:
        daily = DailyDeal.objects.select_related("deal").filter(pk=daily_id).first()
        if daily is None or daily.date > utc_today():
            raise DomainError(
                Code.DAILY_NOT_FOUND, gettext("there is no daily deal %(daily_id)s open yet") % {"daily_id": daily_id}
            )
        if daily.date < utc_today():
            if deal_is_secret(daily.deal):  # another window still uses its number: the number is not given
                raise DomainError(Code.DAILY_OVER, gettext("the daily deal's day is over"))
            raise DomainError(
                Code.DAILY_OVER,
                gettext("the daily deal of %(date)s is over; practise it as deal %(number)s with rules %(preset)s")
                % {"date": daily.date, "number": daily.deal.number, "preset": daily.preset},
            )
        return ranked_game_start(
            player=player, deal=daily.deal, daily=daily, closes_at=day_end(daily.date), client=client
        )
    try:
        parsed_rules = engine.Rules.parse(rules or "classic")
    except engine.RulesError as exc:
        raise DomainError(Code.BAD_RULES, str(exc)) from None
    if winnable or difficulty is not None:
        deal = _proven_practice_deal(parsed_rules, difficulty, payer)
        with transaction.atomic():
            return _new_game(player=player, deal=deal, mode=Game.Mode.PRACTICE)
    if number is None:
        number = secrets.randbelow(2**64)
        while deal_number_is_secret(number):  # drawn again: a random deal is never a secret one
            number = secrets.randbelow(2**64)
    elif not 0 <= number < 2**64:
        raise DomainError(Code.BAD_DEAL_NUMBER, gettext("deal numbers run from 0 to 2**64 - 1"))
    elif deal_number_is_secret(number):  # a daily or tournament deal whose window is not over
        raise DomainError(Code.DEAL_NOT_FOUND, gettext("there is no practice deal %(number)s") % {"number": number})
    with transaction.atomic():
        deal = deal_get_or_create(number=number, rules=parsed_rules)
        return _new_game(player=player, deal=deal, mode=Game.Mode.PRACTICE)


def _proven_practice_deal(rules: engine.Rules, difficulty: int | None, payer: SolverPayer | None) -> Deal:
    """A proved deal from the pool; when it has none, random deals are solved here for a moment first, on the
    payer's solver budget (a draw from the pool costs nothing)."""
    deal = proven_deal_draw(rules=rules, difficulty=difficulty)
    if deal is None:
        with spending(payer):
            practice_pool_fill(rules=rules, seconds=settings.PYRAMID_PRACTICE_DRAW_SECONDS, difficulty=difficulty)
        deal = proven_deal_draw(rules=rules, difficulty=difficulty)
    if deal is None:
        if difficulty is None:
            missing = gettext(
                "no winnable deal under these rules is proved yet: the solver is looking for some, "
                "ask again in a minute"
            )
        else:
            missing = gettext(
                "no winnable deal of difficulty %(difficulty)s under these rules is proved yet: the "
                "solver is looking for some, ask again in a minute"
            ) % {"difficulty": difficulty}
        raise DomainError(Code.NO_DEAL_READY, missing)
    return deal


def ranked_game_start(
    *, player, deal: Deal, closes_at: dt.datetime, daily: DailyDeal | None = None, client: ClientMark | None = None
) -> Game:
    """A ranked game of ``deal`` (a daily deal's, or a tournament's), once per player and deal, that
    the server closes as it stands at ``closes_at`` (the end of its day or tournament)."""
    if closes_at <= timezone.now():  # the window ended between the request's checks and now
        raise (
            DomainError(Code.DAILY_OVER, gettext("the daily deal's day is over"))
            if daily
            else DomainError(Code.TOURNAMENT_OVER, gettext("the tournament is over"))
        )
    try:
        with transaction.atomic():
            return _new_game(
                player=player, deal=deal, daily=daily, mode=Game.Mode.RANKED, closes_at=closes_at, client=client
            )
    except IntegrityError:
        game = Game.objects.filter(player=player, deal=deal, mode=Game.Mode.RANKED).first()
        raise DomainError(
            Code.ALREADY_PLAYED,
            gettext("you have already played this daily deal")
            if daily
            else gettext("you have already played this deal"),
            game=game.pk if game else None,
        ) from None


def _finished(game: Game, position: engine.Position | None = None, payer: SolverPayer | None = None) -> None:
    """Announce a game's end (to the apps that score it, and to its analysis, paid by ``payer``), inside the
    caller's transaction."""
    game_finished.send(sender=Game, game=game, position=position, payer=payer)


def _changed(game: Game, kind: str, *, move: str | None = None) -> None:
    """Tell the game's followers (its own channel) and the apps above (``game_moved``) of a stored change."""
    game_changed(game, kind, move=move)
    if game.mode == Game.Mode.RANKED:  # only a ranked game can be a tournament's: a practice move costs nothing more
        game_moved.send(sender=Game, game=game, kind=kind)


def window_over(game: Game) -> DomainError:
    if game.daily_id:
        return DomainError(
            Code.DAILY_OVER,
            gettext("the daily deal of %(date)s is over: the game was closed as it stood at the end of its day")
            % {"date": game.daily.date},
            status=Game.Status.CLOSED,
        )
    return DomainError(
        Code.TOURNAMENT_OVER,
        gettext("the tournament is over: the game was closed as it stood at its end"),
        status=Game.Status.CLOSED,
    )


def game_close(*, game_id: int) -> Game | None:
    """Close a ranked game still playing when its window is over: it ends as it stands, at the end of
    its window, and is scored like any finished game. Safe to run twice, or late."""
    with transaction.atomic():
        game = Game.objects.select_for_update(of=("self",)).select_related("deal", "daily").filter(pk=game_id).first()
        if game is None or game.status != Game.Status.PLAYING or not window_is_over(game):
            return None
        game.status, game.finished_at = Game.Status.CLOSED, game.closes_at
        game.version += 1
        game.save(update_fields=["status", "finished_at", "version"])
        _finished(game)
        _changed(game, "over")
        return game


def games_close_expired(*, batch_size: int = 500) -> int:
    """Close every ranked game whose window is over; how many were closed."""
    ids = list(
        Game.objects.filter(status=Game.Status.PLAYING, closes_at__lte=timezone.now())
        .order_by("closes_at", "pk")
        .values_list("pk", flat=True)[:batch_size]
    )
    return sum(game_close(game_id=game_id) is not None for game_id in ids)


def _refuse_past_window(game: Game) -> None:
    """No move of a ranked game is taken once its window is over (its deal is public by then): the game is
    closed, if the closing job has not done it yet, and the request refused."""
    if window_is_over(game):
        game_close(game_id=game.pk)
        raise window_over(game)


def _locked_game(game_id: int, player) -> Game:
    game = Game.objects.select_for_update(of=("self",)).select_related("deal").filter(pk=game_id, player=player).first()
    if game is None or game_hidden_from_its_player(game):
        raise game_not_found(game_id)
    return game


def _store_position(game: Game, position: engine.Position) -> None:
    game.state = position.dumps()
    game.moves = position.moves
    game.cards_left = position.cards_left
    game.status = position.status
    game.finished_at = None if game.status == Game.Status.PLAYING else timezone.now()
    game.version += 1


def move_submit(*, game_id: int, player, ply: int, move: str, payer: SolverPayer | None = None) -> MoveOutcome:
    """Apply move number ``ply`` (1 for the first) if it is the next one and legal (a move that ends the game
    queues its analysis, paid by ``payer``).

    Sending again the move already recorded at ``ply`` returns the game as it is (a safe retry);
    any other ply is a conflict that names the ply expected. The write is a compare-and-swap on the
    game's version, so of two requests for the same ply exactly one lands.
    """
    try:
        parsed = engine.parse_move(move)
    except engine.NotationError as exc:
        raise DomainError(Code.BAD_NOTATION, str(exc)) from None
    notation = str(parsed)
    while True:
        game = game_of_player(game_id=game_id, player=player)
        retried = _already_played(game, ply, notation)
        if retried:
            return retried
        _refuse_past_window(game)
        position = game_position(game)
        try:
            position.apply(parsed)
        except engine.IllegalMove as exc:
            raise DomainError(Code.ILLEGAL_MOVE, refusal(exc.kind, exc.params, exc.reason), move=notation) from None
        read_version = game.version
        game.move_log = bytes(game.move_log) + log_append(
            game.move_log, started_at=game.started_at, move=parsed, at=timezone.now()
        )
        _store_position(game, position)
        if game.is_over:
            # the move that ends a game and its result on the boards land together, or neither does
            with transaction.atomic():
                written = _write_move(game, read_version)
                if written:
                    _finished(game, position, payer)
                    _changed(game, "move", move=notation)
        else:
            written = _write_move(game, read_version)
            if written:
                _changed(game, "move", move=notation)
        if written:
            MOVES.inc()
            return MoveOutcome(game, position, applied=True)
        # another request changed the game since it was read: judge this one again on the new state


def _already_played(game: Game, ply: int, notation: str) -> MoveOutcome | None:
    """The game unchanged when this exact move is already in the log at ``ply``; None when ``ply`` is
    the next move of a game still playing; otherwise the refusal."""
    expected = game.moves + 1
    if ply < expected:
        if log_notations(game.move_log)[ply - 1] == notation:
            return MoveOutcome(game, game_position(game), applied=False)
    if ply != expected:
        raise DomainError(
            Code.WRONG_PLY,
            gettext("move %(ply)s is not the next one: the next move is %(expected)s")
            % {"ply": ply, "expected": expected},
            expected_ply=expected,
        )
    if game.status == Game.Status.CLOSED:
        raise window_over(game)
    if game.is_over:
        raise game_over(game)
    return None


_MOVE_CAS_SQL = """
UPDATE games_game SET state = %s, moves = %s, cards_left = %s, status = %s, finished_at = %s, version = %s,
    move_log = %s
WHERE id = %s AND version = %s
"""


def _write_move(game: Game, read_version: int) -> bool:
    """Store the game's new position and move log, only if the game is still at ``read_version``."""
    if connection.vendor == "postgresql":
        with prepared_cursor() as cursor:  # the ORM's update would be parsed and planned anew every move
            cursor.execute(
                _MOVE_CAS_SQL,
                [
                    game.state,
                    game.moves,
                    game.cards_left,
                    game.status,
                    game.finished_at,
                    game.version,
                    game.move_log,
                    game.pk,
                    read_version,
                ],
            )
            return cursor.rowcount == 1
    return bool(
        Game.objects.filter(pk=game.pk, version=read_version).update(
            state=game.state,
            moves=game.moves,
            cards_left=game.cards_left,
            status=game.status,
            finished_at=game.finished_at,
            version=game.version,
            move_log=game.move_log,
        )
    )


def game_resign(*, game_id: int, player, payer: SolverPayer | None = None) -> Game:
    game = game_of_player(game_id=game_id, player=player)
    if game.is_over:
        raise window_over(game) if game.status == Game.Status.CLOSED else game_over(game)
    _refuse_past_window(game)
    with transaction.atomic():
        game = _locked_game(game_id, player)
        if game.status == Game.Status.CLOSED:
            raise window_over(game)
        if game.is_over:
            raise game_over(game)
        game.status = Game.Status.RESIGNED
        game.finished_at = timezone.now()
        game.version += 1
        game.save(update_fields=["status", "finished_at", "version"])
        _finished(game, payer=payer)
        _changed(game, "over")
        return game


def _practice_only(game: Game, what: str) -> None:
    if game.mode != Game.Mode.PRACTICE:
        refusal = {
            "undo": gettext("undo is for practice games only; ranked games are played without it"),
            "hint": gettext("hint is for practice games only; ranked games are played without it"),
        }[what]
        raise DomainError({"undo": Code.RANKED_NO_UNDO, "hint": Code.RANKED_NO_HINT}[what], refusal)


def game_undo(*, game_id: int, player) -> Game:
    """Take back the last move of a practice game (also out of a stuck position). The undo is not a
    move: the log loses its last move and the game's undo count goes up."""
    with transaction.atomic():
        game = _locked_game(game_id, player)
        _practice_only(game, "undo")
        if game.status in (Game.Status.WON, Game.Status.RESIGNED):
            raise game_over(game)
        if game.moves == 0:
            raise DomainError(Code.NOTHING_TO_UNDO, gettext("there is no move to take back"))
        game.move_log = log_without_last(game.move_log)
        replayed = engine.replay(
            engine_deal(game.deal.text), engine_rules(game.deal.rules), log_notations(game.move_log)
        )
        _store_position(game, replayed.position)
        game.undo_count += 1
        game.save(
            update_fields=["state", "moves", "cards_left", "status", "finished_at", "version", "undo_count", "move_log"]
        )
        _changed(game, "undo")
        return game


def game_hint(*, game_id: int, player, payer: SolverPayer | None = None) -> Hint:
    """The solver's advice for a practice game, on the payer's solver budget; counted on the game once per
    position the player is in (the game's ``version``): asked again there, say because its answer was lost on the
    way, it is answered again and not counted again."""
    game = game_of_player(game_id=game_id, player=player)
    _practice_only(game, "hint")
    if game.is_over:
        raise game_over(game)
    # the search runs outside any transaction; the count is one atomic increment, made once per version (the
    # condition is read again under the row's lock, so of two requests at once for one position one counts)
    with spending(payer):
        advice = solver_hint(game_position(game), budget_seconds=settings.PYRAMID_HINT_BUDGET_SECONDS)
    (
        Game.objects.filter(pk=game.pk)
        .exclude(hinted_version=game.version)
        .update(hint_count=F("hint_count") + 1, hinted_version=game.version)
    )
    return advice
