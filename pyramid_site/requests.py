"""Every request gets an id (``X-Request-ID`` on its answer, and on every log line written while it
runs), and the answers Django itself gives (400, 403, 404, 500) are JSON ``{code, message}`` like the
API's, the 500 with the request id so an operator can find its traceback; the 404 in every mode, ``DEBUG`` too."""

from __future__ import annotations

import contextvars
import logging
import uuid

from django.conf import settings

from pyramid_site.errors import Code, error_json

_request_id = contextvars.ContextVar("request_id", default="-")
log = logging.getLogger("pyramid_site.requests")


class RequestIdMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.id = uuid.uuid4().hex
        token = _request_id.set(request.id)
        try:
            response = self.get_response(request)
        finally:
            _request_id.reset(token)
        response["X-Request-ID"] = request.id
        return response


class RequestIdFilter(logging.Filter):
    """Puts the id of the request being served on every log record (``%(request_id)s``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = _request_id.get()
        return True


def current_request_id() -> str:
    return _request_id.get()


class UnreadableRequestMiddleware:
    """A request whose path or query holds a NUL byte is answered 400 ``bad_request`` before any view reads it:
    no database column takes a NUL, and no address of the service has one."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        query = request.META.get("QUERY_STRING", "")
        if "\x00" in request.path or "\x00" in query or "%00" in query:
            return error_json(Code.BAD_REQUEST, message="a NUL byte in the address or its query")
        return self.get_response(request)


class NotFoundInEveryModeMiddleware:
    """An address nothing answers is the JSON 404 ``not_found`` with ``DEBUG`` on too: Django then answers it with
    its own HTML page instead of ``not_found`` below, which no client of the API can read. Inside the
    ``CommonMiddleware`` (its slash redirect sees the 404 first) and the locale's (``Content-Language``)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code == 404 and settings.DEBUG and response.get("Content-Type", "").startswith("text/html"):
            return not_found(request)
        return response


def bad_request(request, exception=None):
    return error_json(Code.BAD_REQUEST, message="the request could not be read")


def forbidden(request, exception=None):
    return error_json(Code.FORBIDDEN, message="you may not do this")


def not_found(request, exception=None):
    return error_json(Code.NOT_FOUND, message=f"there is nothing at {request.path}")


def server_error(request):
    return error_json(
        Code.SERVER_ERROR,
        request_id=current_request_id(),
        message="something went wrong on our side; it is logged under this request id",
    )


def csrf_failure(request, reason=""):
    return error_json(
        Code.CSRF_FAILED,
        message=f"the CSRF check failed: {reason}; send the csrftoken cookie's value in the X-CSRFToken header",
    )
