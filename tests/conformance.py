"""Every answer the tests see, checked against the OpenAPI schema: a middleware the ``schema_conformance_check``
fixture puts first in the stack (around everything else, so it sees the answer as a client does, every header
on it) compares each answer of an operation the schema declares with the schema's description of its status,
and the fixture fails the test on any difference.

Strictly: an answer's status must be declared for its operation (405 excepted: a method the operation does not
have is no operation), and an error's ``code`` must be one the operation declares for that status; its JSON body
must validate against the declared schema with every object closed (``additionalProperties: false`` wherever the
schema does not say otherwise: a field the schema does not declare is a failure), formats checked too (dates,
times, e-mail addresses); every header of ``CHECKED_HEADERS`` the answer sends must be declared on the response,
and every header the response declares required must be sent.
"""

from __future__ import annotations

import copy
import json
import re
from functools import cache

from openapi_schema_validator import OAS31Validator, oas31_format_checker

MIDDLEWARE = "tests.conformance.SchemaConformanceMiddleware"
UNDECLARED_ALLOWED = {405}
# the headers a client reads, so each must be declared wherever it is sent (and the RateLimit family, by prefix)
CHECKED_HEADERS = {
    "location",
    "retry-after",
    "x-api-version",
    "x-request-id",
    "content-language",
    "www-authenticate",
    "deprecation",
    "sunset",
}
CHECKED_PREFIXES = ("ratelimit",)
problems: list[str] = []
seen: dict[tuple[str, str, int], int] = {}


@cache
def schema() -> dict:
    from drf_spectacular.generators import SchemaGenerator

    return SchemaGenerator().get_schema(request=None, public=True)


def _closed(node):
    """``node`` with every object schema closed: ``additionalProperties: false`` where it has properties and says
    nothing of others."""
    if isinstance(node, dict):
        node = {key: _closed(value) for key, value in node.items()}
        if isinstance(node.get("properties"), dict) and "additionalProperties" not in node:
            node["additionalProperties"] = False
        return node
    if isinstance(node, list):
        return [_closed(value) for value in node]
    return node


@cache
def closed_components() -> dict:
    return _closed(copy.deepcopy(schema()["components"]))


@cache
def _routes() -> dict[str, str]:
    """The URL patterns' routes (Django's ``resolver_match.route``) -> the schema's paths."""
    from drf_spectacular.generators import SchemaGenerator

    generator = SchemaGenerator()
    generator._initialise_endpoints()
    # (a regular expression's route is joined without its "^", as Django's resolver_match.route has it)
    routes = {re.sub(r"(^|/)\^", r"\1", route): path for path, route, _, _ in generator.endpoints}
    # the plain Django views the schema describes (API index, health): routes without parameters
    routes |= {path.removeprefix("/"): path for path in schema()["paths"] if "{" not in path}
    return routes


def operation_of(request) -> tuple[str, dict] | None:
    match = getattr(request, "resolver_match", None)
    template = _routes().get(match.route) if match is not None else None
    if template is None:
        return None
    operation = schema()["paths"].get(template, {}).get(request.method.lower())
    return None if operation is None else (template, operation)


def _resolve(node: dict) -> dict:
    while "$ref" in node:
        target = schema()
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = target
    return node


def _response(template: str, method: str, status: str) -> dict:
    return _resolve(schema()["paths"][template][method]["responses"][status])


@cache
def validator(template: str, method: str, status: str) -> OAS31Validator | None:
    body = _response(template, method, status).get("content", {}).get("application/json", {}).get("schema")
    if body is None:
        return None
    return OAS31Validator({**_closed(body), "components": closed_components()}, format_checker=oas31_format_checker)


def error_validator() -> OAS31Validator:
    return OAS31Validator(
        {"$ref": "#/components/schemas/Error", "components": closed_components()}, format_checker=oas31_format_checker
    )


@cache
def code_validator(code: str) -> OAS31Validator:
    from pyramid_site.api.error_schema import component_name
    from pyramid_site.errors import Code

    return OAS31Validator(
        {"$ref": f"#/components/schemas/{component_name(Code.of(code))}", "components": closed_components()},
        format_checker=oas31_format_checker,
    )


@cache
def declared_codes(template: str, method: str, status: str) -> frozenset[str]:
    """The error codes an operation declares for a status: its body's alternatives' constant ``code``."""
    body = _response(template, method, status).get("content", {}).get("application/json", {}).get("schema", {})
    alternatives = body.get("oneOf", [body])
    codes = (_resolve(alternative).get("properties", {}).get("code", {}).get("const") for alternative in alternatives)
    return frozenset(code for code in codes if code is not None)


@cache
def declared_headers(template: str, method: str, status: str) -> dict[str, dict]:
    headers = _response(template, method, status).get("headers", {})
    return {name.lower(): _resolve(header) for name, header in headers.items()}


def _checked(header: str) -> bool:
    return header in CHECKED_HEADERS or header.startswith(CHECKED_PREFIXES)


def check_headers(where: str, template: str, method: str, status: int, sent: set[str]) -> None:
    declared = declared_headers(template, method, str(status))
    for header in sorted(name for name in sent if _checked(name) and name not in declared):
        problems.append(f"{where}: header {header} sent but not declared for {method.upper()} {template} {status}")
    for header in sorted(name for name, spec in declared.items() if spec.get("required") and name not in sent):
        problems.append(f"{where}: header {header} declared required but not sent")


def check(request, response) -> None:
    found = operation_of(request)
    if found is None:
        return
    status, content_type = response.status_code, response.get("Content-Type", "")
    content = response.content
    method, path = request.method, request.path
    template, operation = found
    seen[(method.upper(), template, status)] = seen.get((method.upper(), template, status), 0) + 1
    where = f"{method.upper()} {path} -> {status}"
    declared = str(status) in operation["responses"]
    if not declared and status not in UNDECLARED_ALLOWED:
        problems.append(f"{where}: status not declared for {method.upper()} {template}")
        return
    if declared:
        check_headers(where, template, method.lower(), status, {name.lower() for name, _ in response.items()})
    if not content:
        if declared and validator(template, method.lower(), str(status)) is not None:
            problems.append(f"{where}: empty body where the schema declares one")
        return
    if not content_type.startswith("application/json"):
        problems.append(f"{where}: {content_type} body, not JSON")
        return
    check_validator = validator(template, method.lower(), str(status)) if declared else error_validator()
    if check_validator is None:
        problems.append(f"{where}: a body where the schema declares none")
        return
    body = json.loads(content)
    if status >= 400 and isinstance(body, dict) and isinstance(body.get("code"), str):
        if declared and body["code"] not in declared_codes(template, method.lower(), str(status)):
            problems.append(f"{where}: code {body['code']} not declared for {method.upper()} {template} {status}")
            return
        if declared:  # the code's own component, for a precise message
            check_validator = code_validator(body["code"])
    errors = sorted(check_validator.iter_errors(body), key=lambda e: list(e.absolute_path))
    for error in errors[:3]:
        at = "/".join(str(part) for part in error.absolute_path) or "<body>"
        problems.append(f"{where}: at {at}: {error.message[:300]}")


class SchemaConformanceMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if not getattr(response, "streaming", False):
            check(request, response)
        return response
