"""Deals: created when a player asks for one to be solved (or a sequence tries it), solved once
(compare-and-swap, so two solvers never fight); every solve ends in a verdict, or in ``unknown`` with
the failure recorded, never in ``pending`` for ever."""

from __future__ import annotations

import datetime as dt
import logging

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Max, Q
from django.utils import timezone
from django.utils.translation import gettext

import engine
from engine.solver import UNKNOWN, Solution, solve
from pyramid_site.errors import Code, DomainError
from pyramid_site.solver_budget import SolverPayer, refuse_when_spent, spending

from ..engine_glue import start_position
from ..models import SOLVE_BUCKETS, Deal, Game, SolveHour
from ..secrecy import deal_number_is_secret

log = logging.getLogger(__name__)


def deal_get_or_create(*, number: int, rules: engine.Rules, secret_until: dt.datetime | None = None) -> Deal:
    """The deal's row, made now if needed; with ``secret_until``, kept secret until then at least (a sequence's
    candidate). A new row takes the secrecy its number has under other rule sets (``secrecy``)."""
    deal, made = Deal.objects.get_or_create(
        number=number,
        rules=rules.to_text(),
        defaults={
            "preset": rules.name,
            "text": engine.deal_from_number(number).text,
            "secret_until": _latest(secret_until, _number_secret_until(number)),
        },
    )
    if secret_until is not None and (deal.secret_until is None or deal.secret_until < secret_until):
        deal_keep_secret(deal_id=deal.pk, until=secret_until)
        deal.refresh_from_db(fields=["secret_until"])
    elif made and deal.secret_until is not None:
        deal_keep_secret(deal_id=deal.pk, until=deal.secret_until)  # its number's other rows, if any lag behind
    return deal


def _number_secret_until(number: int) -> dt.datetime | None:
    return Deal.objects.filter(number=number).aggregate(until=Max("secret_until"))["until"]


def _latest(*moments: dt.datetime | None) -> dt.datetime | None:
    given = [moment for moment in moments if moment is not None]
    return max(given) if given else None


def deal_solve_request(*, number: int, rules: engine.Rules, payer: SolverPayer | None = None) -> Deal:
    """A player asks for a practice deal to be solved: its row, made now if needed (the caller queues
    the solve, paid by ``payer``). Refused, as if it did not exist, while its number is secret; refused (429)
    while the payer's solver budget is spent, unless the deal needs no solve."""
    if deal_number_is_secret(number):
        raise DomainError(Code.DEAL_NOT_FOUND, gettext("there is no practice deal %(number)s") % {"number": number})
    known = Deal.objects.filter(number=number, rules=rules.to_text()).first()
    if known is None or known.status == Deal.Status.PENDING:
        refuse_when_spent(payer)
    return known or deal_get_or_create(number=number, rules=rules)


def deal_keep_secret(*, deal_id: int, until: dt.datetime) -> None:
    """Keep the deal's number secret, under every rule set (every row of the number), until ``until`` at least:
    secrecy only ever moves later."""
    number = Deal.objects.filter(pk=deal_id).values_list("number", flat=True).first()
    if number is not None:
        deal_numbers_keep_secret(numbers=[number], until=until)


def deal_numbers_keep_secret(*, numbers: list[int], until: dt.datetime) -> int:
    """The same for many numbers at once (a moved window's candidates); how many rows moved."""
    return Deal.objects.filter(Q(secret_until__isnull=True) | Q(secret_until__lt=until), number__in=numbers).update(
        secret_until=until
    )


def deal_window_end_early(*, deal_id: int, window_end: dt.datetime, at: dt.datetime) -> int:
    """A window that kept the deal secret until ``window_end`` ended early, at ``at`` (a race whose every game
    finished: nothing of it can be played any more): the rows of its number that this window alone kept secret
    (``secret_until`` is still exactly its end; a later window's keeps them) are secret until ``at``, and its ranked
    games, every one finished, close then. Called in the caller's transaction, which holds the window's row."""
    number = Deal.objects.filter(pk=deal_id).values_list("number", flat=True).first()
    if number is None or not at < window_end:
        return 0
    games = Game.objects.filter(deal_id=deal_id, mode=Game.Mode.RANKED)
    if games.filter(status=Game.Status.PLAYING).exists():
        return 0  # a game still playing keeps the whole window: its deal would be open while it plays
    Game.objects.filter(
        deal_id=deal_id, mode=Game.Mode.RANKED, daily__isnull=True, closes_at=window_end, finished_at__lte=at
    ).exclude(status=Game.Status.PLAYING).update(closes_at=at)
    return Deal.objects.filter(number=number, secret_until=window_end).update(secret_until=at)


def _solution(deal: Deal, budget: float) -> tuple[Solution, str]:
    try:
        return solve(start_position(deal), budget_seconds=budget), ""
    except Exception as exc:  # recorded on the deal: a deal never stays pending for ever
        log.exception("solving deal %s failed", deal.pk)
        return Solution(UNKNOWN, None, None, None), f"{type(exc).__name__}: {exc}"[:2000]


def deal_solve(
    *, deal_id: int, budget_seconds: float | None = None, force: bool = False, payer: SolverPayer | None = None
) -> Deal:
    """Solve a pending deal (or, with ``force``, one whose verdict is unknown) and store the result.

    The solver runs outside any transaction; the write only lands if the row is still in the state
    it was read in, so a deal solved twice at once keeps the first verdict. A player's solve is paid by
    ``payer``, and refused (``SolverBudgetSpent``, the deal left pending) while its budget is spent.
    """
    deal = Deal.objects.get(pk=deal_id)
    solvable = {Deal.Status.PENDING, Deal.Status.UNKNOWN} if force else {Deal.Status.PENDING}
    if deal.status not in solvable:
        return deal
    budget = settings.PYRAMID_SOLVE_BUDGET_SECONDS if budget_seconds is None else budget_seconds
    with spending(payer, in_request=False):
        solution, failure = _solution(deal, budget)
    with transaction.atomic():
        stored = _verdict_store(deal, solution, failure)
        if stored and solution.seconds is not None:
            solve_count(at=timezone.now(), seconds=solution.seconds)
    deal.refresh_from_db()
    return deal


def solve_count(*, at: dt.datetime, seconds: float) -> None:
    """Count one solve in its hour's bucket (``SolveHour``, what /metrics reads). Two at once: the second insert
    meets the unique constraint and adds to the row the first made."""
    hour = at.replace(minute=0, second=0, microsecond=0)
    bucket = next((index for index, bound in enumerate(SOLVE_BUCKETS) if seconds <= bound), len(SOLVE_BUCKETS))
    counted = SolveHour.objects.filter(hour=hour, bucket=bucket)
    if counted.update(solves=F("solves") + 1, seconds=F("seconds") + seconds):
        return
    try:
        with transaction.atomic():
            SolveHour.objects.create(hour=hour, bucket=bucket, solves=1, seconds=seconds)
    except IntegrityError:
        counted.update(solves=F("solves") + 1, seconds=F("seconds") + seconds)


def _verdict_store(deal: Deal, solution: Solution, failure: str) -> int:
    return Deal.objects.filter(pk=deal.pk, status=deal.status).update(
        failure=failure,
        status=solution.verdict,
        par_moves=solution.par_moves,
        best_cards_left=solution.best_cards_left,
        best_moves=solution.best_moves,
        solution=" ".join(solution.solution),
        difficulty=solution.difficulty,
        solve_seconds=solution.seconds,
        solve_nodes=solution.nodes,
        solved_at=timezone.now(),
    )
