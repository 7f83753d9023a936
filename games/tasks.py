"""Celery tasks: a few lines each, taking IDs and calling a service; safe to run twice."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from pyramid_site.clock import utc_today
from pyramid_site.solver_budget import SolverBudgetSpent, SolverPayer

from . import services
from .models import Deal
from .services.daily import PURPOSE as DAILY
from .services.daily import daily_key


def _payer(account_id: int | None, address: str | None) -> SolverPayer | None:
    """Who a task's solver work is charged to; None for the service's own work."""
    return None if account_id is None and address is None else SolverPayer(account_id, address)


# a solve may be queued inside the transaction that makes its deal (a request sent with an Idempotency-Key runs in
# one): a worker quicker than that commit finds no deal yet, and looks again a moment later
@shared_task(acks_late=True, autoretry_for=(Deal.DoesNotExist,), max_retries=5, retry_backoff=1)
def solve_deal(deal_id: int, account_id: int | None = None, address: str | None = None) -> str:
    try:
        return services.deal_solve(deal_id=deal_id, payer=_payer(account_id, address)).status
    except SolverBudgetSpent:  # spent since it was queued: the deal waits for the next request with room
        cache.delete(f"solve-queued:{deal_id}")
        return "deferred: the solver budget of whoever asked is spent"


def solve_deal_soon(deal_id: int, *, payer: SolverPayer | None = None) -> None:
    """Queue a solve, paid by ``payer``, unless one was queued lately: a deal asked for again and again is
    solved once."""
    if cache.add(f"solve-queued:{deal_id}", True, timeout=settings.PYRAMID_SOLVE_BUDGET_SECONDS * 2 + 60):
        solve_deal.apply_async((deal_id, *(payer.task_args() if payer else ())), queue=settings.PYRAMID_SOLVER_QUEUE)


@shared_task(acks_late=True)
def settle_sequence(purpose: str, key: str) -> str:
    """Settle a proven deal sequence: solve its next candidate in a task of its own, then look again."""
    candidate = services.sequence_step(purpose=purpose, key=key)
    if candidate is None:
        return "settled"
    queue = settings.PYRAMID_DAILY_QUEUE if purpose == DAILY else settings.PYRAMID_SOLVER_QUEUE
    (solve_deal.si(candidate.pk).set(queue=queue) | settle_sequence.si(purpose, key)).delay()
    return f"solving candidate deal {candidate.pk}"


@shared_task(acks_late=True)
def analyse_game(game_id: int, account_id: int | None = None, address: str | None = None) -> str:
    try:
        analysis = services.game_analyse(game_id=game_id, payer=_payer(account_id, address))
    except SolverBudgetSpent:  # a practice game's: it waits until its player asks for it with room in the budget
        cache.delete(f"analysis-queued:{game_id}")
        return "deferred: the solver budget of whoever caused it is spent"
    return "not over" if analysis is None else f"{len(analysis.plies) // 6} plies"


def analyse_game_soon(game_id: int, *, payer: SolverPayer | None = None) -> None:
    """Queue a game's analysis, paid by ``payer``, unless it was queued lately: asking again and again queues
    it once."""
    if cache.add(f"analysis-queued:{game_id}", True, timeout=settings.PYRAMID_ANALYSIS_GAME_SECONDS * 2 + 60):
        analyse_game.apply_async((game_id, *(payer.task_args() if payer else ())), queue=settings.PYRAMID_SOLVER_QUEUE)


def analysis_on_game_finished(sender, *, game, payer: SolverPayer | None = None, **kwargs) -> None:
    """The receiver of ``signals.game_finished``: the analysis is queued once the game's end is stored, paid by
    whoever ended it (the player alone when the server closed it)."""
    payer = payer or SolverPayer(game.player_id)
    transaction.on_commit(lambda: analyse_game_soon(game.pk, payer=payer))


@shared_task
def prepare_daily_deals() -> int:
    """Beat job: keep the daily deals of the coming days ready for every featured preset."""
    slots = services.daily_slots_open(today=utc_today())
    for date, preset in slots:
        settle_sequence.delay(DAILY, daily_key(date, preset))
    return len(slots)


@shared_task
def fill_practice_pools() -> int:
    """Beat job (on the solver's queue): keep proved practice deals of every difficulty ready."""
    return services.practice_pools_fill(seconds_per_pool=settings.PYRAMID_PRACTICE_FILL_SECONDS)


@shared_task
def close_expired_games() -> int:
    """Beat job (every minute): close the ranked games still playing whose day or tournament is over."""
    return services.games_close_expired()
