"""Tournament arithmetic on top of the engine's scores: what a deal not played counts, and arena points."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import engine

# The arena streak bonus, as in lichess's arenas: a clear scores 2, and once two deals in a row
# were cleared every further clear scores 4, until a deal is not cleared.
ARENA_CLEAR = 2
ARENA_STREAK_CLEAR = 4
ARENA_STREAK_AFTER = 2


class ArenaTally(NamedTuple):
    score: int
    streak: int  # clears in a row at the end


def arena_tally(cleared: list[bool]) -> ArenaTally:
    """Points of a player's arena deals, in the order they were played."""
    score = streak = 0
    for is_cleared in cleared:
        if is_cleared:
            score += ARENA_STREAK_CLEAR if streak >= ARENA_STREAK_AFTER else ARENA_CLEAR
            streak += 1
        else:
            streak = 0
    return ArenaTally(score, streak)


@lru_cache(maxsize=64)
def unplayed(rules_text: str) -> engine.Score:
    """The score of a deal nobody touched under these rules: what a match deal not played counts.
    Every deal starts with the same cards in play, so any deal number tells it."""
    return engine.score(engine.Position.start(engine.deal_from_number(0), engine.Rules.parse(rules_text)))
