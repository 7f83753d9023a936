"""HTTP caching of the reads that clients poll (a game, standings, boards, the daily list, my notifications): an
``ETag`` on each answer, and ``304 Not Modified`` with no body when the request's ``If-None-Match`` names it, so a
poller that finds nothing new pays for the read but not for the transfer (docs/api.md, "Caching").

``Cache-Control`` says who may keep a copy: a signed-in reader's answer carries their own rows (``me``, ``around``)
and stays in their client (``private, no-cache``: asked again every time, answered 304 while unchanged); a visitor's
read of a board or the daily list is the same for every visitor and may be kept by shared caches for
``PYRAMID_PUBLIC_READ_SECONDS`` (``s-maxage``; browsers ask again each time; ``Vary`` keeps it from a request with
credentials)."""

from __future__ import annotations

from django.conf import settings
from django.middleware.http import ConditionalGetMiddleware
from django.utils.cache import patch_cache_control, patch_vary_headers

# the polled reads, by URL name, and whether a visitor's answer may be kept by shared caches
POLLED = {
    "game": False,
    "tournament": False,
    "tournament-standings": False,
    "me-notifications": False,
    "board-daily": True,
    "board-weekly": True,
    "board-all-time": True,
    "daily-today": True,
    "daily-on-date": True,
}


class PolledReadsMiddleware(ConditionalGetMiddleware):
    """Django's conditional GET (an ETag from the body, 304 on a match) on the polled reads alone."""

    def process_response(self, request, response):
        match = getattr(request, "resolver_match", None)
        public = POLLED.get(match.url_name) if match is not None else None
        if public is None or request.method not in ("GET", "HEAD") or response.status_code != 200:
            return response
        user = getattr(request, "user", None)
        if public and not (user is not None and user.is_authenticated) and "HTTP_AUTHORIZATION" not in request.META:
            # shared caches (a CDN, the proxy) may keep it a few seconds; browsers ask again each time (304 while
            # unchanged), so the page never shows an old answer as new, nor one kept from before it went offline
            patch_cache_control(response, public=True, max_age=0, s_maxage=settings.PYRAMID_PUBLIC_READ_SECONDS)
        else:
            patch_cache_control(response, private=True, no_cache=True)
        patch_vary_headers(response, ["Authorization", "Cookie"])
        return super().process_response(request, response)
