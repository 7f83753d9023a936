"""Refusals of the game service: each has a stable ``code``, a readable message and an HTTP status."""

from __future__ import annotations


class ServiceError(Exception):
    status = 400
    code = "invalid"

    def __init__(self, message: str, *, code: str | None = None, **extra):
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        self.extra = extra


class NotFound(ServiceError):
    status = 404
    code = "not_found"


class Invalid(ServiceError):
    status = 400
    code = "invalid"


class Conflict(ServiceError):
    status = 409
    code = "conflict"


class Forbidden(ServiceError):
    status = 403
    code = "forbidden"


class IllegalMoveError(ServiceError):
    status = 422
    code = "illegal_move"


def game_not_found(game_id: int) -> NotFound:
    """Someone else's game is answered as if it did not exist."""
    return NotFound(f"there is no game {game_id} of yours", code="game_not_found")
