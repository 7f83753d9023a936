"""Tournaments and daily boards followed live (Server-Sent Events): joins, standings as games finish, results as
they land on a board. Each event says what changed, in the terms the standings or the board show it."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers

from pyramid_site.api.output import PRESET_CHOICES, PlayerRefOutput
from pyramid_site.api.params import date_value
from pyramid_site.api.schema import ERROR
from pyramid_site.api.visitors import VisitorReadable
from pyramid_site.live.schema import LAST_EVENT_ID, EventOutput, event_union, stream_response
from pyramid_site.live.sse import EventStreamView

from ..live import board_channel, tournament_channel
from ..selectors.boards import daily_board_for
from ..selectors.clubs import standings_for_viewer
from .boards import DAILY_PRESET, DATE


class TournamentEventOutput(EventOutput):
    tournament = serializers.IntegerField()
    player = PlayerRefOutput()


class JoinedEventOutput(TournamentEventOutput):
    """A player joined the tournament."""

    type = serializers.ChoiceField(choices=["joined"])


class LeftEventOutput(TournamentEventOutput):
    """A player withdrew before the start."""

    type = serializers.ChoiceField(choices=["left"])


class StandingEventOutput(TournamentEventOutput):
    """A player's standing changed (a game of theirs finished and counts, or they joined): as the standings show
    it, without its rank (read the standings for the order)."""

    type = serializers.ChoiceField(choices=["standing"])
    score = serializers.IntegerField(help_text="match (par scoring) or arena points; 0 under plain scoring")
    games = serializers.IntegerField(help_text="finished games that count")
    cleared = serializers.IntegerField()
    cards_left = serializers.IntegerField()
    moves = serializers.IntegerField()
    seconds = serializers.FloatField()
    streak = serializers.IntegerField()


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


TOURNAMENT_EVENT = event_union("TournamentEvent", {"joined": JoinedEventOutput, "left": LeftEventOutput,
                                                   "standing": StandingEventOutput})
BOARD_EVENT = event_union("DailyBoardEvent", {"result": BoardResultEventOutput})


class TournamentEventsView(EventStreamView):
    """Follow a tournament live: who joins or withdraws, and each standing as a finished game counts on it; for
    whoever may read its live standings (the club's members and the entrants; everyone who sees the club once it
    is over). Open the stream first, then read the standings."""

    permission_classes, throttle_classes = VisitorReadable.permission_classes, VisitorReadable.throttle_classes

    def channel(self, request, tournament_id: int) -> str:
        standings_for_viewer(tournament_id=tournament_id, viewer=request.user)
        return tournament_channel(tournament_id)

    @extend_schema(parameters=[LAST_EVENT_ID],
                   responses={**stream_response(TOURNAMENT_EVENT, "The tournament's changes."), 403: ERROR,
                              404: ERROR, 429: ERROR},
                   summary="Follow a tournament live: joins and standings (Server-Sent Events)")
    async def get(self, request, tournament_id: int):
        raise NotImplementedError  # served by EventStreamView.stream; this method carries the schema


class DailyBoardEventsView(EventStreamView):
    """Follow a daily deal's board live: each result as it lands (results held off the board, voided or flagged,
    never appear). Open the stream first, then read the board."""

    permission_classes, throttle_classes = VisitorReadable.permission_classes, VisitorReadable.throttle_classes

    def channel(self, request, date: str, preset: str) -> str:
        day = date_value(date)
        daily_board_for(date=day, preset=preset, viewer=request.user, limit=1, around=0, club_id=None)
        return board_channel(day, preset)

    @extend_schema(parameters=[DATE, DAILY_PRESET, LAST_EVENT_ID],
                   responses={**stream_response(BOARD_EVENT, "Results landing on the board."), 400: ERROR,
                              404: ERROR, 429: ERROR},
                   summary="Follow a daily board live: results as they land (Server-Sent Events)")
    async def get(self, request, date: str, preset: str):
        raise NotImplementedError  # served by EventStreamView.stream; this method carries the schema
