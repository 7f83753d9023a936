"""Live updates of the daily boards (``board:<date>:<preset>``: each result as it lands). Only what the boards show
their readers: names and counts, never a card. The payloads are documented by ``leaderboards.boards.api.events``."""

from __future__ import annotations

import datetime as dt

from pyramid_site.live import publish_after_commit

from .models import Result


def board_channel(date: dt.date, preset: str) -> str:
    return f"board:{date.isoformat()}:{preset}"


def player_payload(player) -> dict:
    """A player as an event names them (the API's player reference)."""
    return {"id": player.pk, "username": player.username}


def result_landed(result: Result, on_board: bool) -> None:
    """A daily result on its board (not one held off it: voided, or flagged until reviewed)."""
    if not on_board or result.date is None:
        return
    publish_after_commit(
        board_channel(result.date, result.preset),
        {
            "type": "result",
            "date": result.date.isoformat(),
            "preset": result.preset,
            "player": player_payload(result.player),
            "cards_left": result.cards_left,
            "moves": result.moves,
            "seconds": result.duration_ms / 1000,
            "won": result.won,
        },
    )
