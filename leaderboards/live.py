"""Live updates of tournaments (``tournament:<id>``: who joined or left, each standing as a finished game lands on
it) and of daily boards (``board:<date>:<preset>``: each result as it lands). Only what the standings and the boards
show their readers: names and counts, never a card. The payloads are documented by ``leaderboards.api.events``."""

from __future__ import annotations

import datetime as dt

from pyramid_site.live import publish_after_commit

from .models import Entry, Result


def tournament_channel(tournament_id: int) -> str:
    return f"tournament:{tournament_id}"


def board_channel(date: dt.date, preset: str) -> str:
    return f"board:{date.isoformat()}:{preset}"


def _player(player) -> dict:
    return {"id": player.pk, "username": player.username}


def entry_joined(entry: Entry) -> None:
    publish_after_commit(tournament_channel(entry.tournament_id),
                         {"type": "joined", "tournament": entry.tournament_id, "player": _player(entry.player)})


def entry_left(tournament_id: int, player) -> None:
    publish_after_commit(tournament_channel(tournament_id),
                         {"type": "left", "tournament": tournament_id, "player": _player(player)})


def standing_changed(entry: Entry) -> None:
    """The entry's standing as the standings show it, once refreshed (a finished game counted, or a join)."""
    publish_after_commit(tournament_channel(entry.tournament_id), {
        "type": "standing", "tournament": entry.tournament_id, "player": _player(entry.player), "score": entry.score,
        "games": entry.games, "cleared": entry.cleared, "cards_left": entry.cards_left, "moves": entry.moves,
        "seconds": entry.duration_ms / 1000, "streak": entry.streak})


def result_landed(result: Result, on_board: bool) -> None:
    """A daily result on its board (not one held off it: voided, or flagged until reviewed)."""
    if not on_board or result.date is None:
        return
    publish_after_commit(board_channel(result.date, result.preset), {
        "type": "result", "date": result.date.isoformat(), "preset": result.preset,
        "player": _player(result.player), "cards_left": result.cards_left, "moves": result.moves,
        "seconds": result.duration_ms / 1000, "won": result.won})
