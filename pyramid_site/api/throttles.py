"""Throttles nobody can dodge by sending headers: the client address is the socket's
(``REMOTE_ADDR``) unless ``DJANGO_PROXY_COUNT`` trusted proxies stand in front, and then the address
the nearest of them saw (DRF's ``NUM_PROXIES``, set from that variable). A logged-in request is also
counted against its account, so changing address does not reset an account's allowance."""

from __future__ import annotations

import hashlib

from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle

from pyramid_site.names import canonical_name

from .rate_limits import note


class _LiveRates:
    """The rates as the settings say now (DRF's own class reads them once, at import)."""

    @property
    def THROTTLE_RATES(self):  # DRF's name
        return api_settings.DEFAULT_THROTTLE_RATES


class _Announced:
    """Notes its count on the request, for the answer's RateLimit headers (``rate_limits``): its policy is its
    scope (and ``policy_suffix``), ``r`` the requests left in the window, ``t`` the seconds until the oldest one
    counted leaves it."""

    policy_suffix = ""

    def policies(self, view) -> list[str]:
        """The policy it counts ``view``'s requests by (declared whether or not its scope has a rate now: the
        schema does not change with the settings of one deployment)."""
        return [f"{getattr(view, 'throttle_scope', '')}{self.policy_suffix}"]

    def allow_request(self, request, view):
        allowed = super().allow_request(request, view)  # type: ignore[misc]  # beside one of DRF's throttles
        if getattr(self, "key", None) is not None:  # a rate, and someone to count it against: counted
            history = self.history
            note(
                request,
                policy=f"{self.scope}{self.policy_suffix}",
                quota=self.num_requests,
                window=self.duration,
                remaining=self.num_requests - len(history),
                reset=self.duration - (self.now - history[-1]) if history else 0,
            )
        return allowed


class AddressThrottle(_Announced, _LiveRates, ScopedRateThrottle):
    """Counted per client address, whoever is logged in (sign-up, log-in)."""

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": f"ip:{self.get_ident(request)}"}


class AccountThrottle(_Announced, _LiveRates, ScopedRateThrottle):
    """Counted per account (hints, solving on request); per address for anyone else."""

    def get_cache_key(self, request, view):
        user = getattr(request, "user", None)
        ident = f"user:{user.pk}" if user is not None and user.is_authenticated else f"ip:{self.get_ident(request)}"
        return self.cache_format % {"scope": self.scope, "ident": ident}


class UsernameThrottle(_Announced, _LiveRates, ScopedRateThrottle):
    """Counted per account asked for (log-in), whichever address asks: by the name's canonical key, the one
    the database keeps unique (``names.canonical_name``), so no spelling of a name (its case, width or
    look-alike letters) is a fresh allowance. Reads the JSON body of the API's log-ins and the form of the
    admin's. A name that is not text has no account to count against: the log-in refuses it (400), and the
    address throttle beside this one counts it."""

    policy_suffix = "_name"

    def get_cache_key(self, request, view):
        data = request.data if isinstance(request, Request) else request.POST
        username = data.get("username") if hasattr(data, "get") else None
        if not isinstance(username, str) or not username.strip():
            return None
        # a name past the log-in's 150 characters is refused anyway: its head is key enough, and cheap
        ident = hashlib.sha256(canonical_name(username[:200]).encode("utf-8", "surrogatepass")).hexdigest()
        return self.cache_format % {"scope": self.scope, "ident": f"name:{ident}"}
