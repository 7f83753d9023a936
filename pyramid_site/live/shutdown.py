"""Clean shutdown of the streams: when the server is told to stop (SIGTERM, SIGINT), every open stream sends
``retry:`` and ends, so its client reconnects (to another process, or this one restarted) with its
``Last-Event-ID`` instead of hanging until the server's graceful timeout cuts it.

The ASGI server handles the signal itself; ``install`` (called at the ASGI lifespan's start, once the server's
handlers are in place) puts a handler in front that first tells the streams, then calls the server's."""

from __future__ import annotations

import asyncio
import signal
import threading
import weakref

_draining = threading.Event()
_events: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # event loop -> its asyncio.Event
_lock = threading.Lock()


def draining() -> asyncio.Event:
    """Set when the server is shutting down (for the running event loop)."""
    loop = asyncio.get_running_loop()
    with _lock:
        event = _events.get(loop)
        if event is None:
            event = _events[loop] = asyncio.Event()
            if _draining.is_set():
                event.set()
        return event


def begin() -> None:
    """Tell every stream of this process to end (from a signal handler or any thread)."""
    _draining.set()
    with _lock:
        events = list(_events.items())
    for loop, event in events:
        loop.call_soon_threadsafe(event.set)


def install(signals=(signal.SIGTERM, signal.SIGINT)) -> None:
    if threading.current_thread() is not threading.main_thread():
        return  # signals are only handled in the main thread: the server's own handlers stay as they are
    for number in signals:
        previous = signal.getsignal(number)
        if getattr(previous, "drains_streams", False):
            continue

        def handler(signum, frame, previous=previous):
            begin()
            if callable(previous):
                previous(signum, frame)
            elif previous == signal.SIG_DFL:
                signal.signal(signum, signal.SIG_DFL)
                signal.raise_signal(signum)

        handler.drains_streams = True  # type: ignore[attr-defined]
        signal.signal(number, handler)
