"""The admin's log-in page, behind the log-in throttles of the API (per client address and per account's
canonical name, ``PYRAMID_THROTTLE_LOGIN``): a password guessed at ``/admin/login/`` costs what one guessed at
``/api/accounts/login/`` does. A throttled guess is answered 429 in the API's JSON shape."""

from __future__ import annotations

import math

from django.contrib import admin
from rest_framework.exceptions import Throttled

from pyramid_site.api.throttles import AddressThrottle, UsernameThrottle
from pyramid_site.errors import Code, error_json
from pyramid_site.metrics import ERRORS


class _LoginScope:
    throttle_scope = "login"


def admin_login(request, extra_context=None):
    if request.method == "POST":
        waits = [
            throttle.wait()
            for throttle in (AddressThrottle(), UsernameThrottle())
            if not throttle.allow_request(request, _LoginScope)
        ]
        if waits:
            wait = math.ceil(max(wait or 0 for wait in waits))
            ERRORS.labels(Code.THROTTLED.value).inc()
            return error_json(
                Code.THROTTLED,
                message=str(Throttled(wait).detail),
                retry_after_seconds=wait,
                headers={"Retry-After": str(wait)},
            )
    return admin.site.login(request, extra_context)
