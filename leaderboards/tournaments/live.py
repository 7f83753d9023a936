"""Live updates of tournaments (``tournament:<id>``: who joined or left, each standing as a finished game lands on
it). Only what the standings show their readers: names and counts, never a card. The payloads are documented by
``leaderboards.tournaments.api.events``."""

from __future__ import annotations

from pyramid_site.live import publish_after_commit

from ..boards.live import player_payload
from .models import Entry


def tournament_channel(tournament_id: int) -> str:
    return f"tournament:{tournament_id}"


def entry_joined(entry: Entry) -> None:
    publish_after_commit(
        tournament_channel(entry.tournament_id),
        {"type": "joined", "tournament": entry.tournament_id, "player": player_payload(entry.player)},
    )


def entry_left(tournament_id: int, player) -> None:
    publish_after_commit(
        tournament_channel(tournament_id),
        {"type": "left", "tournament": tournament_id, "player": player_payload(player)},
    )


def standing_changed(entry: Entry) -> None:
    """The entry's standing as the standings show it, once refreshed (a finished game counted, or a join)."""
    publish_after_commit(
        tournament_channel(entry.tournament_id),
        {
            "type": "standing",
            "tournament": entry.tournament_id,
            "player": player_payload(entry.player),
            "score": entry.score,
            "games": entry.games,
            "cleared": entry.cleared,
            "cards_left": entry.cards_left,
            "moves": entry.moves,
            "seconds": entry.duration_ms / 1000,
            "streak": entry.streak,
        },
    )
