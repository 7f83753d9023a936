"""Refusals of the services: each has a stable ``code``, a readable message and an HTTP status; the API's
exception handler (``exceptions``) answers them as ``{"code", "message", ...}``."""

from __future__ import annotations


class ServiceError(Exception):
    status = 400
    code = "invalid"

    def __init__(self, message: str, *, code: str | None = None, **extra):
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        self.extra = extra


class NotFound(ServiceError):
    status = 404
    code = "not_found"


class Invalid(ServiceError):
    status = 400
    code = "invalid"


class Conflict(ServiceError):
    status = 409
    code = "conflict"


class Forbidden(ServiceError):
    status = 403
    code = "forbidden"


class Unauthorized(ServiceError):
    status = 401
    code = "not_authenticated"
