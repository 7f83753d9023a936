"""Token authentication with each process remembering tokens for a few seconds.

Every move is a request, so the token look-up is a good share of a move's database work. A token
revoked through the API stops working at once in the process that revoked it; a token deleted
otherwise, or revoked in another process, or a user deactivated, stops working within
``PYRAMID_TOKEN_CACHE_SECONDS``.
"""

from __future__ import annotations

import time

from django.conf import settings
from rest_framework.authentication import TokenAuthentication

_MAX_ENTRIES = 50_000


class CachedTokenAuthentication(TokenAuthentication):
    _known: dict[str, tuple[float, object, object]] = {}

    def authenticate_credentials(self, key):
        now = time.monotonic()
        hit = self._known.get(key)
        if hit is not None and hit[0] > now:
            return hit[1], hit[2]
        user, token = super().authenticate_credentials(key)
        if len(self._known) >= _MAX_ENTRIES:
            self._known.clear()
        self._known[key] = (now + settings.PYRAMID_TOKEN_CACHE_SECONDS, user, token)
        return user, token

    @classmethod
    def forget(cls, key: str) -> None:
        cls._known.pop(key, None)
