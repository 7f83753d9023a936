"""Cards as small integers, and their text form.

A card is ``rank_index * 4 + suit_index`` with ranks ``A 2 .. 9 T J Q K`` and suits ``C D H S``,
so ``0`` is the ace of clubs and ``51`` the king of spades. Integers keep positions cheap to copy
and hash, which the solver relies on.
"""

from __future__ import annotations

from .errors import DealError

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
KING = 13
TARGET = 13

DECK = tuple(range(52))


def card_value(card: int) -> int:
    """Ace 1, 2..10 their number, jack 11, queen 12, king 13."""
    return (card >> 2) + 1


def card_text(card: int) -> str:
    return RANKS[card >> 2] + SUITS[card & 3]


def card_pretty(card: int) -> str:
    """The card with a suit symbol, for people: ``10♥``, ``K♠``."""
    rank = "10" if card >> 2 == 9 else RANKS[card >> 2]
    return rank + SUIT_SYMBOLS[SUITS[card & 3]]


_BY_TEXT = {card_text(c): c for c in DECK}
_BY_TEXT.update({"10" + s: _BY_TEXT["T" + s] for s in SUITS})


def parse_card(token: str) -> int:
    """Parse ``7d``, ``TD``, ``10d`` and the like; refuse anything else by name."""
    card = _BY_TEXT.get(token.strip().upper())
    if card is None:
        raise DealError(f"unknown card {token!r}: a card is a rank (A 2-9 T or 10 J Q K) followed by a suit (C D H S)")
    return card
