"""The compiled core's successors (``_successors``, a hook of the test build: conftest.py) against the Python
engine's legal moves, over the positions of the perft oracle (tests/engine/perft_oracle.json) and every position
CORE_DEPTH moves from them.

The core does not make one move at a time: each of its successors is a removal after the draws and redeals that
bring its cards up (``draws``), and a free king in the pyramid (or, under goal all, in the reserve) is its only
successor when there is one. So, at every position:
- each successor replays through the engine (its draws and redeals, then its removal, every move legal) to the
  very position the core made (pyramid, reserve, pile, pointer and pass);
- the removals it makes at once (no draw) are exactly the engine's legal removals, but for the king it takes
  first when one is free;
- after one draw (or redeal) it makes exactly the engine's removals that take a stock or waste card, unless a king
  tops a live stock (it goes at once; no line draws past it).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import Position, deal_from_number, preset
from engine.solver import fast

ORACLE = json.loads((Path(__file__).resolve().parents[1] / "engine" / "perft_oracle.json").read_text())
CORE_DEPTH = 3
MASKS = slice(9, 14)  # pyramid, reserve, pile masks, pointer, pass number of fast.core_args
TURNS = ("draw", "redeal")


def same(move) -> str:
    """A removal's text with its cards in one order (the core may name a pair the other way round)."""
    return "+".join(sorted(str(move).split("+")))


def turned(position: Position) -> Position | None:
    """The position after the one draw or redeal legal at it, or None."""
    turns = [move for move in position.legal_moves() if str(move) in TURNS]
    assert len(turns) <= 1
    return position.copy().apply(turns[0]) if turns else None


def check(core, position: Position) -> list[str]:
    where = f"{position.rules.name} {position.dumps()}"
    kids = core._successors(*fast.core_args(position), 2048)
    problems = []
    for code, draws, *fields in kids:
        at = position
        for _ in range(draws):
            at = turned(at)
            if at is None:
                return [f"{where}: {fast.move_text(code)} after {draws} draws, more than the engine can make"]
        text = fast.move_text(code)
        legal = {same(move) for move in at.legal_moves()}
        if same(text) not in legal:
            problems.append(f"{where}: {text} after {draws} draws is not legal ({sorted(legal)})")
            continue
        after = at.copy().apply(text)
        if list(fast.core_args(after)[MASKS]) != fields:
            problems.append(
                f"{where}: {text} after {draws} draws: the core made {fields}, "
                f"the engine {list(fast.core_args(after)[MASKS])}"
            )
    at_once = sorted(same(fast.move_text(code)) for code, draws, *_ in kids if draws == 0)
    removals = sorted(same(move) for move in position.legal_moves() if move.is_removal)
    king_first = (
        len(kids) == 1
        and at_once
        and at_once[0] in removals
        and position.available()
        and any(str(move) == fast.move_text(kids[0][0]) and "+" not in str(move) for move in position.legal_moves())
    )
    if at_once != removals and not king_first:
        problems.append(f"{where}: the core removes {at_once} at once, the engine {removals}")
    # after one draw or redeal: the removals that take a stock or waste card (the others it makes at once), but
    # where a king tops a live stock (it goes at once, and no line draws past it)
    drawn = turned(position)
    stock_king = position.rules.stock_live and "S" in {str(move) for move in position.legal_moves()}
    if drawn is not None and not king_first and not stock_king:
        with_pile = sorted(
            same(move) for move in drawn.legal_moves() if move.is_removal and ("S" in str(move) or "W" in str(move))
        )
        after_one = sorted(same(fast.move_text(code)) for code, draws, *_ in kids if draws == 1)
        if after_one != with_pile:
            problems.append(f"{where}: after one draw the core removes {after_one}, the engine {with_pile}")
    return problems


def oracle_positions(depth: int = CORE_DEPTH) -> list[Position]:
    """The oracle's positions and every position up to depth moves from them, each once (sanitizer_run.py
    checks them too, under AddressSanitizer)."""
    found, seen = [], set()
    for case in ORACLE["cases"]:
        rules = preset(case["preset"])
        stack = [(Position.loads(case["position"], deal_from_number(case["deal"]), rules), 0)]
        while stack:
            position, level = stack.pop()
            key = (case["preset"], case["deal"], position.dumps())
            if key in seen:
                continue
            seen.add(key)
            found.append(position)
            if level < depth:
                stack.extend((position.copy().apply(move), level + 1) for move in position.legal_moves())
    return found


@pytest.fixture(scope="module")
def positions() -> list[Position]:
    return oracle_positions()


def test_the_cores_successors_are_the_engines_moves(test_core, positions):
    playing = [position for position in positions if not position.is_won]
    assert len(playing) > 500
    problems = [problem for position in playing for problem in check(test_core, position)]
    assert problems == [], "\n".join(problems[:20])


def test_a_position_with_more_successors_than_the_cap_raises_instead_of_writing_past_it(test_core, positions):
    """The bound check of successors(), seen from outside: a cap under the count is refused, the count itself is
    fine (a solve uses MAX_KIDS, which no position reaches; the same check guards it)."""
    busiest = max(positions, key=lambda position: len(test_core._successors(*fast.core_args(position), 2048)))
    count = len(test_core._successors(*fast.core_args(busiest), 2048))
    assert count >= 3
    assert len(test_core._successors(*fast.core_args(busiest), count)) == count
    with pytest.raises(RuntimeError, match=f"more successors than the cap of {count - 1}"):
        test_core._successors(*fast.core_args(busiest), count - 1)
    with pytest.raises(ValueError, match="cap must be from 0 to 2048"):
        test_core._successors(*fast.core_args(busiest), 2049)
