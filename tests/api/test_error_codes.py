"""One registry of error codes (``pyramid_site.errors.Code``): every answer takes its status from it, the docs'
table is written from it, and a code outside it can be neither raised nor answered."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from rest_framework import exceptions as drf
from rest_framework.views import exception_handler as drf_exception_handler

from pyramid_site.api import exceptions
from pyramid_site.errors import CODE_NAMES, Code, DomainError, docs_table, docs_with_table

ROOT = Path(__file__).resolve().parents[2]


def test_the_docs_table_is_the_one_the_registry_writes():
    text = (ROOT / "docs" / "api.md").read_text()
    assert docs_table() in text
    assert docs_with_table(text) == text, "docs/api.md: run tools/error_codes and commit the table it writes"


def test_every_code_is_declared_once_with_a_status_and_a_description():
    assert len(Code.__members__) == len(Code) == len(set(CODE_NAMES))  # no code is an alias of another
    for code in Code:
        assert code.value == code.name.lower() and 400 <= code.status <= 599 and code.description, code


def test_a_code_outside_the_registry_is_refused_when_raised_and_when_answered():
    with pytest.raises(ValueError):
        DomainError("no_such_code", "x")
    smuggled = DomainError(Code.CONFLICT, "x")
    smuggled.code = "no_such_code"  # past the constructor: the handler still refuses to answer it
    with pytest.raises(ValueError):
        exceptions.exception_handler(smuggled, {})


def test_a_domain_error_survives_pickling_with_its_code_and_fields():
    copy = pickle.loads(pickle.dumps(DomainError(Code.WRONG_PLY, "not the next move", expected_ply=4)))
    assert (copy.code, copy.message, copy.fields, copy.status) == (
        Code.WRONG_PLY,
        "not the next move",
        {"expected_ply": 4},
        409,
    )


@pytest.mark.parametrize("code", list(Code), ids=CODE_NAMES)
def test_a_domain_error_is_answered_with_the_status_of_its_code(code):
    answer = exceptions.exception_handler(DomainError(code, "why", expected_ply=3, game=None), {})
    assert answer.status_code == code.status
    assert answer.data == {"code": code.value, "message": "why", "expected_ply": 3, "game": None}
    assert list(answer.data) == ["code", "message", "expected_ply", "game"]


@pytest.mark.parametrize(
    "exc",
    [
        drf.ParseError(),
        drf.NotAuthenticated(),
        drf.AuthenticationFailed(),
        drf.PermissionDenied(),
        drf.NotFound(),
        drf.MethodNotAllowed("PUT"),
        drf.NotAcceptable(),
        drf.UnsupportedMediaType("text/plain"),
        drf.Throttled(7),
        drf.ValidationError({"name": ["required"]}),
    ],
    ids=lambda exc: type(exc).__name__,
)
def test_drf_exceptions_are_answered_through_the_registry(exc):
    code = exceptions.drf_code(exc)
    answer = exceptions.exception_handler(exc, {})
    assert answer.status_code == code.status == drf_exception_handler(exc, {}).status_code  # as DRF itself says
    assert answer.data["code"] == code.value
    if isinstance(exc, drf.Throttled):
        assert answer.data["retry_after_seconds"] == 7
    if isinstance(exc, drf.ValidationError):
        assert answer.data == {"code": "invalid", "message": "name: required", "fields": {"name": ["required"]}}


@pytest.mark.parametrize("wait", [7.9, None])
def test_a_throttled_answer_always_says_how_long_to_wait(wait):
    """Old: a throttle without a wait answered no ``retry_after_seconds`` and no ``Retry-After``."""
    throttled = drf.Throttled(wait)
    answer = exceptions.exception_handler(throttled, {})
    seconds = 8 if wait else 1  # DRF rounds a wait up
    assert answer.data["retry_after_seconds"] == seconds and answer["Retry-After"] == str(seconds)


def test_every_code_declares_its_fields_once_with_a_json_type():
    assert Code.WRONG_PLY.fields["expected_ply"].required and Code.ILLEGAL_MOVE.fields["move"].type == "string"
    for code in Code:
        for name, field in code.fields.items():
            assert name not in ("code", "message") and field.type in ("integer", "string", "object"), (code, name)
