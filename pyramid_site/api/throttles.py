"""Throttles nobody can dodge by sending headers: the client address is the socket's
(``REMOTE_ADDR``) unless ``DJANGO_PROXY_COUNT`` trusted proxies stand in front, and then the address
the nearest of them saw (DRF's ``NUM_PROXIES``, set from that variable). A logged-in request is also
counted against its account, so changing address does not reset an account's allowance."""

from __future__ import annotations

import hashlib
import unicodedata

from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle


class _LiveRates:
    """The rates as the settings say now (DRF's own class reads them once, at import)."""

    @property
    def THROTTLE_RATES(self):  # noqa: N802 - DRF's name
        return api_settings.DEFAULT_THROTTLE_RATES


class AddressThrottle(_LiveRates, ScopedRateThrottle):
    """Counted per client address, whoever is logged in (sign-up, log-in)."""

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": f"ip:{self.get_ident(request)}"}


class AccountThrottle(_LiveRates, ScopedRateThrottle):
    """Counted per account (hints, solving on request); per address for anyone else."""

    def get_cache_key(self, request, view):
        user = getattr(request, "user", None)
        ident = f"user:{user.pk}" if user is not None and user.is_authenticated else f"ip:{self.get_ident(request)}"
        return self.cache_format % {"scope": self.scope, "ident": ident}


class UsernameThrottle(_LiveRates, ScopedRateThrottle):
    """Counted per account name asked for in the body (log-in), whichever address asks."""

    def get_cache_key(self, request, view):
        username = request.data.get("username") if isinstance(request.data, dict) else None
        if not isinstance(username, str) or not username.strip():
            return None
        ident = hashlib.sha256(unicodedata.normalize("NFKC", username).strip().casefold().encode()).hexdigest()
        return self.cache_format % {"scope": self.scope, "ident": f"name:{ident}"}
