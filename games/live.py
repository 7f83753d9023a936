"""A game's live updates (``game:<id>``, followed by its player on other tabs and devices): each move, undo and end
once it is committed. The payloads are documented by ``games.api.events``."""

from __future__ import annotations

from pyramid_site.live import publish_after_commit

from .models import Game


def game_channel(game_id: int) -> str:
    return f"game:{game_id}"


def game_changed(game: Game, kind: str, *, move: str | None = None) -> None:
    """Publish ``move`` (with its notation), ``undo`` or ``over`` (resigned, or closed at its window's end) once
    the change is committed; ``game_version`` is the game's version after it, so a follower that read the game
    knows which events it has seen."""
    event = {
        "type": kind,
        "game": game.pk,
        "moves": game.moves,
        "cards_left": game.cards_left,
        "status": game.status,
        "game_version": game.version,
    }
    if move is not None:
        event["ply"], event["move"] = game.moves, move
    publish_after_commit(game_channel(game.pk), event)
