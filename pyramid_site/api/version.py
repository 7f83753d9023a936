"""The API's version, on every answer as ``X-API-Version`` and in the OpenAPI schema (``info.version``): one
number, ``SPECTACULAR_SETTINGS["VERSION"]``. Its major part moves when a change could break a client; every
such change is listed in docs/api-changelog.md."""

from __future__ import annotations

from django.conf import settings

HEADER = "X-API-Version"


def api_version() -> str:
    return settings.SPECTACULAR_SETTINGS["VERSION"]


class ApiVersionMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response[HEADER] = api_version()
        return response
