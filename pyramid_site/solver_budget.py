"""Solver work nobody can hoard: everything that runs the solver for a player (hints, the practice verdict,
the replay's best line, a practice draw that has to search, a solve asked for, a game's analysis) is paid
from two budgets of solver seconds over a sliding window (``sliding_window``): the account's and the client
address's. A logged-in request pays from both, so guests and new accounts made from one address share that
address's budget, and an account that changes address keeps its own. Work is let start while both budgets
have room, and what it took is charged after: the CPU seconds of the thread that did it (measured, so a
loaded machine charges nobody more), in milliseconds. A spent budget is 429 ``throttled`` with
``retry_after_seconds``, before any search starts.

A budget bounds what a client takes over the window, not how many of its searches run at once: a few at
once would hold every web worker while the budget is being spent. So a search run inside a request (a
hint, a verdict, a best line, a practice draw) also takes one of a few slots per account and per address
(``PYRAMID_SOLVER_AT_ONCE_PER_ACCOUNT``, ``..._PER_ADDRESS``), held in the shared cache for no longer than
such a search may take; with none free it is 429 ``throttled`` too, at once.

Work that runs in a Celery task is paid by whoever caused it: the task is given the payer's account and
address (``SolverPayer.task_args``). Work of the service's own (daily and tournament deals, the practice
pools, an operator's command) has no payer and is not counted.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from rest_framework.exceptions import Throttled

from .client import client_address
from .errors import Code, DomainError
from .sliding_window import SlidingWindow


def cpu_seconds() -> float:
    """What solver work is measured with (a test may set it): this thread's CPU time. The compiled solver lets
    go of the GIL but searches on the thread that called it."""
    return time.thread_time()


@dataclass(frozen=True, slots=True)
class SolverPayer:
    """Who pays for a piece of solver work: the account, and the address it asked from (None when no request
    caused it: a ranked game closed by the server at the end of its window is paid by its player alone)."""

    account_id: int | None
    address: str | None = None

    @classmethod
    def of_request(cls, request) -> SolverPayer:
        user = getattr(request, "user", None)
        account_id = user.pk if user is not None and user.is_authenticated else None
        return cls(account_id, client_address(request))

    def task_args(self) -> tuple[int | None, str | None]:
        """The payer as a task's arguments (ids and text: what a broker carries)."""
        return self.account_id, self.address


class _SolverRefusal(DomainError):
    """``throttled`` with ``retry_after_seconds`` (answered 429 with ``Retry-After``), in the words of every other
    throttle (DRF's, translated)."""

    def __init__(self, *, wait: float):
        wait = math.ceil(wait)
        super().__init__(Code.THROTTLED, str(Throttled(wait).detail), retry_after_seconds=wait)


class SolverBudgetSpent(_SolverRefusal):
    """The payer's account or address has spent its budget."""


class SolverBusy(_SolverRefusal):
    """The payer's searches at once are all running."""


def _window() -> SlidingWindow:
    return SlidingWindow("solver-ms", settings.PYRAMID_SOLVER_WINDOW_SECONDS)


def _budgets(payer: SolverPayer | None) -> list[tuple[str, float]]:
    """The payer's budgets that are on, as (counter, milliseconds); a budget of 0 seconds is off."""
    if payer is None:
        return []
    budgets = []
    if payer.account_id is not None and settings.PYRAMID_SOLVER_SECONDS_PER_ACCOUNT > 0:
        budgets.append((f"user:{payer.account_id}", settings.PYRAMID_SOLVER_SECONDS_PER_ACCOUNT * 1000))
    if payer.address and settings.PYRAMID_SOLVER_SECONDS_PER_ADDRESS > 0:
        budgets.append((f"ip:{payer.address}", settings.PYRAMID_SOLVER_SECONDS_PER_ADDRESS * 1000))
    return budgets


def seconds_until_room(payer: SolverPayer | None) -> float:
    """0 while every budget of the payer has room; otherwise how long until they all have."""
    budgets = _budgets(payer)
    if not budgets:
        return 0.0
    found = _window().estimates([counter for counter, _ in budgets])
    return max(found[counter].wait(limit) for counter, limit in budgets)


def refuse_when_spent(payer: SolverPayer | None) -> None:
    """Refuse (429) before any search starts when the payer's account or address has spent its budget."""
    wait = seconds_until_room(payer)
    if wait > 0:
        raise SolverBudgetSpent(wait=max(1, math.ceil(wait)))


def charge(payer: SolverPayer | None, seconds: float) -> None:
    """Count ``seconds`` of solver work against every budget of the payer."""
    budgets = _budgets(payer)
    if not budgets or seconds <= 0:
        return
    window, milliseconds = _window(), math.ceil(seconds * 1000)
    for counter, _ in budgets:
        window.add(counter, milliseconds)


def _slot_seconds() -> int:
    """How long a search inside a request may run (its slot is let go after this even if its process died)."""
    return math.ceil(max(settings.PYRAMID_HINT_BUDGET_SECONDS, settings.PYRAMID_PRACTICE_DRAW_SECONDS)) + 5


def _slot_sets(payer: SolverPayer) -> list[list[str]]:
    sets = []
    if payer.account_id is not None and settings.PYRAMID_SOLVER_AT_ONCE_PER_ACCOUNT > 0:
        sets.append(
            [
                f"solver-running:user:{payer.account_id}:{slot}"
                for slot in range(settings.PYRAMID_SOLVER_AT_ONCE_PER_ACCOUNT)
            ]
        )
    if payer.address and settings.PYRAMID_SOLVER_AT_ONCE_PER_ADDRESS > 0:
        sets.append(
            [f"solver-running:ip:{payer.address}:{slot}" for slot in range(settings.PYRAMID_SOLVER_AT_ONCE_PER_ADDRESS)]
        )
    return sets


def _take_slots(payer: SolverPayer) -> list[str]:
    """A free slot of the account's and of the address's, taken (``cache.add``: one process gets each); 429
    when either has none free."""
    taken: list[str] = []
    seconds = _slot_seconds()
    for keys in _slot_sets(payer):
        slot = next((key for key in keys if cache.add(key, True, timeout=seconds)), None)
        if slot is None and any(cache.get_many(keys).values()):  # all held (with the cache down none is)
            cache.delete_many(taken)
            raise SolverBusy(wait=min(seconds, math.ceil(settings.PYRAMID_HINT_BUDGET_SECONDS)))
        if slot is not None:
            taken.append(slot)
    return taken


@contextmanager
def spending(payer: SolverPayer | None, *, refuse: bool = True, in_request: bool = True) -> Iterator[None]:
    """Run the block's solver work for ``payer``: refused before it starts when a budget is spent (unless
    ``refuse`` is off: work that must be done whatever the budget) and, for a search inside a request, when
    the payer's searches at once are all running; charged what it took after (also when it fails)."""
    if payer is None:  # the service's own work
        yield
        return
    budgeted = bool(_budgets(payer))
    if refuse and budgeted:
        refuse_when_spent(payer)
    slots = _take_slots(payer) if in_request else []
    began = cpu_seconds() if budgeted else 0.0
    try:
        yield
    finally:
        cache.delete_many(slots)
        if budgeted:
            charge(payer, cpu_seconds() - began)
