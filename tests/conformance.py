"""Every answer the tests see, checked against the OpenAPI schema: a middleware the ``schema_conformance_check``
fixture puts last in the stack (around the views) compares each answer of an operation the schema declares
with the schema's description of its status, and the fixture fails the test on any difference.

An answer's status must be declared (405 and 406 excepted: no client of the schema sends a method or an
``Accept`` it does not declare; their bodies must still be an ``Error``), and its JSON body must validate
against the declared schema (formats checked too: dates, times, e-mail addresses).
"""

from __future__ import annotations

import json
import re
from functools import cache

from openapi_schema_validator import OAS31Validator, oas31_format_checker

MIDDLEWARE = "tests.conformance.SchemaConformanceMiddleware"
UNDECLARED_ALLOWED = {405, 406}
problems: list[str] = []
seen: dict[tuple[str, str, int], int] = {}


@cache
def schema() -> dict:
    from drf_spectacular.generators import SchemaGenerator

    return SchemaGenerator().get_schema(request=None, public=True)


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


@cache
def validator(template: str, method: str, status: str) -> OAS31Validator | None:
    response = _resolve(schema()["paths"][template][method]["responses"][status])
    body = response.get("content", {}).get("application/json", {}).get("schema")
    if body is None:
        return None
    return OAS31Validator({**body, "components": schema()["components"]}, format_checker=oas31_format_checker)


def error_validator() -> OAS31Validator:
    return OAS31Validator({"$ref": "#/components/schemas/Error", "components": schema()["components"]},
                          format_checker=oas31_format_checker)


def check(request, status: int, content_type: str, content: bytes) -> None:
    found = operation_of(request)
    if found is None:
        return
    method, path = request.method, request.path
    template, operation = found
    seen[(method.upper(), template, status)] = seen.get((method.upper(), template, status), 0) + 1
    where = f"{method.upper()} {path} -> {status}"
    declared = str(status) in operation["responses"]
    if not declared and status not in UNDECLARED_ALLOWED:
        problems.append(f"{where}: status not declared for {method.upper()} {template}")
        return
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
            check(request, response.status_code, response.get("Content-Type", ""), response.content)
        return response
