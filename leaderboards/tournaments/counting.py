"""Which results count in a tournament, one rule for the standings (``services.standings``) and for what a player
is shown of their own games (``selectors``): ranked games of its deals, not voided, started in its window
and finished by its end, and started after their player joined. The last keeps a game played before joining out
of a tournament on the daily deal, where anyone could otherwise play the day's deal first and join only if it
went well (docs/fair-play.md, "Tournaments nobody can bend")."""

from __future__ import annotations

from django.db.models import F, OuterRef, QuerySet, Subquery

from ..boards.models import Result
from .models import Entry, Tournament


def counting_results(tournament: Tournament) -> QuerySet[Result]:
    """The results that count in the tournament, of every entrant (an entrant's own: filter by player)."""
    joined_at = Entry.objects.filter(tournament=tournament, player_id=OuterRef("player_id")).values("joined_at")
    return (
        Result.objects.filter(
            deal_id__in=tournament.deals.values("deal_id"),
            voided=False,
            started_at__gte=tournament.starts_at,
            started_at__lt=tournament.ends_at,
            finished_at__lte=tournament.ends_at,
        )
        .annotate(entrant_joined_at=Subquery(joined_at[:1]))
        .filter(started_at__gte=F("entrant_joined_at"))
    )
