"""Every error of the API is a JSON body ``{"code", "message", ...}`` with a stable code, answered with the status
the registry (``pyramid_site.errors.Code``) gives that code; an error nobody foresaw is a JSON 500 with the
request's id, logged with its traceback under that id."""

from __future__ import annotations

import logging

from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import Http404
from django.utils.translation import gettext
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from pyramid_site.errors import Code, DomainError, error_body
from pyramid_site.metrics import ERRORS
from pyramid_site.requests import current_request_id

from .authentication import WWW_AUTHENTICATE

log = logging.getLogger(__name__)

# DRF's own exceptions and the codes they are answered with (any other of DRF's: `bad_request`)
DRF_CODES = {
    exceptions.ParseError: Code.MALFORMED_BODY,
    exceptions.NotAuthenticated: Code.NOT_AUTHENTICATED,
    exceptions.AuthenticationFailed: Code.AUTHENTICATION_FAILED,
    exceptions.PermissionDenied: Code.FORBIDDEN,
    exceptions.NotFound: Code.NOT_FOUND,
    exceptions.MethodNotAllowed: Code.METHOD_NOT_ALLOWED,
    exceptions.NotAcceptable: Code.NOT_ACCEPTABLE,
    exceptions.UnsupportedMediaType: Code.UNSUPPORTED_MEDIA_TYPE,
    exceptions.Throttled: Code.THROTTLED,
    exceptions.ValidationError: Code.INVALID,
}


def _first_message(detail) -> str:
    if isinstance(detail, dict):
        key, value = next(iter(detail.items()))
        inner = _first_message(value)
        return inner if key == "non_field_errors" else f"{key}: {inner}"
    if isinstance(detail, list):
        return _first_message(detail[0]) if detail else gettext("invalid input")
    return str(detail)


def exception_handler(exc, context):
    response = _answer(exc, context)
    if response is not None and isinstance(response.data, dict) and "code" in response.data:
        ERRORS.labels(response.data["code"]).inc()
    if response is not None and response.status_code == 401:
        # one challenge on every 401: a wrong password too, and a view whose only authentication is the session
        response["WWW-Authenticate"] = WWW_AUTHENTICATE
    return response


def _answer(exc, context):
    if isinstance(exc, DomainError):
        wait = exc.fields.get("retry_after_seconds")
        return _respond(
            exc.code,
            message=exc.message,
            **exc.fields,
            headers={"Retry-After": str(wait)} if wait is not None else None,
        )
    if isinstance(exc, (OperationalError, InterfaceError)):
        # The database is restarting or out of reach: say so, and that the same request can be sent
        # again. That is safe for every write: a move that did go through is answered as already
        # applied, and the rest were not written.
        set_rollback()
        log.warning("the database refused %s: %s", context["request"].path, exc)  # what the operator looks for
        return _respond(
            Code.DATABASE_UNAVAILABLE,
            headers={"Retry-After": "1"},
            message=gettext("the database is not answering; send the same request again in a moment"),
        )
    if isinstance(exc, RequestDataTooBig):
        return _respond(Code.BODY_TOO_LARGE, message=str(exc))
    if isinstance(exc, Http404):  # raised by Django's helpers, and DRF's own negotiation: a 404 like the others
        exc = exceptions.NotFound()
    response = drf_exception_handler(exc, context)
    if response is None:
        set_rollback()
        log.error("unhandled error in %s", context.get("view").__class__.__name__, exc_info=exc)
        return _respond(
            Code.SERVER_ERROR,
            request_id=current_request_id(),
            message=gettext("something went wrong on our side; it is logged under this request id"),
        )
    code = drf_code(exc)
    if code is Code.INVALID:
        body = error_body(code, message=_first_message(exc.detail), fields=exc.detail)
    else:
        body = error_body(code, message=str(exc.detail))
        if isinstance(exc, exceptions.Throttled):
            # a throttle that does not say how long: ask again in a second
            wait = int(exc.wait) if exc.wait is not None else 1
            body["retry_after_seconds"] = wait
            response["Retry-After"] = str(wait)
    response.data = body
    response.status_code = code.status
    return response


def drf_code(exc: exceptions.APIException) -> Code:
    """The code one of DRF's own exceptions is answered with."""
    return next((code for cls, code in DRF_CODES.items() if isinstance(exc, cls)), Code.BAD_REQUEST)


def _respond(code: Code, *, headers: dict | None = None, **fields) -> Response:
    """The answer to ``code``: its body, with the status the registry gives it. A code the registry does not
    know is refused here (``ValueError``), so it can never be answered."""
    code = Code.of(code)
    return Response(error_body(code, **fields), status=code.status, headers=headers)
