"""The revocation counter of API tokens, shared by every process through the cache.

A revocation (log-out, a token revoked, a guest deleted) bumps it; the token authentication
(``pyramid_site.api.authentication``) compares it with the value a remembered token was checked under, so
a revoked token stops working at once in every process. Kept apart from the authentication so the
accounts' services can announce a revocation without importing the API package."""

from __future__ import annotations

from django.core.cache import cache

REVOCATIONS_KEY = "pyramid:token-revocations"


def revocations() -> int:
    return cache.get(REVOCATIONS_KEY, 0)


def revocation_announce() -> None:
    """Tell every process that a token was revoked: each checks its remembered tokens again."""
    if not cache.add(REVOCATIONS_KEY, 1, timeout=None):
        try:
            cache.incr(REVOCATIONS_KEY)
        except ValueError:  # expired between the two calls
            cache.add(REVOCATIONS_KEY, 1, timeout=None)
