"""Fair play's writes: an operator voids a game or a player, with a reason kept in a :class:`Void`
record, and every board and standing is recomputed without it (lifting the void brings it back);
a rule raises a :class:`Flag`, which holds the game's result off the boards the same way until an
operator reviews it (the review puts it back, unless the game is voided).

``Result.voided`` is the one switch of "off the boards": true while an active void covers the result or an
open flag holds it, so that every board, count and standing reads one column."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from games.models import Game
from pyramid_site.errors import Code, DomainError

from ..boards import cache
from ..boards.models import Result
from ..boards.services.board_counts import board_count_move, counted
from ..boards.services.period_standings import period_standings_follow
from ..tournaments.services.standings import entries_refresh_for_result
from .models import Flag, Void


def _reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise DomainError(Code.REASON_REQUIRED, gettext("say why: a void needs a reason, kept in the audit record"))
    return reason


def _apply(results, *, voided: bool) -> int:
    """Take these results off the boards (``voided``) or put them back, locked, and recompute what they feed."""
    changed = list(results.filter(voided=not voided).select_for_update().order_by("pk"))
    for result in changed:
        before = counted(result)
        Result.objects.filter(pk=result.pk).update(voided=voided)
        result.voided = voided
        board_count_move(before, counted(result))
        period_standings_follow(before, result)
        entries_refresh_for_result(result)
        cache.result_changed(result)
    return len(changed)


def _still_off_board(results):
    """Of these results, the ones an active void still covers or an open flag still holds."""
    active = Void.objects.filter(lifted_at__isnull=True)
    return results.filter(
        Q(game_id__in=active.filter(game__isnull=False).values("game_id"))
        | Q(player_id__in=active.filter(player__isnull=False).values("player_id"))
        | Q(game_id__in=Flag.objects.filter(reviewed_at__isnull=True).values("game_id"))
    )


def _record(void: Void, already_void: str) -> Void:
    """Save the audit record; one active void per game or player (a unique constraint)."""
    try:
        with transaction.atomic():
            void.save()
    except IntegrityError:
        raise DomainError(Code.ALREADY_VOID, already_void) from None
    return void


def game_void(*, game_id: int, reason: str, by=None) -> Void:
    reason = _reason(reason)
    with transaction.atomic():
        # the game's row first, as flag_raise does: the void's own reference to the game would otherwise take
        # it after the player's row, the inverse of a finishing move's order, and the two could deadlock
        found = Game.objects.select_for_update(of=("self",)).filter(pk=game_id).values_list("player_id", "mode").first()
        if found is None:
            raise DomainError(Code.GAME_NOT_FOUND, gettext("there is no game %(game_id)s") % {"game_id": game_id})
        player_id, mode = found
        if mode != Game.Mode.RANKED:
            raise DomainError(
                Code.NOT_RANKED,
                gettext("game %(game_id)s is a practice game: it is on no board, so there is nothing to void")
                % {"game_id": game_id},
            )
        # result_record takes the player's row lock before it looks for voids, so the game's
        # result is either already written (and voided here) or written later and sees this void
        get_user_model().objects.select_for_update().filter(pk=player_id).exists()
        void = _record(
            Void(game_id=game_id, reason=reason, voided_by=by), gettext("game %(id)s is already void") % {"id": game_id}
        )
        _apply(Result.objects.filter(game_id=game_id), voided=True)
        return void


def player_void(*, player_id: int, reason: str, by=None) -> Void:
    reason = _reason(reason)
    with transaction.atomic():
        # serialises with result_record, which takes the same lock before it looks for voids
        if not get_user_model().objects.select_for_update().filter(pk=player_id).exists():
            raise DomainError(
                Code.PLAYER_NOT_FOUND, gettext("there is no player %(player_id)s") % {"player_id": player_id}
            )
        void = _record(
            Void(player_id=player_id, reason=reason, voided_by=by),
            gettext("player %(id)s is already void") % {"id": player_id},
        )
        _apply(Result.objects.filter(player_id=player_id), voided=True)
        return void


def void_lift(*, void_id: int, reason: str, by=None) -> Void:
    """Restore what a void took away (unless another active void still covers it)."""
    reason = _reason(reason)
    with transaction.atomic():
        void = Void.objects.select_for_update().filter(pk=void_id).first()
        if void is None:
            raise DomainError(Code.VOID_NOT_FOUND, gettext("there is no void %(void_id)s") % {"void_id": void_id})
        if void.lifted_at is not None:
            raise DomainError(
                Code.ALREADY_LIFTED, gettext("void %(void_id)s was already lifted") % {"void_id": void_id}
            )
        void.lifted_at, void.lifted_by, void.lift_reason = timezone.now(), by, reason
        void.save(update_fields=["lifted_at", "lifted_by", "lift_reason"])
        covered = (
            Result.objects.filter(game_id=void.game_id)
            if void.game_id
            else Result.objects.filter(player_id=void.player_id)
        )
        _apply(covered.exclude(pk__in=_still_off_board(covered).values("pk")), voided=False)
        return void


def result_held_by_fair_play(sender, *, game: Game, **kwargs) -> bool:
    """The receiver of ``boards.signals.result_held``, asked as a ranked game's result is written: lock the
    player's row (it orders this against voids and flags, see ``_lock_player``), then look for an active void or an
    open flag, in statements of their own, whose snapshots see one committed while this one waited for the lock."""
    _lock_player(game.player_id)
    return (
        Void.objects.filter(Q(game_id=game.pk) | Q(player_id=game.player_id), lifted_at__isnull=True).exists()
        or Flag.objects.filter(game_id=game.pk, reviewed_at__isnull=True).exists()
    )


def _lock_player(player_id: int) -> None:
    """The player's row lock: result_record takes it before it looks for voids and open flags, so a result is
    either written already (and taken off here) or written later and sees what was recorded here."""
    get_user_model().objects.select_for_update().filter(pk=player_id).exists()


def flag_raise(*, game: Game, kind: str, detail: str) -> Flag | None:
    """A rule's finding: flag ``game`` and hold its result off every board until a review. None when the game
    has a flag of this kind already (one a kind per game, a unique constraint): safe to run twice."""
    with transaction.atomic():
        # the game's row, then its player's: the order of the game service's writes (a move or a resignation
        # that ends the game, then its result), which the flag's own reference to the game would otherwise invert
        Game.objects.select_for_update(of=("self",)).filter(pk=game.pk).exists()
        _lock_player(game.player_id)
        try:
            with transaction.atomic():
                flag, created = Flag.objects.get_or_create(game_id=game.pk, kind=kind, defaults={"detail": detail})
        except IntegrityError:  # a simultaneous run wrote it first
            return None
        if not created:
            return None
        _apply(Result.objects.filter(game_id=game.pk), voided=True)
        return flag


def flag_review(*, flag_id: int, note: str, by=None, void: bool = False) -> Flag:
    """An operator's verdict on a flag, kept with it. The result goes back on the boards (unless another open
    flag or a void covers it); with ``void``, the game is voided in the same transaction and stays off."""
    note = (note or "").strip()
    if not note:
        raise DomainError(Code.NOTE_REQUIRED, gettext("say what the review found: a note is kept in the audit record"))
    with transaction.atomic():
        flag = Flag.objects.select_for_update().filter(pk=flag_id).first()
        if flag is None:
            raise DomainError(Code.FLAG_NOT_FOUND, gettext("there is no flag %(flag_id)s") % {"flag_id": flag_id})
        if flag.reviewed_at is not None:
            raise DomainError(
                Code.ALREADY_REVIEWED, gettext("flag %(flag_id)s was already reviewed") % {"flag_id": flag_id}
            )
        if void and not Void.objects.filter(game_id=flag.game_id, lifted_at__isnull=True).exists():
            game_void(game_id=flag.game_id, reason=note, by=by)
        _lock_player(flag.game.player_id)
        flag.reviewed_at, flag.reviewed_by, flag.review_note = timezone.now(), by, note
        flag.save(update_fields=["reviewed_at", "reviewed_by", "review_note"])
        held = Result.objects.filter(game_id=flag.game_id)
        _apply(held.exclude(pk__in=_still_off_board(held).values("pk")), voided=False)
        return flag
