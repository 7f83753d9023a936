"""Proven deal sequences: the deals nobody can compute without the server's secret, each proved
winnable by the solver before anyone plays it (the daily deals, and tournaments' deals).

A sequence is named by a purpose and a key (``daily`` and ``2026-12-01|classic``; ``tournament``
and ``17|0``). Its candidates are ``HMAC-SHA256(secret, "pyramid-PURPOSE|KEY|ATTEMPT")``, the first
8 bytes read big-endian, for attempt 0, 1, 2, ...; the first candidate the solver proves winnable
is the sequence's deal. Verdicts are written once and candidates come in a fixed order, so any
number of runs, interrupted or simultaneous, settle on the same deal.

Every candidate is secret from the moment it is made until the sequence's window ends (``secret_until``: the
day's end, the tournament's), the one it settles on until every window that uses it has: a proved candidate
waiting to be settled is no practice deal (``games.secrecy``).

Whoever owns a sequence (the daily deals here, tournaments in their app) registers a *step* for
its purpose: given a key, fix what is proved so far and return the next candidate still to be
solved, or None once nothing is left to solve. One Celery chain (``games.tasks.settle_sequence``)
and one in-process loop (``sequence_settle``) drive every step.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
from collections.abc import Callable
from dataclasses import dataclass

import engine

from ..models import Deal
from .deals import deal_get_or_create, deal_solve


def candidate_number(*, secret: str, purpose: str, key: str, attempt: int) -> int:
    message = f"pyramid-{purpose}|{key}|{attempt}".encode()
    return int.from_bytes(hmac.new(secret.encode(), message, hashlib.sha256).digest()[:8], "big")


def sequence_candidates(*, secret: str, purpose: str, key: str, attempts: int) -> list[int]:
    """A sequence's first ``attempts`` candidate numbers, in order."""
    return [candidate_number(secret=secret, purpose=purpose, key=key, attempt=attempt) for attempt in range(attempts)]


@dataclass(frozen=True, slots=True)
class Proven:
    deal: Deal
    attempt: int


def proven_deal(
    *, secret: str, purpose: str, key: str, rules: engine.Rules, max_attempts: int, secret_until: dt.datetime
) -> Proven | Deal | None:
    """The first candidate proved winnable; else the next candidate still to be solved (a pending
    deal); None when every allowed attempt was refused (unwinnable, or the solver's budget ran out).
    Each candidate looked at is kept secret until ``secret_until`` at least."""
    for attempt in range(max_attempts):
        deal = deal_get_or_create(
            number=candidate_number(secret=secret, purpose=purpose, key=key, attempt=attempt),
            rules=rules,
            secret_until=secret_until,
        )
        if deal.status == Deal.Status.PENDING:
            return deal
        if deal.status == Deal.Status.WINNABLE:
            return Proven(deal, attempt)
    return None


Step = Callable[[str], "Deal | None"]
_STEPS: dict[str, Step] = {}


def sequence_register(purpose: str, step: Step) -> None:
    """Called from an app's ``ready``: ``step(key)`` fixes what is proved and returns the next pending
    candidate, or None when the sequence is settled (or gave up)."""
    _STEPS[purpose] = step


def sequence_step(*, purpose: str, key: str) -> Deal | None:
    return _STEPS[purpose](key)


def sequence_settle(*, purpose: str, key: str, budget_seconds: float | None = None) -> None:
    """Solve candidates in this process until the sequence is settled (operators' commands, tests)."""
    while (candidate := sequence_step(purpose=purpose, key=key)) is not None:
        deal_solve(deal_id=candidate.pk, budget_seconds=budget_seconds)
