"""Daily boards followed live (Server-Sent Events): results as they land on a board, in the terms the board shows
them."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers

from pyramid_site.api.error_schema import errors
from pyramid_site.api.output import PRESET_CHOICES, PlayerRefOutput
from pyramid_site.api.params import choice_value, date_value
from pyramid_site.api.visitors import VisitorReadable
from pyramid_site.errors import Code
from pyramid_site.live.schema import LAST_EVENT_ID, STREAM_CODES, EventOutput, event_union, stream_response
from pyramid_site.live.sse import EventStreamView

from ..live import board_channel
from ..selectors import boards
from .views import DAILY_PRESET, DAILY_PRESETS, DATE


class BoardResultEventOutput(EventOutput):
    """A finished ranked game landed on the board (read the board for the ranks)."""

    type = serializers.ChoiceField(choices=["result"])
    date = serializers.DateField()
    preset = serializers.ChoiceField(choices=PRESET_CHOICES[:-1])
    player = PlayerRefOutput()
    cards_left = serializers.IntegerField()
    moves = serializers.IntegerField()
    seconds = serializers.FloatField()
    won = serializers.BooleanField()


BOARD_EVENT = event_union("DailyBoardEvent", {"result": BoardResultEventOutput})


class DailyBoardEventsView(EventStreamView):
    """Follow a daily deal's board live: each result as it lands (results held off the board, voided or flagged,
    never appear). Open the stream first, then read the board."""

    permission_classes, throttle_classes = VisitorReadable.permission_classes, VisitorReadable.throttle_classes

    def channel(self, request, date: str, preset: str) -> str:
        day = date_value(date)
        boards.daily_board_for(
            date=day,
            preset=choice_value(preset, "preset", DAILY_PRESETS),
            viewer=request.user,
            limit=1,
            around=0,
            club_id=None,
        )
        return board_channel(day, preset)

    @extend_schema(
        parameters=[DATE, DAILY_PRESET, LAST_EVENT_ID],
        responses={
            **stream_response(BOARD_EVENT, "Results landing on the board."),
            **errors(Code.BAD_DATE, Code.BAD_PARAMETER, Code.DAILY_NOT_FOUND, *STREAM_CODES),
        },
        summary="Follow a daily board live: results as they land (Server-Sent Events)",
    )
    async def get(self, request, date: str, preset: str):
        raise NotImplementedError  # served by EventStreamView.stream; this method carries the schema
