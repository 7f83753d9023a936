"""Clean shutdown of the streams: when the server is told to stop (SIGTERM, SIGINT), every open stream sends
``retry:`` and ends, so its client reconnects (to another process, or this one restarted) with its
``Last-Event-ID`` instead of hanging until the server's graceful timeout cuts it.

The ASGI server handles the signal itself; ``install`` (called at the ASGI lifespan's start, once the server's
handlers are in place) puts a handler in front that first tells the streams, then calls the server's."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable

_draining = threading.Event()
_wakers: list[Callable[[], None]] = []
_lock = threading.Lock()


def is_draining() -> bool:
    return _draining.is_set()


def when_draining(waker: Callable[[], None]) -> None:
    """Call ``waker`` (from any thread) when the server begins to stop: the bus wakes its waiting followers, which
    see ``is_draining`` and end, with no task of their own watching for it."""
    with _lock:
        _wakers.append(waker)


def begin() -> None:
    """Tell every stream of this process to end (from a signal handler or any thread)."""
    _draining.set()
    with _lock:
        wakers = list(_wakers)
    for waker in wakers:
        waker()


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
