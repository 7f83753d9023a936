"""Replaying a move log from a deal and a rule set."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .deals import Deal
from .errors import EngineError
from .moves import Move, parse_move
from .position import Position
from .rules import Rules


@dataclass(slots=True)
class Replay:
    position: Position  # after the last legal move
    moves: list[Move]  # the legal moves, parsed
    failed_at: int | None = None  # index in the log of the first illegal move
    reason: str | None = None

    @property
    def ok(self) -> bool:
        return self.failed_at is None


def replay(deal: Deal, rules: Rules, log: str | Iterable[str | Move], start: Position | None = None) -> Replay:
    """Play a log through the engine; stop at the first move that is malformed or illegal."""
    position = start.copy() if start is not None else Position.start(deal, rules)
    tokens: list[str | Move] = list(log.split()) if isinstance(log, str) else list(log)
    played: list[Move] = []
    for index, token in enumerate(tokens):
        try:
            move = token if isinstance(token, Move) else parse_move(token)
            position.apply(move)
        except EngineError as exc:
            return Replay(position, played, index, str(exc))
        played.append(move)
    return Replay(position, played)
