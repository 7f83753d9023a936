"""Practice deals the solver has proved winnable, drawn at random, of a difficulty when asked (1 to 5, the
solver's grading), and the pool they are drawn from kept filled."""

from __future__ import annotations

import secrets
import time

from django.conf import settings

import engine

from ..models import Deal
from ..secrecy import deal_number_is_secret, public_deals
from .deals import deal_get_or_create, deal_solve


def _proven(rules: engine.Rules, difficulty: int | None):
    found = Deal.objects.filter(public_deals(), rules=rules.to_text(), status=Deal.Status.WINNABLE)
    return found if difficulty is None else found.filter(difficulty=difficulty)


def proven_deal_draw(*, rules: engine.Rules, difficulty: int | None = None) -> Deal | None:
    """A proved winnable practice deal under ``rules``, picked at random (the first at or after a random
    number), never a number that is still a daily or tournament secret; None when the pool has none."""
    proven = _proven(rules, difficulty).order_by("number")
    for _ in range(3):
        pivot = secrets.randbelow(2**64)
        deal = proven.filter(number__gte=pivot).first() or proven.first()
        if deal is None:
            return None
        if not deal_number_is_secret(deal.number):
            return deal
    return None


def practice_pool_fill(*, rules: engine.Rules, seconds: float, difficulty: int | None = None) -> int:
    """Solve random practice deals under ``rules`` for about ``seconds`` (each within the time left), until one
    of ``difficulty`` is proved when one is asked for; how many were proved winnable. Every verdict is kept,
    so the pool grows for everyone."""
    ends, proved = time.monotonic() + seconds, 0
    while (left := ends - time.monotonic()) > 0:
        number = secrets.randbelow(2**64)
        if deal_number_is_secret(number):
            continue
        deal = deal_solve(deal_id=deal_get_or_create(number=number, rules=rules).pk, budget_seconds=max(left, 0.05))
        if deal.status == Deal.Status.WINNABLE:
            proved += 1
            if difficulty is not None and deal.difficulty == difficulty:
                break
    return proved


def practice_pools_fill(*, seconds_per_pool: float) -> int:
    """The beat job's work: for every featured preset and difficulty with fewer than
    ``PYRAMID_PRACTICE_POOL_SIZE`` proved deals, solve random deals for a while."""
    proved = 0
    for name in settings.PYRAMID_DAILY_PRESETS:
        rules = engine.preset(name)
        for difficulty in range(1, 6):
            if _proven(rules, difficulty).count() < settings.PYRAMID_PRACTICE_POOL_SIZE:
                proved += practice_pool_fill(rules=rules, seconds=seconds_per_pool, difficulty=difficulty)
    return proved
