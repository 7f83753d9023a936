"""The live schema passes ``@redocly/cli lint`` with the committed rules (tests/api/redocly.yaml): Redocly's
recommended set, trailing slashes allowed. Needs Node and the packages of tests/api/node
(``npm ci --prefix tests/api/node``, which .ci/services runs)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command

HERE = Path(__file__).resolve().parent
REDOCLY = HERE / "node" / "node_modules" / ".bin" / "redocly"


def lint(schema: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(REDOCLY), "lint", "--config", str(HERE / "redocly.yaml"), "--format", "summary", str(schema)],
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture
def schema(tmp_path):
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    if not REDOCLY.exists():
        pytest.skip("@redocly/cli is not installed: npm ci --prefix tests/api/node")
    path = tmp_path / "schema.yaml"
    call_command("spectacular", "--file", str(path))
    return path


def test_the_schema_passes_the_committed_lint_rules(schema):
    result = lint(schema)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "valid" in result.stdout + result.stderr


def test_the_lint_rules_still_catch_an_operation_without_its_4xx_answers(schema):
    # the rules spare three operations by name; any other operation that loses its 4xx answers is an error (406
    # does not count: content negotiation is no mistake of the request's)
    text = schema.read_text()
    start = text.index("operationId: accounts_me_retrieve")
    end = text.index("operationId:", start + 1)
    operation = text[start:end]
    for index, status in enumerate(("400", "401", "403", "404", "409", "413", "415", "422", "429")):
        operation = operation.replace(f"'{status}':", f"'29{index}':")
    schema.write_text(text[:start] + operation + text[end:])
    result = lint(schema)
    assert result.returncode != 0
    assert "rule/operation-4xx-response" in result.stdout + result.stderr
