"""Scores of a position: what docs/rules.md ranks and what Par Pyramid match scoring counts."""

from __future__ import annotations

from dataclasses import dataclass

from .position import Position

# Par Pyramid: a pyramid cleared in pass 1 is worth 50, pass 2 35, pass 3 20. docs/rules.md stops at
# three passes (the `par` preset); later passes, possible only under custom rules, go on down by
# the same 15 and never below 0.
MATCH_BASE_FIRST_PASS = 50
MATCH_STEP_PER_PASS = 15


@dataclass(frozen=True, slots=True)
class Score:
    cards_left: int
    pyramid_left: int
    moves: int
    cleared_pass: int | None  # the pass in which the pyramid was cleared, None if it was not
    match_score: int

    def to_dict(self) -> dict[str, int | None]:
        # every field is a plain number: asdict's deep copy of each (per game response) buys nothing
        return {name: getattr(self, name) for name in self.__slots__}


def match_score(position: Position) -> int:
    """Par Pyramid match score of a deal ending in this position."""
    rest = position.pile_left + position.reserve_left
    if position.cleared_pass:
        base = max(MATCH_BASE_FIRST_PASS - MATCH_STEP_PER_PASS * (position.cleared_pass - 1), 0)
        return base - rest
    return -(position.pyramid_left + rest)


def score(position: Position) -> Score:
    return Score(
        cards_left=position.cards_left,
        pyramid_left=position.pyramid_left,
        moves=position.moves,
        cleared_pass=position.cleared_pass or None,
        match_score=match_score(position),
    )
