"""Tournaments followed live (Server-Sent Events): joins, standings as games finish, and its start coming, come
and its end. Each event says what changed, in the terms the standings show it."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers

from pyramid_site.api.error_schema import errors
from pyramid_site.api.output import PlayerRefOutput, WireDateTimeField
from pyramid_site.api.visitors import VisitorReadable
from pyramid_site.errors import Code
from pyramid_site.live.schema import LAST_EVENT_ID, STREAM_CODES, EventOutput, event_union, stream_response
from pyramid_site.live.sse import EventStreamView

from ..live import tournament_channel
from ..selectors import standings_for_viewer


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


class ScheduleEventOutput(EventOutput):
    tournament = serializers.IntegerField()
    starts_at = WireDateTimeField()
    ends_at = WireDateTimeField()
    server_time = WireDateTimeField(help_text="the server's time as it sent the event")


class SoonEventOutput(ScheduleEventOutput):
    """The start is within `PYRAMID_TOURNAMENT_SOON_MINUTES` (15): count down to `starts_at` from `server_time`
    (the server's clock, not the device's). Sent once for each start: a start moved later gets its own."""

    type = serializers.ChoiceField(choices=["soon"])


class StartedEventOutput(ScheduleEventOutput):
    """The tournament has started: its games may be played until `ends_at`."""

    type = serializers.ChoiceField(choices=["started"])


class EndedEventOutput(EventOutput):
    """The tournament is over: read the standings, now final."""

    type = serializers.ChoiceField(choices=["ended"])
    tournament = serializers.IntegerField()
    ends_at = WireDateTimeField()


class RaceProgressEventOutput(TournamentEventOutput):
    """A race game changed (a move, or its end): counts only, never a card, the deal being secret until the race is
    over for everyone."""

    type = serializers.ChoiceField(choices=["race_progress"])
    cards_left = serializers.IntegerField()
    moves = serializers.IntegerField()
    state = serializers.ChoiceField(
        choices=["playing", "cleared", "stuck", "resigned", "closed"],
        help_text="cleared: won; stuck: no move left; closed: still playing when the race's end came",
    )
    seconds = serializers.FloatField(help_text="the race's clock at the change (from its start; at the game's end)")


class RaceRowOutput(serializers.Serializer):
    rank = serializers.IntegerField()
    player = PlayerRefOutput()
    games = serializers.IntegerField(help_text="1 when the player's game counts; 0 when none does")
    cards_left = serializers.IntegerField(help_text="a player with no game that counts has every card left")
    seconds = serializers.FloatField(help_text="the race's clock at the end of the player's game")

    class Meta:
        ref_name = "RaceRow"


class RaceMoveOutput(serializers.Serializer):
    ply = serializers.IntegerField(help_text="1 for the first move of the game")
    move = serializers.CharField(help_text="the move's notation (docs/rules.md)")
    cards = serializers.ListField(
        child=serializers.CharField(), help_text="the cards it took, as the deal text writes them (none for a draw)"
    )

    class Meta:
        ref_name = "RaceMove"


class RaceFinishOutput(serializers.Serializer):
    game = serializers.IntegerField(help_text="the winner's game, readable by anyone now")
    status = serializers.CharField(help_text="how the game ended (won, stuck, resigned, closed)")
    cards_left = serializers.IntegerField()
    moves = RaceMoveOutput(many=True, help_text="the game's last moves (up to 8), oldest first")

    class Meta:
        ref_name = "RaceFinish"


class RaceFinishedEventOutput(EventOutput):
    """The race is over for everyone (its end came, or every entrant's game is over): the top of its final
    standings (results held by fair play never count) and a short replay of the winner's finish, now that the deal
    is public. Sent once."""

    type = serializers.ChoiceField(choices=["race_finished"])
    tournament = serializers.IntegerField()
    finished_at = serializers.DateTimeField()
    standings = RaceRowOutput(many=True, help_text="the first rows of the final standings (up to 10)")
    finish = RaceFinishOutput(allow_null=True, help_text="null when nobody's game counts")


TOURNAMENT_EVENT = event_union(
    "TournamentEvent",
    {
        "joined": JoinedEventOutput,
        "left": LeftEventOutput,
        "standing": StandingEventOutput,
        "soon": SoonEventOutput,
        "started": StartedEventOutput,
        "ended": EndedEventOutput,
        "race_progress": RaceProgressEventOutput,
        "race_finished": RaceFinishedEventOutput,
    },
)


class TournamentEventsView(EventStreamView):
    """Follow a tournament live: who joins or withdraws, each standing as a finished game counts on it, its start
    coming (`soon`), come (`started`) and its end (`ended`) (a race: each game's progress as counts, and its end for
    everyone with the final top rows and the winner's finish); for
    whoever may read its live standings (the club's members and the entrants; everyone who sees the club once it
    is over). Open the stream first, then read the standings."""

    permission_classes, throttle_classes = VisitorReadable.permission_classes, VisitorReadable.throttle_classes

    def channel(self, request, tournament_id: int) -> str:
        standings_for_viewer(tournament_id=tournament_id, viewer=request.user)
        return tournament_channel(tournament_id)

    @extend_schema(
        parameters=[LAST_EVENT_ID],
        responses={
            **stream_response(TOURNAMENT_EVENT, "The tournament's changes."),
            **errors(Code.NOT_MEMBER, Code.TOURNAMENT_NOT_FOUND, *STREAM_CODES),
        },
        summary="Follow a tournament live: joins, standings, start and end (Server-Sent Events)",
    )
    async def get(self, request, tournament_id: int):
        raise NotImplementedError  # served by EventStreamView.stream; this method carries the schema
