"""Deals: created on first use, solved once (compare-and-swap, so two solvers never fight)."""

from __future__ import annotations

from django.conf import settings
from django.utils import timezone

import engine
from engine.solver import solve

from ..engine_glue import start_position
from ..models import Deal


def deal_get_or_create(*, number: int, rules: engine.Rules) -> Deal:
    deal, _ = Deal.objects.get_or_create(
        number=number,
        rules=rules.to_text(),
        defaults={"preset": rules.name, "text": engine.deal_from_number(number).text},
    )
    return deal


def deal_solve(*, deal_id: int, budget_seconds: float | None = None, force: bool = False) -> Deal:
    """Solve a pending deal (or, with ``force``, one whose verdict is unknown) and store the result.

    The solver runs outside any transaction; the write only lands if the row is still in the state
    it was read in, so a deal solved twice at once keeps the first verdict.
    """
    deal = Deal.objects.get(pk=deal_id)
    solvable = {Deal.Status.PENDING, Deal.Status.UNKNOWN} if force else {Deal.Status.PENDING}
    if deal.status not in solvable:
        return deal
    budget = settings.PYRAMID_SOLVE_BUDGET_SECONDS if budget_seconds is None else budget_seconds
    solution = solve(start_position(deal), budget_seconds=budget)
    Deal.objects.filter(pk=deal.pk, status=deal.status).update(
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
    deal.refresh_from_db()
    return deal
