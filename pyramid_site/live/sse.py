"""Server-Sent Events endpoints: async Django views (DRF has no async views) that authenticate, check and throttle
like every other view of the API, then follow one channel of the bus for as long as the client stays.

A stream opens with ``retry:`` and the id it starts from (so a client that loses it before any event still resumes
from there), then sends each event as ``id:``, ``event:`` (the payload's ``type``) and ``data:`` (the JSON payload),
a comment every ``PYRAMID_LIVE_KEEPALIVE_SECONDS`` when nothing happens (proxies keep the connection, clients see
it alive), and ends with ``retry:`` when the server shuts down, the bus is out of reach or the client reads too
far behind its channel's events (``bus.Behind``): EventSource reconnects by itself, with ``Last-Event-ID``."""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Callable

import redis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.http import StreamingHttpResponse
from django.utils.translation import gettext
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.views import APIView

from pyramid_site.client import client_address
from pyramid_site.errors import Code, error_json

from .bus import Behind, Delivery, bus
from .slots import slots

log = logging.getLogger(__name__)

MEDIA_TYPE = "text/event-stream"
OUT_OF_REACH = (OSError, TimeoutError, redis.RedisError)


class EventStreamRenderer(BaseRenderer):
    """Lets a client ask for ``Accept: text/event-stream`` (what EventSource sends); the stream itself is written
    by ``EventStreamView``, and its refusals are JSON whatever the client accepts."""

    media_type = MEDIA_TYPE
    format = "event-stream"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return JSONRenderer().render(data)


LIVE_UNAVAILABLE_RETRY_SECONDS = 300  # a process that serves no streams now serves none in a minute either
STOPPED: list[Delivery] = []  # the bus's followers end when the server stops: what a stream reads then
FRAMED_KEPT = 4096
_framed: dict[int, tuple[Delivery, bytes]] = {}  # the deliveries written lately, by identity, with their text


def frame(delivery: Delivery) -> bytes:
    """The delivery as the stream writes it, in bytes: a stream's writes are bytes already, which Django's streaming
    response passes on as they are (text it would encode, looking up the response's charset, for every write)."""
    if delivery.event is None:
        return f"id: {delivery.id}\n\n".encode()
    framed = _framed.get(id(delivery))
    if framed is not None and framed[0] is delivery:
        return framed[1]  # the bus hands one delivery to every stream of its channel: written out once, not each time
    data = json.dumps(delivery.event, separators=(",", ":"), ensure_ascii=False)
    text = f"id: {delivery.id}\nevent: {delivery.event['type']}\ndata: {data}\n\n".encode()
    if len(_framed) >= FRAMED_KEPT:
        _framed.clear()
    _framed[id(delivery)] = (delivery, text)  # the delivery kept with its text: its id() is not reused meanwhile
    return text


class EventStreamView(APIView):
    """One channel followed as Server-Sent Events. A subclass says which channel a request may follow
    (``channel``: it reads and checks like any view, and raises as they do); its ``get`` carries the schema."""

    renderer_classes = [JSONRenderer, EventStreamRenderer]
    channel: Callable[..., str]  # (request, **the URL's arguments) -> the channel, or raises as views do

    @classmethod
    def as_view(cls, **initkwargs):
        async def view(request, *args, **kwargs):
            return await cls(**initkwargs).stream(request, **kwargs)

        # what DRF's URL tools and the schema generator read off a view
        view.cls = cls  # type: ignore[attr-defined]
        view.initkwargs = initkwargs  # type: ignore[attr-defined]
        view.csrf_exempt = True  # type: ignore[attr-defined]  # GET only: nothing to forge
        return view

    def _opened(self, request, kwargs):
        """Authentication, permissions, throttles and the channel's own checks, as any view runs them (sync);
        the request and its channel, or the refusal to answer."""
        self.args, self.kwargs = (), kwargs
        drf_request = self.initialize_request(request, **kwargs)
        self.request, self.headers = drf_request, self.default_response_headers
        try:
            if request.method != "GET":
                self.http_method_not_allowed(drf_request)
            self.initial(drf_request, **kwargs)
            return drf_request, self.channel(drf_request, **kwargs), None
        except Exception as exc:  # noqa: BLE001 - handed to the API's exception handler, as every view does
            drf_request.accepted_renderer, drf_request.accepted_media_type = JSONRenderer(), "application/json"
            response = self.finalize_response(drf_request, self.handle_exception(exc), **kwargs)
            response.render()
            return drf_request, None, response

    def _opened_then_released(self, request, kwargs):
        try:
            return self._opened(request, kwargs)
        finally:
            # a stream waits for hours: it holds no database connection meanwhile (its checks' thread, kept for
            # the request's whole life, would otherwise keep one open per stream)
            for connection in connections.all(initialized_only=True):
                if not connection.in_atomic_block:
                    connection.close()

    async def stream(self, request, **kwargs):
        drf_request, channel, refusal = await sync_to_async(self._opened_then_released)(request, kwargs)
        if refusal is not None:
            return refusal
        if not isinstance(request, ASGIRequest):
            # a WSGI worker would hold the stream in memory and never answer: the ASGI process serves streams
            return error_json(
                Code.LIVE_UNAVAILABLE,
                message=gettext("live streams are not served here; read the resource again from time to time instead"),
                headers={"Retry-After": str(LIVE_UNAVAILABLE_RETRY_SECONDS)},
            )
        caps = {f"address:{client_address(drf_request)}": settings.PYRAMID_LIVE_STREAMS_PER_ADDRESS}
        if drf_request.user.is_authenticated:
            caps[f"account:{drf_request.user.pk}"] = settings.PYRAMID_LIVE_STREAMS_PER_ACCOUNT
        token, lease = uuid.uuid4().hex, 2 * settings.PYRAMID_LIVE_KEEPALIVE_SECONDS + 5
        if not await slots().take(caps, token, lease):
            return error_json(
                Code.TOO_MANY_STREAMS,
                message=gettext("too many live streams open at once for this account or address; close one first"),
            )
        response = StreamingHttpResponse(
            _events(channel, request.headers.get("Last-Event-ID"), list(caps), token),
            content_type=f"{MEDIA_TYPE}; charset=utf-8",
        )
        response["Cache-Control"] = "no-cache"
        response["X-Accel-Buffering"] = "no"  # a buffering proxy (nginx) passes each event on at once
        return response


def _give_back_the_request_thread() -> None:
    """Under ASGI, Django runs a request's sync parts (its middleware, the stream's checks) on a thread of the
    request's own, kept until the request ends: hours, for a stream. Once the stream is under way nothing sync runs
    until its end, so the thread goes now (a fresh one is made for the end's sync work, as asgiref does for any
    context that has none). Measured in docs/benchmarks.md, "Live streams"; an asgiref without these names simply
    keeps the thread."""
    try:
        from asgiref.sync import SyncToAsync

        context = SyncToAsync.thread_sensitive_context.get(None)
        if context is None or getattr(context, "_executor", None) is not None:
            return  # no context of the request's own, or one whose executor its caller owns
        executor = SyncToAsync.context_to_thread_executor.pop(context, None)
    except (AttributeError, TypeError):
        return
    if executor is not None:
        executor.shutdown(wait=False)


async def _events(channel: str, last_id: str | None, keys: list[str], token: str):
    """The stream's writes; its mark among the open streams (``keys``, ``token``) is renewed by the process with
    every other stream's (``slots``) and given back at its end."""
    _give_back_the_request_thread()
    retry = f"retry: {settings.PYRAMID_LIVE_RETRY_MS}\n\n".encode()
    follow = bus().follow_batches(channel, last_id, settings.PYRAMID_LIVE_KEEPALIVE_SECONDS)
    try:
        yield retry
        while True:
            try:
                # the server stopping wakes the bus's waiting followers, which end: no watcher per stream or event
                batch = await anext(follow, STOPPED)
            except OUT_OF_REACH as exc:  # the bus out of reach: the client comes back in a moment
                log.warning("live stream %s ended: %s", channel, exc)
                yield b": the live updates are out of reach\n" + retry
                return
            except Behind:  # reading slower than the channel's events come: resumed from Redis, not held here
                yield b": this stream fell too far behind\n" + retry
                return
            if batch is STOPPED:
                yield b": the server is restarting\n" + retry
                return
            if batch is None:
                yield b": keep-alive\n\n"
                continue
            # what came since this stream's last write, in one write: a stream behind catches up at one write's cost
            yield b"".join(frame(delivery) for delivery in batch)
    finally:
        # a read cancelled twice (the server stopping) may still be running: it unwinds the generator on its own
        if not getattr(follow, "ag_running", False):
            await follow.aclose()
        try:
            await slots().give_back(keys, token)
        except OUT_OF_REACH:
            pass  # its lease runs out by itself
