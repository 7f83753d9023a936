"""My game followed live (Server-Sent Events): another tab or device sees each move as it lands."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers

from pyramid_site.api.error_schema import errors
from pyramid_site.errors import Code
from pyramid_site.live.schema import LAST_EVENT_ID, STREAM_CODES, EventOutput, event_union, stream_response
from pyramid_site.live.sse import EventStreamView

from .. import selectors
from ..live import game_channel
from .serializers import GAME_STATUSES


class GameEventOutput(EventOutput):
    game = serializers.IntegerField()
    moves = serializers.IntegerField(help_text="moves played")
    cards_left = serializers.IntegerField()
    status = serializers.ChoiceField(choices=GAME_STATUSES)
    game_version = serializers.IntegerField(help_text="the game's `version` after the change")


class GameMoveEventOutput(GameEventOutput):
    """A move landed."""

    type = serializers.ChoiceField(choices=["move"])
    ply = serializers.IntegerField(help_text="the move's number (the game's `moves` after it)")
    move = serializers.CharField(help_text="in the notation of docs/rules.md")


class GameUndoEventOutput(GameEventOutput):
    """The last move was taken back (practice games)."""

    type = serializers.ChoiceField(choices=["undo"])


class GameOverEventOutput(GameEventOutput):
    """The game ended otherwise than by a move: resigned, or closed as it stood at its window's end."""

    type = serializers.ChoiceField(choices=["over"])


GAME_EVENT = event_union(
    "GameEvent", {"move": GameMoveEventOutput, "undo": GameUndoEventOutput, "over": GameOverEventOutput}
)


class GameEventsView(EventStreamView):
    """Follow one of my games as it is played, from any tab or device: each move, undo and end once it is stored.
    Open the stream first, then read the game: a change in between arrives on the stream (`game_version` tells
    which ones the game read already has)."""

    def channel(self, request, game_id: int) -> str:
        selectors.game_of_player(game_id=game_id, player=request.user)  # mine alone: anybody else's is a 404
        return game_channel(game_id)

    @extend_schema(
        parameters=[LAST_EVENT_ID],
        responses={**stream_response(GAME_EVENT, "My game's changes."), **errors(Code.GAME_NOT_FOUND, *STREAM_CODES)},
        summary="Follow my game live: each move, undo and end (Server-Sent Events)",
    )
    async def get(self, request, game_id: int):
        raise NotImplementedError  # served by EventStreamView.stream; this method carries the schema
