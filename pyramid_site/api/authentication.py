"""Token authentication (``Bearer`` or ``Token``) with each process remembering tokens it has checked.

Every move is a request, so the token look-up in the database was a good share of a move's database
work: a process remembers a checked token for ``PYRAMID_TOKEN_CACHE_SECONDS``. A revocation (through
the API) bumps a revocation counter in the shared cache, and every request compares the counter with
the one its remembered token was checked under (one cache read, no database query): a revoked token
stops working at once in every process. A token deleted otherwise (the admin) or a user deactivated
stops working within ``PYRAMID_TOKEN_CACHE_SECONDS``.
"""

from __future__ import annotations

import time

from django.conf import settings
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import TokenAuthentication, get_authorization_header

from ..token_revocations import revocations

_MAX_ENTRIES = 50_000
# every 401 of the API says this (the exception handler puts it on the 401s no authentication class answers)
WWW_AUTHENTICATE = 'Bearer realm="api"'


def _bearer(request) -> bool:
    scheme = get_authorization_header(request).split()[:1]
    return bool(scheme) and scheme[0].lower() == b"bearer"


class CachedTokenAuthentication(TokenAuthentication):
    """``Authorization: Bearer KEY`` (what OpenAPI clients send) or ``Authorization: Token KEY`` (DRF's own
    spelling, which earlier clients send): the same token either way."""

    _known: dict[str, tuple[float, int, object, object]] = {}

    def authenticate(self, request):
        if _bearer(request):
            self.keyword = "Bearer"  # this request's instance reads the header in the scheme it was sent in
        return super().authenticate(request)

    def authenticate_header(self, request):
        # the scheme the schema declares, whichever the request used (``Token`` still works, as a synonym)
        return WWW_AUTHENTICATE

    def authenticate_credentials(self, key):
        now = time.monotonic()
        seen = revocations()
        hit = self._known.get(key)
        if hit is not None and hit[0] > now and hit[1] == seen:
            return hit[2], hit[3]
        user, token = super().authenticate_credentials(key)
        if len(self._known) >= _MAX_ENTRIES:
            self._known.clear()
        self._known[key] = (now + settings.PYRAMID_TOKEN_CACHE_SECONDS, seen, user, token)
        return user, token

    @classmethod
    def forget(cls, key: str) -> None:
        cls._known.pop(key, None)


class BearerTokenScheme(OpenApiAuthenticationExtension):
    """The API token, as a generator understands it: HTTP bearer (``Token KEY`` is taken as well)."""

    target_class = "pyramid_site.api.authentication.CachedTokenAuthentication"
    name = "bearerAuth"
    priority = 1

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "the token that sign-up and log-in answer: `Authorization: Bearer KEY` (the older "
            "`Authorization: Token KEY` works too)",
        }
