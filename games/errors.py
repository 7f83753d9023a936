"""Refusals of the game service beyond a plain ``DomainError`` (``pyramid_site.errors``)."""

from __future__ import annotations

from django.utils.translation import gettext

from pyramid_site.errors import Code, DomainError


def game_not_found(game_id: int) -> DomainError:
    """Someone else's game is answered as if it did not exist."""
    return DomainError(Code.GAME_NOT_FOUND, gettext("there is no game %(game_id)s of yours") % {"game_id": game_id})
