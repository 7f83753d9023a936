"""Rate limits a client can read: the ``RateLimit-Policy`` and ``RateLimit`` response headers of the IETF draft
"RateLimit header fields for HTTP" (draft-ietf-httpapi-ratelimit-headers, Structured Fields syntax), on every
answer of a throttled operation once its throttles have counted the request, the 429 included.

Each throttle that counts a request notes its policy and what is left of it on the request (``note``); the
middleware writes them out, one list item per policy (a view counted by several lists each):

    RateLimit-Policy: "game_start";q=60;w=60, "game_start_address";q=300;w=60
    RateLimit: "game_start";r=12;t=41, "game_start_address";r=287;t=41

``q`` is the policy's quota of requests in ``w`` seconds, ``r`` how many more it takes now, and ``t`` the seconds
until it takes more than ``r`` (with ``r=0``, until one more request is taken: the 429's ``Retry-After``). A
client that sends no request while ``r`` is 0 until ``t`` seconds have passed meets no 429.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import http_sf

from .schema_headers import declare_headers

POLICY_HEADER = "RateLimit-Policy"
STATE_HEADER = "RateLimit"
_NOTED = "pyramid_rate_limits"  # the attribute of Django's request the throttles' notes are kept in


@dataclass(frozen=True, slots=True)
class RateLimit:
    """One policy's quota, and what is left of it after the request."""

    policy: str
    quota: int
    window: int  # seconds
    remaining: int
    reset: int  # seconds


def note(request, *, policy: str, quota: int, window: float, remaining: float, reset: float) -> None:
    """Note a throttle's count of ``request`` (DRF's request or Django's), for the answer's headers."""
    django_request = getattr(request, "_request", request)
    noted = getattr(django_request, _NOTED, None)
    if noted is None:
        noted = {}
        setattr(django_request, _NOTED, noted)
    noted[policy] = RateLimit(policy, quota, math.ceil(window), max(math.floor(remaining), 0), max(math.ceil(reset), 0))


def headers_of(request) -> dict[str, str]:
    """The RateLimit headers of what the throttles noted on ``request`` (none when nothing counted it)."""
    noted = getattr(request, _NOTED, None)
    if not noted:
        return {}
    limits = list(noted.values())
    return {
        POLICY_HEADER: http_sf.ser([(limit.policy, {"q": limit.quota, "w": limit.window}) for limit in limits]),
        STATE_HEADER: http_sf.ser([(limit.policy, {"r": limit.remaining, "t": limit.reset}) for limit in limits]),
    }


class RateLimitHeadersMiddleware:
    """Writes the throttles' notes as ``RateLimit-Policy`` and ``RateLimit`` on the answer."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        for name, value in headers_of(request).items():
            response[name] = value
        return response


HEADERS = {
    POLICY_HEADER: {
        "schema": {"type": "string"},
        "description": 'the rate-limit policies that counted this request, each as `"name";q=QUOTA;'
        "w=SECONDS`: QUOTA requests in SECONDS (draft-ietf-httpapi-ratelimit-headers; "
        'docs/api.md, "Rate limits")',
    },
    STATE_HEADER: {
        "schema": {"type": "string"},
        "description": 'what is left of each policy, as `"name";r=REMAINING;t=SECONDS`: REMAINING '
        "more requests now, more after SECONDS; with `r=0` wait SECONDS before the next "
        "request",
    },
}


def _policies(view_class, method: str) -> list[str]:
    """The policies the view's throttles count a ``method`` request by: the throttles of a view made for a
    stand-in request of that method (a view may choose them by method, as starting a game does)."""
    if method not in getattr(view_class, "throttled_methods", {method}):
        return []
    view = view_class()
    view.request = type("StandIn", (), {"method": method.upper()})()
    view.args, view.kwargs = (), {}
    policies: list[str] = []
    for throttle in view.get_throttles():
        described = getattr(throttle, "policies", None)
        policies += described(view) if described is not None else []
    return policies


def declare_rate_limit_headers(result, generator, request, public):
    """drf-spectacular post-processing, after ``schema.shape_operations``: ``RateLimit-Policy`` and
    ``RateLimit`` on every answer of a throttled operation (a header declared is one that may come), and the
    operation's policies named in its description."""
    for path, _, method, callback in generator.endpoints or []:
        view_class = getattr(callback, "cls", None)
        operation = result["paths"].get(path, {}).get(method.lower())
        policies = _policies(view_class, method.lower()) if view_class is not None else []
        if operation is None or not policies:
            continue
        for answer in operation["responses"].values():
            declare_headers(result, answer, HEADERS)
        names = ", ".join(f"`{policy}`" for policy in policies)
        operation["description"] = (
            operation.get("description", "") + f"\n\nRate limits: {names} "
            "(the `RateLimit-Policy` and `RateLimit` headers)."
        ).lstrip()
    return result
