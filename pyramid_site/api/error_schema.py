"""The errors and headers of the OpenAPI schema, from the one registry (``pyramid_site.errors.Code``).

Each code is a component of its own (``ErrorWrongPly``: its ``code`` a constant, its own fields required), and
``Error`` is their union, discriminated by ``code``. Each operation declares the codes it can answer, per status:
the codes its view names (``errors(Code.A, Code.B)`` in its ``extend_schema(responses=...)``) and the ones that
follow from the operation itself (``generic_codes``: credentials, body, query parameters, throttle, CSRF, content
negotiation, and the server's own 500 and 503). The headers answers carry are ``components/headers``, referenced
from every response that sends them.
"""

from __future__ import annotations

from http import HTTPStatus

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import IsAdminUser

from pyramid_site.errors import Code, Field

from .idempotency import IDEMPOTENCY_CODES, is_idempotent

# where a view's errors(...) puts its codes, until shape_operations replaces it by the codes' union
CODES_KEY = "x-error-codes"
# the older marker (every code of its status): the schema still builds, tests/api/test_errors_and_schema.py fails
LEGACY_KEY = "x-every-code-of-its-status"
ERROR = OpenApiResponse({LEGACY_KEY: True}, description="an error: every code of its status (use errors())")


def errors(*codes: Code) -> dict[int, OpenApiResponse]:
    """The responses of a view's ``extend_schema`` for the codes its operation can answer beyond the generic ones
    (``responses={200: GameOutput, **errors(Code.GAME_NOT_FOUND, Code.GAME_OVER)}``), by status."""
    by_status: dict[int, list[str]] = {}
    for code in codes:
        by_status.setdefault(code.status, []).append(code.value)
    return {status: OpenApiResponse({CODES_KEY: values}) for status, values in by_status.items()}


def component_name(code: Code) -> str:
    """``wrong_ply`` -> ``ErrorWrongPly``."""
    return "Error" + "".join(part.capitalize() for part in code.value.split("_"))


def _ref(code: Code) -> dict:
    return {"$ref": f"#/components/schemas/{component_name(code)}"}


def _field_schema(field: Field) -> dict:
    schema: dict = {"type": [field.type, "null"] if field.nullable else field.type, "description": field.description}
    if field.format:
        schema["format"] = field.format
    if field.type == "object":
        schema["additionalProperties"] = {}  # any value: a list of messages, or a nested object
    return schema


def code_component(code: Code) -> dict:
    properties = {
        "code": {"type": "string", "const": code.value, "description": "stable: clients branch on it"},
        "message": {"type": "string", "description": "for people; may change"},
        **{name: _field_schema(field) for name, field in code.fields.items()},
    }
    required = ["code", "message", *(name for name, field in code.fields.items() if field.required)]
    return {
        "type": "object",
        "description": f"{code.status} `{code.value}`: {code.description}",
        "properties": properties,
        "required": required,
    }


def union(codes: list[Code]) -> dict:
    """The body of an answer that is one of ``codes``: the one component, or their union by ``code``."""
    if len(codes) == 1:
        return _ref(codes[0])
    return {
        "oneOf": [_ref(code) for code in codes],
        "discriminator": {"propertyName": "code", "mapping": {code.value: _ref(code)["$ref"] for code in codes}},
    }


def error_components() -> dict:
    """Every code's component, ``Error`` (any of them) and ``ErrorCodeEnum`` (every code)."""
    components = {component_name(code): code_component(code) for code in Code}
    components["Error"] = {
        **union(list(Code)),
        "description": 'Any error the API answers: `code` says which (docs/api.md, "Errors").',
    }
    components["ErrorCodeEnum"] = {
        "type": "string",
        "enum": [code.value for code in Code],
        "description": 'every error code (docs/api.md, "Errors")',
    }
    return components


# status -> what an error of it means (each operation's response of that status lists its own codes)
STATUS_MEANINGS = {
    400: "The request is wrong: a field, a parameter, a date, a deal number or the body itself.",
    401: "No credentials, or a token that is unknown or revoked: send `Authorization: Bearer KEY` (or `Token KEY`) "
    "with the token of sign-up or log-in.",
    403: "Not allowed to you (staff only, members only, practice only), or a session write without its CSRF token.",
    404: "Nothing of this id or name that you may see.",
    406: "The answer cannot be given in a media type the `Accept` header takes: the API answers JSON.",
    409: "The request conflicts with the state of things.",
    413: "The body is over the limit (`PYRAMID_API_MAX_BODY_BYTES`, 64 KiB by default).",
    415: "The body is not JSON: send `Content-Type: application/json`.",
    422: "The request is understood but refused (a move the rules refuse: the message gives the engine's reason). "
    "Nothing changed.",
    429: "Too many requests: wait `retry_after_seconds` (also the `Retry-After` header).",
    500: "Something went wrong on our side; `request_id` finds it in the log.",
    503: "A part the service needs is not answering: send the same request again after `Retry-After` seconds (every "
    "write is safe to send twice).",
}

# --- headers -------------------------------------------------------------------------------------------------------
HEADERS: dict[str, dict] = {
    "X-Request-ID": {
        "description": "this request's id: the log's lines about it carry it (and a 500's `request_id`)",
        "required": True,
        "schema": {"type": "string"},
    },
    "X-API-Version": {
        "description": "the API's version (this schema's `info.version`; docs/api-changelog.md)",
        "required": True,
        "schema": {"type": "string"},
    },
    "Content-Language": {
        "description": "the language of the answer's words (`Accept-Language` or the account's `language`)",
        "required": True,
        "schema": {"type": "string"},
    },
    "Location": {
        "description": "the address of what was made, or where to read it again",
        "required": True,
        "schema": {"type": "string", "format": "uri-reference"},
    },
    "Retry-After": {
        "description": "seconds to wait before sending the request again",
        "required": True,
        "schema": {"type": "integer", "minimum": 0},
    },
    "WWW-Authenticate": {
        "description": 'the scheme to authenticate with: `Bearer realm="api"`',
        "required": True,
        "schema": {"type": "string"},
    },
}
# on an answer of a status where only some codes say when to try again (409 `idempotency_key_in_flight`)
RETRY_AFTER_SOMETIMES = {
    "description": "seconds to wait, where the code carries `retry_after_seconds`",
    "schema": {"type": "integer", "minimum": 0},
}
# on every answer of the service (its middleware's)
EVERY_ANSWER = ("X-Request-ID", "X-API-Version", "Content-Language")
# error statuses that always say when to try again
RETRY_STATUSES = {429, 503}


def location(*statuses: int) -> OpenApiParameter:
    """The ``Location`` header of a view's answers of ``statuses`` (201 by default), for ``parameters=[...]``."""
    return OpenApiParameter(
        "Location",
        OpenApiTypes.STR,
        OpenApiParameter.HEADER,
        response=list(statuses or [201]),
        description=HEADERS["Location"]["description"],
    )


def _header_ref(name: str) -> dict:
    return {"$ref": f"#/components/headers/{name}"}


def response_headers(response: dict, status: int, *, error: bool, words: bool = True) -> None:
    """The headers ``response`` declares, as references: its own (``location()``), every answer's, and those of its
    status. ``words`` false: an answer made before the request's language is read (the health probes), without
    ``Content-Language``."""
    names = [name for name in response.get("headers", {}) if name in HEADERS]
    names += [name for name in EVERY_ANSWER if words or name != "Content-Language"]
    if error and status in RETRY_STATUSES:
        names.append("Retry-After")
    if status == 401:
        names.append("WWW-Authenticate")
    headers = {name: value for name, value in response.get("headers", {}).items() if name not in HEADERS}
    response["headers"] = {**{name: _header_ref(name) for name in sorted(set(names))}, **headers}


# --- the codes of an operation ----------------------------------------------------------------------------------------
UNSAFE_METHODS = {"post", "put", "patch", "delete"}
BODY_CODES = (Code.INVALID, Code.MALFORMED_BODY, Code.BODY_TOO_LARGE, Code.UNSUPPORTED_MEDIA_TYPE)


def generic_codes(operation: dict, view, method: str) -> set[Code]:
    """The codes an operation can answer whatever its view does: the server's own (500, 503, and 400 for a request
    it cannot read); and for an API view: 406 from content negotiation, 401 where credentials are needed (or taken:
    an unknown token is a 401 even where none is needed), 403 on staff operations and on writes that take a session
    cookie (its CSRF check), the body's codes where it takes one, `bad_parameter` where it takes query parameters,
    `not_found` where it has path parameters (a value outside the parameter's pattern or range), `throttled`
    where it is throttled, and the `Idempotency-Key` codes where it takes one."""
    codes = {Code.SERVER_ERROR, Code.DATABASE_UNAVAILABLE, Code.BAD_REQUEST}
    if view is None:
        return codes
    codes.add(Code.NOT_ACCEPTABLE)
    authenticators = getattr(view, "authentication_classes", None) or []
    if operation.get("security"):
        codes.add(Code.NOT_AUTHENTICATED)
    if operation.get("security") or authenticators:
        codes.add(Code.AUTHENTICATION_FAILED)
    if method in UNSAFE_METHODS and any(issubclass(cls, SessionAuthentication) for cls in authenticators):
        codes.add(Code.FORBIDDEN)
    if any(issubclass(permission, IsAdminUser) for permission in getattr(view, "permission_classes", [])):
        codes.add(Code.FORBIDDEN)
    if "requestBody" in operation:
        codes.update(BODY_CODES)
    parameters = operation.get("parameters", [])
    if any(parameter.get("in") == "query" for parameter in parameters):
        codes.add(Code.BAD_PARAMETER)
    if any(parameter.get("in") == "path" for parameter in parameters):
        codes.add(Code.NOT_FOUND)
    # a view may count some of its methods only (a visitor's reads: `visitors.VisitorReadable`)
    if getattr(view, "throttle_classes", None) and method in getattr(view, "throttled_methods", {method}):
        codes.add(Code.THROTTLED)
    if is_idempotent(getattr(view, method, None)):
        codes.update(IDEMPOTENCY_CODES)
    return codes


def named_codes(operation: dict) -> tuple[set[Code], bool]:
    """The codes the operation's view names (``errors()``), and whether it used the older ``ERROR`` marker."""
    codes: set[Code] = set()
    legacy = False
    for status, response in operation.get("responses", {}).items():
        schema = response.get("content", {}).get("application/json", {}).get("schema", {})
        if CODES_KEY in schema:
            codes.update(Code.of(value) for value in schema[CODES_KEY])
        elif LEGACY_KEY in schema:
            codes.update(code for code in Code if str(code.status) == status)
            legacy = True
    return codes, legacy


def error_responses(codes: set[Code], *, words: bool = True) -> dict[str, dict]:
    """The operation's error responses: one per status, its body the union of its codes."""
    responses = {}
    for status in sorted({code.status for code in codes}):
        of_status = [code for code in Code if code in codes and code.status == status]
        listed = ", ".join(f"`{code.value}`" for code in of_status)
        meaning = STATUS_MEANINGS.get(status, f"{HTTPStatus(status).phrase}.")
        response: dict = {
            "description": f"{meaning} Codes: {listed}.",
            "content": {"application/json": {"schema": union(of_status)}},
        }
        response_headers(response, status, error=True, words=words)
        if status not in RETRY_STATUSES and any("retry_after_seconds" in code.fields for code in of_status):
            response["headers"]["Retry-After"] = RETRY_AFTER_SOMETIMES
        responses[str(status)] = response
    return responses
