"""Hints: the next move of a best line, with a short explanation in a player's words.

The move comes from the solver, so following hints plays a best line. The explanation is built
from the strategy advice of the German and the English rule pages: take kings at once, use the
waste card before the next draw covers it, pair inside the pyramid before touching the stock,
uncover as many cards as you can, and spend a pile card on a card that sits on its own partners.
It names cards as a player sees them (``Pair 9♥ with the waste's 4♣: it frees 6♠``), never by the
notation's location numbers (the ``move`` and ``locations`` fields keep those, for clients), and it
never names a face-down stock card.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from ..cards import card_pretty, card_value
from ..layout import COVER_MASK, PYRAMID_SIZE
from ..moves import STOCK, WASTE, Move, location_text, parse_move
from ..position import Position
from .bot import choose, free_partners, newly_free
from .result import UNWINNABLE, WINNABLE
from .search import solve

RANK_WORDS = {1: "ace", 11: "jack", 12: "queen", 13: "king"}


@dataclass(slots=True)
class Hint:
    move: str | None  # None when nothing helps any more
    explanation: str
    locations: list[str] = field(default_factory=list)  # the cards the move names, to highlight
    verdict: str = "unknown"  # can the position still be won?
    moves_to_win: int | None = None
    best_cards_left: int | None = None

    def to_dict(self) -> dict:
        return asdict(self)


def hint(position: Position, *, budget_seconds: float | None = 5.0) -> Hint:
    if position.is_won:
        return Hint(None, "The deal is won.", [], WINNABLE, 0, 0)
    if position.is_stuck:
        return Hint(None, "No removal is possible now and none can come up by drawing or redealing: the deal is over.",
                    [], UNWINNABLE, None, position.cards_left)
    solution = solve(position, budget_seconds=budget_seconds)
    if not solution.solution:
        if solution.verdict == UNWINNABLE:
            why = (f"No win is possible from here, and no move can leave fewer than the {position.cards_left} "
                   "cards left now.")
            return Hint(None, why, [], solution.verdict, solution.par_moves, solution.best_cards_left)
        # out of time: fall back on the rules of thumb, and say so
        move = choose(position)
        why = (f"{explain(position, move)} (The solver ran out of time here, so this move follows the rules of "
               "thumb rather than a proved best line.)")
        return Hint(str(move), why, [location_text(loc) for loc in move.locations], solution.verdict)
    move = parse_move(solution.solution[0])
    reason = explain(position, move)
    if solution.verdict == WINNABLE:
        outlook = f"This position can still be won in {solution.par_moves} moves."
    else:
        outlook = (f"No win is possible from here; the best you can reach is {solution.best_cards_left} "
                   f"card{'s' * (solution.best_cards_left != 1)} left, in {solution.best_moves} moves.")
    return Hint(str(move), f"{reason} {outlook}", [location_text(loc) for loc in move.locations],
                solution.verdict, solution.par_moves, solution.best_cards_left)


def _value_words(value: int) -> str:
    return RANK_WORDS.get(value, str(value))


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _frees_words(position: Position, move: Move) -> str:
    uncovered = newly_free(position, move)
    if not uncovered:
        return ""
    return f"it frees {_listed([position.card_words(p) for p in uncovered])}"


def explain(position: Position, move: Move) -> str:
    """Why this move, in a player's words: cards by name, never by location number."""
    if move.kind == "draw":
        return _explain_draw(position)
    if move.kind == "redeal":
        return (f"Redeal: the stock is empty and nothing in view pairs usefully, so turn the waste over to "
                f"start pass {position.pass_no + 1}.")
    locations = move.locations
    frees = _frees_words(position, move)
    if len(locations) == 1:
        loc = locations[0]
        king = position.card_words(loc).removeprefix("the ")
        text = f"Take the {king} at once: a king never pairs with anything, so keeping it only"
        if loc < PYRAMID_SIZE:
            return f"{text} blocks the cards under it; {frees}." if frees else f"{text} blocks the cards under it."
        if loc < STOCK:
            return f"{text} takes up room in the reserve."
        return f"{text} blocks the pile under it."
    first, second = (position.card_words(loc) for loc in locations)
    pair = f"Pair {first} with {second}"
    reasons = []
    if frees:
        reasons.append(frees)
    pyramid_cards = [loc for loc in locations if loc < PYRAMID_SIZE]
    pile_cards = [loc for loc in locations if loc in (STOCK, WASTE)]
    if position.rules.covered_pairs and len(pyramid_cards) == 2 and (
            position.pyramid & COVER_MASK[min(pyramid_cards)]):
        reasons.append(f"under these rules {position.card_words(max(pyramid_cards))} may pair with the "
                       f"{position.card_words(min(pyramid_cards))} it alone covers")
    for p in pyramid_cards:
        if pile_cards and free_partners(position, p) == 0:
            value = card_value(position.board.pyramid_cards[p])
            want = _value_words(13 - value)
            reasons.append(f"{position.card_words(p)} has no {want} left in the pyramid that it could ever "
                           f"reach, so it needs the pile's {want}")
            break
    if WASTE in pile_cards:
        reasons.append(f"take the {card_pretty(position.card_at(WASTE))} now, before the next draw covers it")
    elif STOCK in pile_cards and position.rules.stock_live:
        reasons.append(f"use the {card_pretty(position.card_at(STOCK))} while it is live, before it goes to the waste")
    elif len(pyramid_cards) == 2 and not frees:
        reasons.append("a pair inside the pyramid clears more of it than one that uses the pile")
    alternatives = [m for m in position.legal_moves() if m.is_removal and m != move]
    if frees and alternatives and all(len(newly_free(position, m)) < len(newly_free(position, move))
                                      for m in alternatives):
        reasons.append("no other pair frees as much")
    if not reasons:
        reasons.append("it is the pair the best line needs here")
    return f"{pair}: {'; '.join(reasons)}."


def _explain_draw(position: Position) -> str:
    available = position.available()
    if any(value == 13 for _, value in available) or any(
            a + b == 13 for i, (_, a) in enumerate(available) for _, b in available[i + 1:]):
        return ("Draw: the pairs in view can wait, and taking them now would spend cards a later one needs "
                "more.")
    # the live tops of the pile, named: they are face up (available() lists the stock top only when live)
    tops = [position.card_words(loc) for loc, _ in available if loc in (STOCK, WASTE)]
    if tops:
        has = "has" if len(tops) == 1 else "have"
        return (f"Draw: {_listed(tops)} {has} no partner among the free cards, so the next card is worth "
                "more.")
    return "Draw: nothing pairs yet, so turn the next card."
