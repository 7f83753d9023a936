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
from typing import Any

from ..cards import card_pretty, card_value
from ..layout import COVER_MASK, PYRAMID_SIZE
from ..moves import STOCK, WASTE, Move, location_text, parse_move
from ..position import Position
from ..words import PYRAMID, Said, Seen, listed
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
    # the explanation's sentences as data (engine/words.py: kind and params), for players of other languages
    parts: list[Said] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {key: value for key, value in asdict(self).items() if key != "parts"}


def _hint(
    move: str | None,
    parts: list[Said],
    locations: list[str],
    verdict: str,
    moves_to_win: int | None = None,
    best_cards_left: int | None = None,
) -> Hint:
    return Hint(move, " ".join(parts), locations, verdict, moves_to_win, best_cards_left, parts=parts)


def hint(position: Position, *, budget_seconds: float | None = 5.0) -> Hint:
    if position.is_won:
        return _hint(None, [Said("The deal is won.", "won")], [], WINNABLE, 0, 0)
    if position.is_stuck:
        return _hint(
            None,
            [
                Said(
                    "No removal is possible now and none can come up by drawing or redealing: the deal is over.",
                    "stuck",
                )
            ],
            [],
            UNWINNABLE,
            None,
            position.cards_left,
        )
    solution = solve(position, budget_seconds=budget_seconds)
    if not solution.solution:
        if solution.verdict == UNWINNABLE:
            why = Said(
                f"No win is possible from here, and no move can leave fewer than the {position.cards_left} "
                "cards left now.",
                "no_better",
                cards_left=position.cards_left,
            )
            return _hint(None, [why], [], solution.verdict, solution.par_moves, solution.best_cards_left)
        # out of time: fall back on the rules of thumb, and say so
        move = choose(position)
        assert move is not None  # neither won nor stuck: there is a legal move
        note = Said(
            "(The solver ran out of time here, so this move follows the rules of thumb rather than a proved "
            "best line.)",
            "out_of_time",
        )
        return _hint(
            str(move), [explain(position, move), note], [location_text(loc) for loc in move.locations], solution.verdict
        )
    move = parse_move(solution.solution[0])
    reason = explain(position, move)
    if solution.verdict == WINNABLE:
        outlook = Said(
            f"This position can still be won in {solution.par_moves} moves.", "winnable", moves=solution.par_moves
        )
    else:
        outlook = Said(
            f"No win is possible from here; the best you can reach is {solution.best_cards_left} "
            f"card{'s' * (solution.best_cards_left != 1)} left, in {solution.best_moves} moves.",
            "best_reachable",
            cards_left=solution.best_cards_left,
            moves=solution.best_moves,
        )
    return _hint(
        str(move),
        [reason, outlook],
        [location_text(loc) for loc in move.locations],
        solution.verdict,
        solution.par_moves,
        solution.best_cards_left,
    )


def _value_words(value: int) -> str:
    return RANK_WORDS.get(value, str(value))


def _frees(position: Position, move: Move) -> list[Seen]:
    return [position.card_seen(p) for p in newly_free(position, move)]


def _frees_words(frees: list[Seen]) -> str:
    return f"it frees {listed([c.english() for c in frees])}" if frees else ""


def explain(position: Position, move: Move) -> Said:
    """Why this move, in a player's words: cards by name, never by location number."""
    if move.kind == "draw":
        return _explain_draw(position)
    if move.kind == "redeal":
        return Said(
            f"Redeal: the stock is empty and nothing in view pairs usefully, so turn the waste over to "
            f"start pass {position.pass_no + 1}.",
            "redeal",
            next_pass=position.pass_no + 1,
        )
    locations = move.locations
    frees = _frees(position, move)
    frees_text = _frees_words(frees)
    if len(locations) == 1:
        loc = locations[0]
        seen = position.card_seen(loc)
        king = position.card_words(loc).removeprefix("the ")
        text = f"Take the {king} at once: a king never pairs with anything, so keeping it only"
        if loc < PYRAMID_SIZE:
            if frees:
                return Said(f"{text} blocks the cards under it; {frees_text}.", "king_frees", card=seen, frees=frees)
            return Said(f"{text} blocks the cards under it.", "king_pyramid", card=seen)
        if loc < STOCK:
            return Said(f"{text} takes up room in the reserve.", "king_reserve", card=seen)
        return Said(f"{text} blocks the pile under it.", "king_pile", card=seen)
    first, second = (position.card_seen(loc) for loc in locations)
    pair = f"Pair {first.english()} with {second.english()}"
    reasons: list[Said] = []
    if frees:
        reasons.append(Said(frees_text, "frees", cards=frees))
    pyramid_cards = [loc for loc in locations if loc < PYRAMID_SIZE]
    pile_cards = [loc for loc in locations if loc in (STOCK, WASTE)]
    if position.rules.covered_pairs and len(pyramid_cards) == 2 and (position.pyramid & COVER_MASK[min(pyramid_cards)]):
        upper, lower = position.card_seen(max(pyramid_cards)), position.card_seen(min(pyramid_cards))
        reasons.append(
            Said(
                f"under these rules {upper.english()} may pair with the {lower.english()} it alone covers",
                "pairs_with_covered",
                card=upper,
                covered=lower,
            )
        )
    for p in pyramid_cards:
        if pile_cards and free_partners(position, p) == 0:
            value = card_value(position.board.pyramid_cards[p])
            want = _value_words(13 - value)
            reasons.append(
                Said(
                    f"{position.card_words(p)} has no {want} left in the pyramid that it could ever "
                    f"reach, so it needs the pile's {want}",
                    "needs_pile",
                    card=position.card_seen(p),
                    wanted_value=13 - value,
                )
            )
            break
    if WASTE in pile_cards:
        card = position.card_at(WASTE)
        assert card is not None  # a move names it
        reasons.append(
            Said(
                f"take the {card_pretty(card)} now, before the next draw covers it",
                "take_waste_now",
                card=Seen(PYRAMID, card),
            )
        )
    elif STOCK in pile_cards and position.rules.stock_live:
        card = position.card_at(STOCK)
        assert card is not None
        reasons.append(
            Said(
                f"use the {card_pretty(card)} while it is live, before it goes to the waste",
                "use_stock_now",
                card=Seen(PYRAMID, card),
            )
        )
    elif len(pyramid_cards) == 2 and not frees:
        reasons.append(
            Said("a pair inside the pyramid clears more of it than one that uses the pile", "pair_inside_pyramid")
        )
    alternatives = [m for m in position.legal_moves() if m.is_removal and m != move]
    if frees and alternatives and all(len(newly_free(position, m)) < len(frees) for m in alternatives):
        reasons.append(Said("no other pair frees as much", "frees_most"))
    if not reasons:
        reasons.append(Said("it is the pair the best line needs here", "best_line"))
    return Said(f"{pair}: {'; '.join(reasons)}.", "pair", first=first, second=second, reasons=reasons)


def _explain_draw(position: Position) -> Said:
    available = position.available()
    if any(value == 13 for _, value in available) or any(
        a + b == 13 for i, (_, a) in enumerate(available) for _, b in available[i + 1 :]
    ):
        return Said(
            "Draw: the pairs in view can wait, and taking them now would spend cards a later one needs more.",
            "draw_pairs_wait",
        )
    # the live tops of the pile, named: they are face up (available() lists the stock top only when live)
    tops = [position.card_seen(loc) for loc, _ in available if loc in (STOCK, WASTE)]
    if tops:
        has = "has" if len(tops) == 1 else "have"
        return Said(
            f"Draw: {listed([c.english() for c in tops])} {has} no partner among the free cards, so the next "
            "card is worth more.",
            "draw_no_partner",
            cards=tops,
        )
    return Said("Draw: nothing pairs yet, so turn the next card.", "draw_nothing_pairs")
