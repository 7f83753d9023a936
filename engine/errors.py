"""Every refusal the engine makes is one of these, with a message a player can read."""

from typing import Any


class EngineError(ValueError):
    """Base of all engine refusals."""


class DealError(EngineError):
    """Malformed deal text or card token."""


class RulesError(EngineError):
    """Unknown option, bad value or invalid combination of options."""


class NotationError(EngineError):
    """A move that is not written in the notation of the rules."""


class StateError(EngineError):
    """A serialised position that cannot be loaded."""


class IllegalMove(EngineError):
    """A well-formed move that the rules do not allow in this position."""

    def __init__(
        self, reason: str, move: str | None = None, *, kind: str | None = None, params: dict[str, Any] | None = None
    ):
        super().__init__(reason)
        self.reason = reason
        self.move = move
        # the reason as data (engine/words.py), for players of other languages
        self.kind = kind
        self.params = params or {}
