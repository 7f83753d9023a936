"""Tournament standings: an entry is recomputed from its player's results, under a row lock, every
time one of them changes (a game finishes, a game or player is voided or restored)."""

from __future__ import annotations

from django.db import transaction

from ..models import Entry, Result, Tournament
from ..scoring import arena_tally, unplayed


def counting_results(tournament: Tournament, player_id: int) -> list[tuple[int, Result]]:
    """(deal index, result) of the player's games that count: ranked, not voided, started in the
    window and finished before its end."""
    index_of = dict(tournament.deals.values_list("deal_id", "index"))
    results = Result.objects.filter(
        player_id=player_id, deal_id__in=list(index_of), voided=False,
        started_at__gte=tournament.starts_at, started_at__lt=tournament.ends_at, finished_at__lte=tournament.ends_at,
    )
    return sorted((index_of[r.deal_id], r) for r in results)


def entry_refresh(*, entry_id: int) -> Entry:
    with transaction.atomic():
        entry = Entry.objects.select_for_update().select_related("tournament").get(pk=entry_id)
        tournament = entry.tournament
        counted = [r for _, r in counting_results(tournament, entry.player_id)]
        entry.games = len(counted)
        entry.cleared = sum(r.cleared for r in counted)
        entry.cards_left = sum(r.cards_left for r in counted)
        entry.moves = sum(r.moves for r in counted)
        entry.duration_ms = sum(r.duration_ms for r in counted)
        entry.score = 0
        entry.streak = 0
        if tournament.format == Tournament.Format.ARENA:
            tally = arena_tally([r.cleared for r in counted])
            entry.score, entry.streak = tally.score, tally.streak
        else:
            missing = tournament.deal_count - len(counted)
            blank = unplayed(tournament.rules)
            entry.cards_left += missing * blank.cards_left
            if tournament.scoring == Tournament.Scoring.PAR:
                entry.score = sum(r.match_score for r in counted) + missing * blank.match_score
        entry.save()
        return entry


def entries_refresh_for_result(result: Result) -> None:
    """Refresh the player's entries in every tournament played on this result's deal."""
    entry_ids = Entry.objects.filter(player_id=result.player_id, tournament__deals__deal_id=result.deal_id).values_list(
        "pk", flat=True)
    for entry_id in sorted(entry_ids):  # always in the same order, so two refreshes never deadlock
        entry_refresh(entry_id=entry_id)


def standings_rebuild(*, tournament_id: int) -> int:
    ids = list(Entry.objects.filter(tournament_id=tournament_id).order_by("pk").values_list("pk", flat=True))
    for entry_id in ids:
        entry_refresh(entry_id=entry_id)
    return len(ids)
