"""Hints: the next move of a best line, with a short explanation in a player's words.

The move comes from the solver, so following hints plays a best line. The explanation is built
from the strategy advice of the German and the English rule pages: take kings at once, use the
waste card before the next draw covers it, pair inside the pyramid before touching the stock,
uncover as many cards as you can, and spend a pile card on a card that sits on its own partners.
It never names a face-down stock card.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from ..cards import card_pretty, card_value
from ..layout import COVER_MASK, PYRAMID_SIZE
from ..moves import STOCK, WASTE, Move, location_text, location_words, parse_move
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


def _uncover_words(position: Position, move: Move) -> str:
    uncovered = newly_free(position, move)
    if not uncovered:
        return ""
    cards = [card_pretty(position.board.pyramid_cards[p]) for p in uncovered]
    listed = cards[0] if len(cards) == 1 else ", ".join(cards[:-1]) + " and " + cards[-1]
    return f"it uncovers {listed}"


def explain(position: Position, move: Move) -> str:
    """Why this move, in a player's words."""
    if move.kind == "draw":
        return _explain_draw(position)
    if move.kind == "redeal":
        return (f"The stock is empty and nothing in view pairs usefully: turn the waste over to start pass "
                f"{position.pass_no + 1}.")
    locations = move.locations
    cards = [position.card_at(loc) for loc in locations]
    uncover = _uncover_words(position, move)
    if len(locations) == 1:
        where = location_words(locations[0])
        text = f"Take the king at {where} at once: a king never pairs with anything, so keeping it only blocks"
        return text + (f" the cards under it; {uncover}." if uncover else " the pile under it.")
    pair = f"{card_pretty(cards[0])} + {card_pretty(cards[1])} make 13"
    reasons = []
    if uncover:
        reasons.append(uncover)
    pyramid_cards = [loc for loc in locations if loc < PYRAMID_SIZE]
    pile_cards = [loc for loc in locations if loc in (STOCK, WASTE)]
    if position.rules.covered_pairs and len(pyramid_cards) == 2 and (
            position.pyramid & COVER_MASK[min(pyramid_cards)]):
        reasons.append("under these rules a card may pair with the only card covering it")
    for p in pyramid_cards:
        if pile_cards and free_partners(position, p) == 0:
            value = card_value(position.board.pyramid_cards[p])
            want = _value_words(13 - value)
            reasons.append(f"this {_value_words(value)} has no {want} left in the pyramid that it could ever "
                           f"reach, so it needs the pile's {want}")
            break
    if WASTE in pile_cards:
        reasons.append("use the waste card now, before the next draw covers it")
    elif STOCK in pile_cards:
        reasons.append("the stock's top card is live: use it before it goes to the waste")
    elif len(pyramid_cards) == 2 and not uncover:
        reasons.append("a pair inside the pyramid clears more of it than one that uses the pile")
    alternatives = [m for m in position.legal_moves() if m.is_removal and m != move]
    if uncover and alternatives and all(len(newly_free(position, m)) < len(newly_free(position, move))
                                        for m in alternatives):
        reasons.append("no other pair uncovers as much")
    if not reasons:
        reasons.append("it is the pair the best line needs here")
    return f"{pair}: {'; '.join(reasons)}."


def _explain_draw(position: Position) -> str:
    available = position.available()
    if any(value == 13 for _, value in available) or any(
            a + b == 13 for i, (_, a) in enumerate(available) for _, b in available[i + 1:]):
        return ("Draw: the pairs in view can wait, and taking them now would spend cards a later one needs "
                "more.")
    if position.pointer and position.rules.waste_live:
        return "Draw: the waste card has no partner among the free cards, so the next card is worth more."
    return "Draw: nothing in view pairs, so turn the next card."
