"""Refusals of the game service beyond the project's common ones (``pyramid_site.api.errors``)."""

from __future__ import annotations

from django.utils.translation import gettext

from pyramid_site.api.errors import NotFound, ServiceError


class IllegalMoveError(ServiceError):
    status = 422
    code = "illegal_move"


def game_not_found(game_id: int) -> NotFound:
    """Someone else's game is answered as if it did not exist."""
    return NotFound(gettext("there is no game %(game_id)s of yours") % {"game_id": game_id}, code="game_not_found")
