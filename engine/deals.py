"""Deals: the 52 cards in dealing order, their text form, and deal numbers.

A deal is layout-free: the first 28 cards are the pyramid by position, then (under
``reserve: 7``) seven reserve cards, then the stock from its top card down.

Deal numbers
------------
``deal_from_number(n)`` for ``0 <= n < 2**64`` is a Fisher-Yates shuffle of the ordered deck
``AC AD AH AS 2C .. KS`` (rank-major, suits C D H S) driven by SHA-256, so any language can
reproduce it:

* the random stream is the concatenation of ``SHA-256(b"pyramid-deal" || n as 8 bytes big-endian
  || k as 4 bytes big-endian)`` for ``k = 0, 1, 2, ...``, read as 32-bit big-endian words;
* for ``i`` from 51 down to 1: let ``bound = i + 1`` and ``limit = 2**32 - 2**32 % bound``; take
  words until one, ``w``, is below ``limit`` (rejection keeps the choice unbiased); swap the cards
  at ``i`` and ``w % bound``;
* the shuffled deck, from index 0, is the deal.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from .cards import DECK, card_text, parse_card
from .errors import DealError
from .layout import PYRAMID_SIZE, ROWS, position_of

MAX_DEAL_NUMBER = 2**64
_DEAL_DOMAIN = b"pyramid-deal"


@dataclass(frozen=True, slots=True)
class Deal:
    cards: tuple[int, ...]

    def __post_init__(self) -> None:
        if sorted(self.cards) != list(DECK):
            raise DealError("a deal is the 52 cards of one deck, each exactly once")

    @property
    def text(self) -> str:
        """Canonical deal text: 52 tokens on one line."""
        return " ".join(card_text(c) for c in self.cards)

    def layout_text(self, reserve: int = 0) -> str:
        """The deal text in rows: the pyramid's seven rows, the reserve, then the stock."""
        lines = [" ".join(card_text(self.cards[position_of(r, c)]) for c in range(r + 1)) for r in range(ROWS)]
        rest = self.cards[PYRAMID_SIZE:]
        if reserve:
            lines.append(" ".join(card_text(c) for c in rest[:reserve]))
            rest = rest[reserve:]
        lines.append(" ".join(card_text(c) for c in rest))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text


@lru_cache(maxsize=4096)
def parse_deal(text: str) -> Deal:
    """Parse deal text; refuse a wrong count, an unknown token, a card twice or a card missing."""
    if not isinstance(text, str):
        raise DealError("deal text must be a string of 52 cards")
    tokens = text.split()
    cards = []
    for index, token in enumerate(tokens):
        try:
            cards.append(parse_card(token))
        except DealError as exc:
            raise DealError(f"token {index + 1}: {exc}") from None
    counts = Counter(cards)
    missing = [card_text(c) for c in DECK if c not in counts]
    missing_note = f"; missing: {' '.join(missing)}" if 0 < len(missing) <= 6 else ""
    for index, card in enumerate(cards):
        if counts[card] > 1:
            raise DealError(
                f"card {card_text(card)} appears {counts[card]} times (token {index + 1} is the first){missing_note}"
            )
    if len(cards) != 52:
        raise DealError(f"a deal has 52 cards; this one has {len(cards)}{missing_note}")
    return Deal(tuple(cards))


def _words(number: int) -> Iterator[int]:
    block = 0
    prefix = _DEAL_DOMAIN + number.to_bytes(8, "big")
    while True:
        digest = hashlib.sha256(prefix + block.to_bytes(4, "big")).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(digest[i : i + 4], "big")
        block += 1


@lru_cache(maxsize=1024)
def deal_from_number(number: int) -> Deal:
    """Deal number ``number`` (0 <= number < 2**64), by the documented SHA-256 Fisher-Yates shuffle."""
    if isinstance(number, bool) or not isinstance(number, int):
        raise DealError(f"a deal number is a whole number; got {number!r}")
    if not 0 <= number < MAX_DEAL_NUMBER:
        raise DealError(f"deal numbers run from 0 to 2**64 - 1; got {number}")
    deck = list(DECK)
    words = _words(number)
    for i in range(51, 0, -1):
        bound = i + 1
        limit = 2**32 - 2**32 % bound
        word = next(words)
        while word >= limit:
            word = next(words)
        j = word % bound
        deck[i], deck[j] = deck[j], deck[i]
    return Deal(tuple(deck))
