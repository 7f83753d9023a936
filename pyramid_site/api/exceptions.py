"""Every error of the API is a JSON body ``{"code", "message", ...}`` with a stable code."""

from __future__ import annotations

from django.db import InterfaceError, OperationalError
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from .errors import ServiceError

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
        return _first_message(detail[0]) if detail else "invalid input"
    return str(detail)


def exception_handler(exc, context):
    if isinstance(exc, ServiceError):
        return Response({"code": exc.code, "message": exc.message, **exc.extra}, status=exc.status)
    if isinstance(exc, (OperationalError, InterfaceError)):
        # The database is restarting or out of reach: say so, and that the same request can be sent
        # again. That is safe for every write: a move that did go through is answered as already
        # applied, and the rest were not written.
        set_rollback()
        return Response({"code": "database_unavailable",
                         "message": "the database is not answering; send the same request again in a moment"},
                        status=status.HTTP_503_SERVICE_UNAVAILABLE, headers={"Retry-After": "1"})
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = {"code": "invalid", "message": _first_message(exc.detail), "fields": exc.detail}
        response.status_code = status.HTTP_400_BAD_REQUEST
        return response
    code = next((c for cls, c in _CODES.items() if isinstance(exc, cls)), "error")
    body = {"code": code, "message": str(exc.detail)}
    if isinstance(exc, exceptions.Throttled) and exc.wait is not None:
        body["retry_after_seconds"] = int(exc.wait)
    response.data = body
    return response
