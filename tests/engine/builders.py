"""Hand-built deals and positions for golden tests."""

from __future__ import annotations

from engine import Deal, Position, parse_card
from engine.cards import DECK
from engine.position import board_for


def build_deal(pyramid: dict[int, str] | None = None, stock: list[str] = (), reserve: list[str] = ()) -> Deal:
    """A deal with the given cards at pyramid positions, reserve slots and stock top; the other
    cards fill the free places in deck order (after the named stock cards)."""
    pyramid = {p: parse_card(c) for p, c in (pyramid or {}).items()}
    reserve = [parse_card(c) for c in reserve]
    stock = [parse_card(c) for c in stock]
    used = set(pyramid.values()) | set(reserve) | set(stock)
    assert len(used) == len(pyramid) + len(reserve) + len(stock), "a card is named twice"
    rest = [c for c in DECK if c not in used]
    cards = []
    for p in range(28):
        cards.append(pyramid[p] if p in pyramid else rest.pop(0))
    cards.extend(reserve)
    cards.extend(stock)
    cards.extend(rest)
    return Deal(tuple(cards))


def position_with(deal: Deal, rules, pyramid_left: set[int], **fields) -> Position:
    """A position of ``deal`` where only ``pyramid_left`` remain in the pyramid."""
    board = board_for(deal, rules)
    mask = sum(1 << p for p in pyramid_left)
    position = Position(board, mask, (1 << rules.reserve) - 1, (1 << board.pile_size) - 1, 0, 1)
    for name, value in fields.items():
        setattr(position, name, value)
    return position
