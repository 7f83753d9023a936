"""Every error of the API is a JSON body ``{"code", "message", ...}`` with a stable code; an error
nobody foresaw is a JSON 500 with the request's id, logged with its traceback under that id."""

from __future__ import annotations

import logging

from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import Http404
from django.utils.translation import gettext
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from pyramid_site.metrics import ERRORS
from pyramid_site.requests import current_request_id

from .errors import ServiceError

log = logging.getLogger(__name__)

_CODES = {
    exceptions.ParseError: "malformed_body",
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "authentication_failed",
    exceptions.PermissionDenied: "forbidden",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "throttled",
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
    return response


def _answer(exc, context):
    if isinstance(exc, ServiceError):
        return Response({"code": exc.code, "message": exc.message, **exc.extra}, status=exc.status)
    if isinstance(exc, (OperationalError, InterfaceError)):
        # The database is restarting or out of reach: say so, and that the same request can be sent
        # again. That is safe for every write: a move that did go through is answered as already
        # applied, and the rest were not written.
        set_rollback()
        return Response({"code": "database_unavailable",
                         "message": gettext("the database is not answering; send the same request again in a moment")},
                        status=status.HTTP_503_SERVICE_UNAVAILABLE, headers={"Retry-After": "1"})
    if isinstance(exc, RequestDataTooBig):
        return Response({"code": "body_too_large", "message": str(exc)},
                        status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    if isinstance(exc, Http404):  # raised by Django's helpers, and DRF's own negotiation: a 404 like the others
        exc = exceptions.NotFound()
    response = drf_exception_handler(exc, context)
    if response is None:
        set_rollback()
        log.error("unhandled error in %s", context.get("view").__class__.__name__, exc_info=exc)
        return Response({"code": "server_error", "request_id": current_request_id(),
                         "message": gettext("something went wrong on our side; it is logged under this request id")},
                        status=status.HTTP_500_INTERNAL_SERVER_ERROR)
    if isinstance(exc, exceptions.ValidationError):
        response.data = {"code": "invalid", "message": _first_message(exc.detail), "fields": exc.detail}
        response.status_code = status.HTTP_400_BAD_REQUEST
        return response
    code = next((c for cls, c in _CODES.items() if isinstance(exc, cls)), "bad_request")
    body = {"code": code, "message": str(exc.detail)}
    if isinstance(exc, exceptions.Throttled) and exc.wait is not None:
        body["retry_after_seconds"] = int(exc.wait)
    response.data = body
    return response
