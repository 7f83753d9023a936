"""The language of an answer (docs/api.md, "Languages"): the browser's explicit choice (the page's cookie), else the
request's ``Accept-Language``, else the account's chosen language, else English.

Django's ``LocaleMiddleware`` reads the cookie and ``Accept-Language``. A client that sends neither (a script,
a bot) is answered in the language its account chose; that needs the account, which for a token is known only
to DRF's authentication, in the view. So this middleware reads the token itself, through the same remembered
token look-up, only when the request names no language and carries credentials.
"""

from __future__ import annotations

from django.conf import settings
from django.utils import translation
from rest_framework.exceptions import APIException

from pyramid_site.api.authentication import CachedTokenAuthentication

from .selectors import account_language

LANGUAGE_CODES = [code for code, _ in settings.LANGUAGES]


def _request_user(request):
    try:
        found = CachedTokenAuthentication().authenticate(request)
    except APIException:  # a bad token: the view answers 401, in the default language
        return None
    if found is not None:
        return found[0]
    return getattr(request, "user", None)


class AccountLanguageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        named = request.META.get("HTTP_ACCEPT_LANGUAGE") or settings.LANGUAGE_COOKIE_NAME in request.COOKIES
        if not named and ("HTTP_AUTHORIZATION" in request.META or settings.SESSION_COOKIE_NAME in request.COOKIES):
            language = account_language(_request_user(request))
            if language:
                translation.activate(language)
                request.LANGUAGE_CODE = language
        return self.get_response(request)
