"""The live streams in the OpenAPI schema: a ``text/event-stream`` answer whose events are a union of typed
payloads, told apart by ``type`` (each ``data:`` line of the stream is one of them, as JSON)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, PolymorphicProxySerializer
from rest_framework import serializers

from pyramid_site.errors import Code

from .sse import MEDIA_TYPE

LAST_EVENT_ID = OpenApiParameter(
    "Last-Event-ID",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="the `id` of the last event received: the stream resumes after it with nothing missed (or sends "
    "`reset` when it is too old); EventSource sends it by itself when it reconnects",
)


class EventOutput(serializers.Serializer):
    """What every event carries."""

    version = serializers.IntegerField(help_text="the payload's shape: raised by a change that may break a follower")


class ResetEventOutput(EventOutput):
    """The stream cannot resume from the `Last-Event-ID` sent (too old, or the events were lost): read the resource
    again, then follow on from this event."""

    type = serializers.ChoiceField(choices=["reset"])
    channel = serializers.CharField(help_text="the channel the stream follows")


def event_union(name: str, events: dict[str, type[serializers.Serializer]]) -> PolymorphicProxySerializer:
    return PolymorphicProxySerializer(
        component_name=name,
        serializers={**events, "reset": ResetEventOutput},
        resource_type_field_name="type",
        many=False,
    )


def stream_response(union: PolymorphicProxySerializer, description: str) -> dict:
    return {
        (200, MEDIA_TYPE): OpenApiResponse(
            union,
            description=f"{description} A stream of Server-Sent Events: each `data:` line one of these payloads "
            'as JSON, `event:` its `type`, `id:` where to resume from (docs/api.md, "Live updates").',
        )
    }


# the codes of every stream beside its own: too many open at once, or a server that serves no streams (WSGI)
STREAM_CODES = (Code.TOO_MANY_STREAMS, Code.LIVE_UNAVAILABLE)
