"""The API reference page of the docs site (tools/api_reference.py, written from the schema when the site is
built) lists every operation the served schema has, each with its parameters and the status of every answer,
and a section for every component an operation points at."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("api_reference", ROOT / "tools" / "api_reference.py")
reference = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(reference)

OPERATION_HEADING = re.compile(r"^### `([A-Z]+) (\S+)` \{#op-(\w+)\}$", re.M)


@pytest.fixture
def served_schema(client, db):
    answer = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert answer.status_code == 200
    return answer.json()


def _sections(page: str) -> dict[tuple[str, str], str]:
    """Each operation's part of the page, by (METHOD, path): from its heading to the next heading."""
    starts = list(OPERATION_HEADING.finditer(page))
    return {(m[1], m[2]): page[m.end() : page.find("\n#", m.end())] for m in starts}


def test_the_page_lists_every_operation_of_the_served_schema(served_schema):
    page = reference.render(served_schema)
    served = sorted(
        (method.upper(), path, operation["operationId"])
        for path, item in served_schema["paths"].items()
        for method, operation in item.items()
        if method in ("get", "post", "put", "patch", "delete")
    )
    assert len(served) > 50  # the whole API (64 operations in 3.2.0), not a part of it
    assert sorted(OPERATION_HEADING.findall(page)) == served
    sections = _sections(page)
    for path, item in served_schema["paths"].items():
        for method, operation in item.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            section = sections[(method.upper(), path)]
            for parameter in operation.get("parameters", []):
                assert f"| `{parameter['name']}` | {parameter['in']} |" in section, (method, path, parameter["name"])
            for status in operation["responses"]:
                assert f"\n| {status} | " in section, (method, path, status)
            if "requestBody" in operation:
                assert "Body (" in section


def test_every_component_and_error_code_has_its_section(served_schema):
    page = reference.render(served_schema)
    for name in served_schema["components"]["schemas"]:
        assert f"### {name} {{#schema-{name}}}" in page
    # every error code, in the answers of the operations that can answer it
    codes = [name for name in served_schema["components"]["schemas"] if name.startswith("Error") and name != "Error"]
    assert codes and all(f"[`{name}`](#schema-{name})" in page or f"### {name} " in page for name in codes)
    links = set(re.findall(r"\]\(#((?:op|schema|error|tag)-[\w-]+)\)", page))
    anchors = set(re.findall(r"\{#([\w-]+)\}", page))
    assert links <= anchors  # every link of the page lands on one of its sections
