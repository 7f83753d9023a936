"""Tournament standings: an entry is recomputed from its player's results, under a row lock, every
time one of them changes (a game finishes, a game or player is voided or restored); a whole tournament's
entries are recomputed in one pass (``standings_rebuild``)."""

from __future__ import annotations

from django.db import connection, transaction
from django.utils import timezone

from ...boards.models import Result
from .. import live
from ..counting import counting_results
from ..models import Entry, Tournament
from ..scoring import arena_tally, unplayed

_STANDING_FIELDS = ["games", "cleared", "cards_left", "moves", "duration_ms", "score", "streak", "updated_at"]
_ENTRY_UPDATE_SQL = (
    f"UPDATE {Entry._meta.db_table} SET {', '.join(f'{f} = %s' for f in _STANDING_FIELDS)} WHERE id = %s"
)


def player_counting_results(tournament: Tournament, player_id: int) -> list[tuple[int, Result]]:
    """(deal index, result) of the player's games that count, in the order of the tournament's deals."""
    index_of = dict(tournament.deals.values_list("deal_id", "index"))
    return sorted(
        ((index_of[r.deal_id], r) for r in counting_results(tournament).filter(player_id=player_id)),
        key=lambda pair: (pair[0], pair[1].pk),
    )


def race_milliseconds(tournament: Tournament, at) -> int:
    """The time on a race's clock at ``at``."""
    return max(0, int((at - tournament.starts_at).total_seconds() * 1000))


def _standing(entry: Entry, tournament: Tournament, counted: list[Result]) -> None:
    """Set the entry's figures from the results that count, in the order of the tournament's deals."""
    entry.games = len(counted)
    entry.cleared = sum(r.cleared for r in counted)
    entry.cards_left = sum(r.cards_left for r in counted)
    entry.moves = sum(r.moves for r in counted)
    entry.duration_ms = sum(r.duration_ms for r in counted)
    entry.score = 0
    entry.streak = 0
    if tournament.format == Tournament.Format.RACE:
        # a race's clock is the race's: from its start, the same moment for everyone, to the game's end (a game
        # started late costs its player the time they lost)
        entry.duration_ms = sum(race_milliseconds(tournament, r.finished_at) for r in counted)
    if tournament.format == Tournament.Format.ARENA:
        tally = arena_tally([r.cleared for r in counted])
        entry.score, entry.streak = tally.score, tally.streak
    else:
        missing = tournament.deal_count - len(counted)
        blank = unplayed(tournament.rules)
        entry.cards_left += missing * blank.cards_left
        if tournament.scoring == Tournament.Scoring.PAR:
            entry.score = sum(r.match_score for r in counted) + missing * blank.match_score


def entry_refresh(*, entry_id: int) -> Entry:
    with transaction.atomic():
        # the entry's row alone: a game finishing holds its game's row here, and a move of the window holds the
        # tournament's while it moves every game, so waiting for the tournament here would deadlock with it
        entry = Entry.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=entry_id)
        _standing(entry, entry.tournament, [r for _, r in player_counting_results(entry.tournament, entry.player_id)])
        entry.save()
        live.standing_changed(entry)
        return entry


def entries_refresh_for_result(result: Result) -> None:
    """Refresh the player's entries in every tournament played on this result's deal."""
    entry_ids = Entry.objects.filter(player_id=result.player_id, tournament__deals__deal_id=result.deal_id).values_list(
        "pk", flat=True
    )
    for entry_id in sorted(entry_ids):  # always in the same order, so two refreshes never deadlock
        entry_refresh(entry_id=entry_id)


def entries_refresh_on_result_written(sender, *, result: Result, **kwargs) -> None:
    """The receiver of ``boards.signals.result_written``: a result's tournament standings follow it in its
    transaction."""
    entries_refresh_for_result(result)


def standings_rebuild(*, tournament_id: int) -> int:
    """Every entry of a tournament from the results, in one pass: its entries locked in id order (the order every
    refresh takes them in, so none deadlocks), the results that count read at once, the entries written at once."""
    with transaction.atomic():
        tournament = Tournament.objects.get(pk=tournament_id)
        entries = list(Entry.objects.select_for_update().filter(tournament=tournament).order_by("pk"))
        index_of = dict(tournament.deals.values_list("deal_id", "index"))
        by_player: dict[int, list[tuple[int, int, Result]]] = {}
        for result in counting_results(tournament).filter(player_id__in=[e.player_id for e in entries]):
            by_player.setdefault(result.player_id, []).append((index_of[result.deal_id], result.pk, result))
        now = timezone.now()
        for entry in entries:
            _standing(entry, tournament, [r for _, _, r in sorted(by_player.get(entry.player_id, []))])
            entry.updated_at = now
        # one statement sent for every entry at once (the ORM's bulk_update builds a CASE per column and row,
        # 12 s for 5,000 entries)
        with connection.cursor() as cursor:
            cursor.executemany(_ENTRY_UPDATE_SQL, [[getattr(e, f) for f in _STANDING_FIELDS] + [e.pk] for e in entries])
        return len(entries)
