"""Positions for cross-checks: mid-game positions reached by seeded random play."""

from __future__ import annotations

import random

from engine import PRESETS, Position, deal_from_number

CUSTOM = {
    "unlimited": "relaxed;passes=unlimited",
    "one-pass-live": "one-look;waste_top=live",
    "draw3-all": "tuts-tomb;goal=all;passes=2",
    "hidden-dead": "classic;waste_top=dead;passes=2",
    "reserve-pyramid": "reserve;goal=pyramid;passes=2",
    "overlap-all": "overlap;goal=all;stock_top=live",
}


def random_position(number: int, rules, removals_wanted: int, seed: int) -> Position:
    """Play random legal moves, preferring removals, until enough cards are gone or the game ends."""
    rng = random.Random(seed)
    position = Position.start(deal_from_number(number), rules)
    removed = 0
    while removed < removals_wanted:
        moves = position.legal_moves()
        if not moves:
            break
        removals = [m for m in moves if m.is_removal]
        move = rng.choice(removals) if removals and rng.random() < 0.8 else rng.choice(moves)
        position.apply(move)
        removed += move.is_removal
    return position


def all_rules():
    from engine import Rules

    yield from PRESETS.items()
    for name, text in CUSTOM.items():
        yield name, Rules.parse(text)
