"""What a solve returns."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

WINNABLE, UNWINNABLE, UNKNOWN = "winnable", "unwinnable", "unknown"


@dataclass(slots=True)
class Solution:
    verdict: str  # winnable | unwinnable | unknown (a budget ran out; never a guess)
    par_moves: int | None  # fewest moves that win, for a winnable position
    best_cards_left: int | None  # 0 when winnable; else the fewest cards_left reachable (None if unknown)
    best_moves: int | None  # fewest moves that reach best_cards_left
    solution: list[str] = field(default_factory=list)  # a line reaching it, in docs/rules.md notation
    nodes: int = 0  # positions expanded
    seconds: float = 0.0
    difficulty: int | None = None  # 1 (easy) to 5 (hard) for a winnable deal; see the grading notes

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
