"""Moves in the notation of docs/rules.md: ``draw``, ``redeal``, ``L`` (a king) and ``L+M`` (a pair).

Locations are small integers: 0..27 the pyramid, 28..34 the reserve ``R0``..``R6``, 35 the stock
top ``S`` and 36 the waste top ``W``. A pair is stored in canonical order, so ``25+24`` and
``24+25`` are the same move and print the same way.
"""

from __future__ import annotations

from typing import NamedTuple

from .errors import NotationError
from .layout import PYRAMID_SIZE, RESERVE_SIZE

RESERVE_BASE = PYRAMID_SIZE
STOCK = RESERVE_BASE + RESERVE_SIZE
WASTE = STOCK + 1

DRAW = "draw"
REDEAL = "redeal"
REMOVE = "remove"


def location_text(loc: int) -> str:
    if loc < PYRAMID_SIZE:
        return str(loc)
    if loc < STOCK:
        return f"R{loc - RESERVE_BASE}"
    return "S" if loc == STOCK else "W"


def parse_location(token: str) -> int:
    text = token.strip().upper()
    if text.isascii() and text.isdigit():
        value = int(text)
        if value < PYRAMID_SIZE and text == str(value):
            return value
        raise NotationError(f"{token!r} is not a pyramid position: they run from 0 to 27")
    if text in ("S", "W"):
        return STOCK if text == "S" else WASTE
    if text.startswith("R") and text[1:].isascii() and text[1:].isdigit():
        value = int(text[1:])
        if value < RESERVE_SIZE and text[1:] == str(value):
            return RESERVE_BASE + value
        raise NotationError(f"{token!r} is not a reserve card: they run from R0 to R6")
    raise NotationError(
        f"{token!r} is not a location: use 0-27 for the pyramid, R0-R6 for the reserve, S for the stock top, "
        "W for the waste top"
    )


class Move(NamedTuple):
    kind: str
    first: int = -1  # a location, for removals
    second: int = -1  # the partner's location, or -1 for a king

    @property
    def is_removal(self) -> bool:
        return self.kind == REMOVE

    @property
    def locations(self) -> tuple[int, ...]:
        if self.kind != REMOVE:
            return ()
        return (self.first,) if self.second < 0 else (self.first, self.second)

    def __str__(self) -> str:
        if self.kind != REMOVE:
            return self.kind
        if self.second < 0:
            return location_text(self.first)
        return f"{location_text(self.first)}+{location_text(self.second)}"


DRAW_MOVE = Move(DRAW)
REDEAL_MOVE = Move(REDEAL)


def king_move(loc: int) -> Move:
    return Move(REMOVE, loc)


def pair_move(a: int, b: int) -> Move:
    return Move(REMOVE, a, b) if a < b else Move(REMOVE, b, a)


def move_code(move: Move) -> int:
    """A move as a small number (under 1,600): 0 draw, 1 redeal, then removals by their locations. The
    solver's compiled core speaks these codes, and stored analyses keep moves in them."""
    if move.kind == DRAW:
        return 0
    if move.kind == REDEAL:
        return 1
    return 2 + move.first * 40 + (0 if move.second < 0 else move.second + 1)


def move_from_code(code: int) -> Move:
    if code == 0:
        return DRAW_MOVE
    if code == 1:
        return REDEAL_MOVE
    first, second = divmod(code - 2, 40)
    return king_move(first) if second == 0 else pair_move(first, second - 1)


def _parse(text: str) -> Move:
    word = text.strip().lower()
    if word in (DRAW, "d"):
        return DRAW_MOVE
    if word == REDEAL:
        return REDEAL_MOVE
    if not word:
        raise NotationError("empty move: write draw, redeal, a king's location (21) or a pair (24+25)")
    parts = word.split("+")
    if len(parts) == 1:
        return king_move(parse_location(parts[0]))
    if len(parts) == 2:
        a, b = parse_location(parts[0]), parse_location(parts[1])
        if a == b:
            raise NotationError(f"{text.strip()!r} names {location_text(a)} twice: a pair needs two different cards")
        return pair_move(a, b)
    raise NotationError(f"{text.strip()!r} names {len(parts)} cards: a removal takes one king or a pair of two cards")


_PARSED: dict[str, Move] = {}


def parse_move(text: str) -> Move:
    """Parse one move; cached, since logs repeat the same few hundred tokens."""
    if not isinstance(text, str):
        raise NotationError(f"a move is text such as draw, 21 or 24+25; got {text!r}")
    move = _PARSED.get(text)
    if move is None:
        move = _parse(text)
        if len(_PARSED) < 10_000:
            _PARSED[text] = move
    return move


def parse_moves(text: str) -> list[Move]:
    """A move log: moves separated by white space."""
    return [parse_move(token) for token in text.split()]
