"""Live updates: events published once the change they tell of is committed, followed as Server-Sent Events
(docs/api.md, "Live updates"). The services call ``publish_after_commit``; the streams are served by
``pyramid_site.live.sse``."""

from __future__ import annotations

import logging

from django.db import transaction

from .bus import bus

log = logging.getLogger(__name__)

EVENT_VERSION = 1  # the payloads' shape: a change that may break a follower raises it


def player_channel(user_id: int) -> str:
    """A player's notifications (``GET /api/accounts/me/events/``): what concerns them, from any room."""
    return f"player:{user_id}"


def publish(channel: str, event: dict) -> str | None:
    """Append the event to its channel now; its id, or None when the bus is out of reach (logged: the change
    itself stands, and a follower sees it on its next read of the resource)."""
    try:
        return bus().publish(channel, {**event, "version": EVENT_VERSION})
    except Exception:  # a live update lost must never fail the write it tells of (logged)
        log.warning("live event on %s not published", channel, exc_info=True)
        return None


def publish_after_commit(channel: str, event: dict) -> None:
    """Publish the event once the caller's transaction commits (at once outside one); never if it rolls back."""
    transaction.on_commit(lambda: publish(channel, event))


def publish_many(events: list[tuple[str, dict]]) -> None:
    """Append each (channel, event) now, in as few round trips as the bus allows (a fan-out to many players);
    lost and logged together when the bus is out of reach, as ``publish``."""
    try:
        bus().publish_many([(channel, {**event, "version": EVENT_VERSION}) for channel, event in events])
    except Exception:  # as publish: the change stands
        log.warning("%d live events not published", len(events), exc_info=True)


def publish_many_after_commit(events: list[tuple[str, dict]]) -> None:
    if events:
        transaction.on_commit(lambda: publish_many(events))
