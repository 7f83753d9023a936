"""My notifications: the tournaments of my clubs as their start comes and comes to pass, followed live
(``GET /api/accounts/me/events/``, Server-Sent Events) or read whole by a page that (re)loads
(``GET /api/accounts/me/notifications/``). Only what the club's tournament list shows its members: never a deal."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from pyramid_site.api.error_schema import errors
from pyramid_site.api.output import Computed, WireDateTimeField
from pyramid_site.live import player_channel
from pyramid_site.live.schema import LAST_EVENT_ID, STREAM_CODES, EventOutput, event_union, stream_response
from pyramid_site.live.sse import EventStreamView

from ..selectors import NOTIFICATIONS, my_notifications
from .output import TOURNAMENT_FORMATS

NOTIFICATION_KINDS = ["tournament_soon", "tournament_started"]


class TournamentNoticeFields(serializers.Serializer):
    tournament = serializers.IntegerField()
    name = serializers.CharField(help_text="the tournament's name")
    club = serializers.IntegerField()
    club_name = serializers.CharField()
    format = serializers.ChoiceField(choices=TOURNAMENT_FORMATS)
    starts_at = WireDateTimeField()
    ends_at = WireDateTimeField()


class TournamentNoticeEventOutput(EventOutput, TournamentNoticeFields):
    server_time = WireDateTimeField(help_text="the server's time as it sent the event")


class TournamentSoonEventOutput(TournamentNoticeEventOutput):
    """A tournament of one of my clubs starts within `PYRAMID_TOURNAMENT_SOON_MINUTES` (15): count down to
    `starts_at` from `server_time`."""

    type = serializers.ChoiceField(choices=["tournament_soon"])


class TournamentStartedEventOutput(TournamentNoticeEventOutput):
    """A tournament of one of my clubs has started."""

    type = serializers.ChoiceField(choices=["tournament_started"])


PLAYER_EVENT = event_union(
    "PlayerEvent",
    {"tournament_soon": TournamentSoonEventOutput, "tournament_started": TournamentStartedEventOutput},
)


class PlayerEventsView(EventStreamView):
    """Follow my notifications live: each tournament of my clubs as its start comes near and as it starts (sent to
    every member of the club at that moment). Open the stream first, then read `GET /api/accounts/me/notifications/`
    for what came before."""

    def channel(self, request) -> str:
        return player_channel(request.user.pk)

    @extend_schema(
        parameters=[LAST_EVENT_ID],
        responses={**stream_response(PLAYER_EVENT, "My notifications."), **errors(*STREAM_CODES)},
        summary="Follow my notifications live: tournaments of my clubs starting (Server-Sent Events)",
    )
    async def get(self, request):
        raise NotImplementedError  # served by EventStreamView.stream; this method carries the schema


class NotificationOutput(TournamentNoticeFields):
    kind = serializers.ChoiceField(
        choices=NOTIFICATION_KINDS, help_text="`tournament_soon` before its start, `tournament_started` after"
    )

    class Meta:
        ref_name = "Notification"


class NotificationsOutput(serializers.Serializer):
    results = NotificationOutput(
        many=True, help_text=f"the soonest start first, {NOTIFICATIONS} at most (no further pages)"
    )

    class Meta:
        ref_name = "Notifications"


def notification_output(tournament, now) -> Computed:
    return Computed(
        tournament,
        kind="tournament_soon" if now < tournament.starts_at else "tournament_started",
        tournament=tournament.pk,
        club=tournament.club_id,
        club_name=tournament.club.name,
    )


class NotificationsView(APIView):
    """What my notifications' bell shows now: the tournaments of my clubs that start within
    `PYRAMID_TOURNAMENT_SOON_MINUTES` (15) or are running, as the stream announced them. Polled with `ETag` and
    `If-None-Match` (304 while nothing changed); the server's time for a countdown is the answer's `Date`."""

    @extend_schema(responses={200: NotificationsOutput}, summary="My notifications: tournaments of my clubs starting")
    def get(self, request):
        now = timezone.now()
        rows = [notification_output(t, now) for t in my_notifications(viewer=request.user, now=now)]
        return Response(NotificationsOutput({"results": rows}).data)
