"""The API reference page of the documentation site, written from the OpenAPI schema when the site is built.

mkdocs.yml names this file under ``hooks:``: ``on_files`` adds the page ``api-reference.md`` (in the nav under
"Client developers"), so the page always says what the code's schema says and no generated copy is committed.
``render`` turns a schema into the page; ``python tools/api_reference.py`` prints it.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

PAGE = "api-reference.md"
METHODS = ["get", "post", "put", "patch", "delete"]
ROOT = Path(__file__).resolve().parent.parent


def schema() -> dict:
    """The schema as ``/api/schema/`` serves it (drf-spectacular's generator over the URL map)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pyramid_site.settings")
    import django

    django.setup()
    from drf_spectacular.generators import SchemaGenerator

    return SchemaGenerator().get_schema(request=None, public=True)


def operations(spec: dict) -> list[tuple[str, str, dict]]:
    """(method, path, operation) of every operation, in the schema's order."""
    return [
        (method, path, item[method]) for path, item in spec["paths"].items() for method in METHODS if method in item
    ]


def _text(value: str | None) -> str:
    """A description on one table line: no line breaks, no bare pipe, and no angle bracket read as HTML
    outside code spans."""
    parts = (value or "").replace("\n", " ").split("`")
    for i in range(0, len(parts), 2):  # outside code spans
        parts[i] = parts[i].replace("<", "&lt;").replace(">", "&gt;")
    return "`".join(parts).replace("|", "\\|").strip()


def _ref_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]


def _type(node: dict) -> str:
    """A schema node in a few words: a component as a link to its section, lists, choices, nulls."""
    if "$ref" in node:
        name = _ref_name(node["$ref"])
        return f"[`{name}`](#schema-{name})"
    for key in ("oneOf", "anyOf"):
        if key in node:
            return " or ".join(_type(option) for option in node[key])
    if "allOf" in node:
        return " and ".join(_type(part) for part in node["allOf"])
    kind = node.get("type")
    if isinstance(kind, list):
        return " or ".join(_type({**node, "type": one}) for one in kind)
    if kind == "null":
        return "null"
    if "enum" in node:
        return "one of " + ", ".join(f"`{value}`" for value in node["enum"] if value is not None)
    if kind == "array":
        return f"list of {_type(node.get('items', {}))}"
    if kind == "object" and "additionalProperties" in node and isinstance(node["additionalProperties"], dict):
        return f"object of {_type(node['additionalProperties'])}"
    if kind is None:
        return "any"
    return f"{kind} ({node['format']})" if "format" in node else str(kind)


def _content_type(content: dict) -> str:
    return "; ".join(f"{_type(body.get('schema', {}))} as `{media}`" for media, body in content.items())


def _security(operation: dict, spec: dict) -> str:
    needed = operation.get("security", spec.get("security"))
    if not needed or {} in needed:
        return "none needed (a visitor may call it)" if not needed else "optional"
    return "an account: " + ", ".join(f"`{name}`" for requirement in needed for name in requirement)


def _operation(method: str, path: str, operation: dict, spec: dict) -> list[str]:
    lines = [f"### `{method.upper()} {path}` {{#op-{operation['operationId']}}}", ""]
    if operation.get("summary"):
        lines += [f"**{operation['summary']}**", ""]
    if operation.get("description"):
        lines += [operation["description"].strip(), ""]
    lines += [f"Operation id `{operation['operationId']}`. Credentials: {_security(operation, spec)}.", ""]
    parameters = operation.get("parameters", [])
    if parameters:
        lines += ["| parameter | in | type | required | description |", "|---|---|---|---|---|"]
        lines += [
            f"| `{p['name']}` | {p['in']} | {_type(p.get('schema', {}))} | "
            f"{'yes' if p.get('required') else 'no'} | {_text(p.get('description'))} |"
            for p in parameters
        ]
        lines.append("")
    body = operation.get("requestBody")
    if body:
        required = "required" if body.get("required") else "optional"
        lines += [f"Body ({required}): {_content_type(body.get('content', {}))}.", ""]
    lines += ["| status | answer |", "|---|---|"]
    for status, response in operation.get("responses", {}).items():
        if "$ref" in response:
            name = _ref_name(response["$ref"])
            lines.append(f"| {status} | [{name}](#error-{name}): an `Error` |")
        else:
            said = [_text(response.get("description")), _content_type(response.get("content", {}))]
            lines.append(f"| {status} | {': '.join(part for part in said if part)} |")
    lines.append("")
    return lines


def _component(name: str, node: dict) -> list[str]:
    lines = [f"### {name} {{#schema-{name}}}", ""]
    if node.get("description"):
        lines += [node["description"].strip(), ""]
    properties = node.get("properties")
    if properties:
        required = set(node.get("required", []))
        lines += ["| field | type | always there | description |", "|---|---|---|---|"]
        lines += [
            f"| `{field}` | {_type(sub)} | {'yes' if field in required else 'no'} | {_text(sub.get('description'))} |"
            for field, sub in properties.items()
        ]
    else:
        lines.append(f"{_type(node)}.")
    lines.append("")
    return lines


def render(spec: dict) -> str:
    """The reference page of a schema: its operations by tag, then its components and shared error answers."""
    info = spec.get("info", {})
    lines = [
        "# API reference",
        "",
        f"Every operation of {info.get('title', 'the API')} {info.get('version', '')}, with its parameters, body "
        "and answers, as the OpenAPI schema declares them. This page is written from the schema each time the site "
        "is built (`tools/api_reference.py`), so it says what the code says. The schema itself is served at "
        "`/api/schema/` and browsable at `/api/docs/`; what each error code means, and how to authenticate, is in "
        "[The API](api.md).",
        "",
    ]
    by_tag: dict[str, list[tuple[str, str, dict]]] = {}
    for method, path, operation in operations(spec):
        by_tag.setdefault((operation.get("tags") or ["other"])[0], []).append((method, path, operation))
    lines += ["## Operations", ""]
    lines += [
        f"- {tag}: " + ", ".join(f"[`{m.upper()} {p}`](#op-{o['operationId']})" for m, p, o in ops)
        for tag, ops in by_tag.items()
    ]
    lines.append("")
    for tag, ops in by_tag.items():
        lines += [f"## {tag.capitalize()} {{#tag-{tag}}}", ""]
        for method, path, operation in ops:
            lines += _operation(method, path, operation, spec)
    components = spec.get("components", {})
    lines += [
        "## Error answers",
        "",
        "Every error is an [`Error`](#schema-Error): one component per code (`ErrorWrongPly`, ...), its `code` a "
        "constant and its own fields required. Each operation's answers above list the codes it can answer, by status.",
        "",
    ]
    lines += ["## Answers and bodies", ""]
    for name, node in components.get("schemas", {}).items():
        lines += _component(name, node)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).rstrip() + "\n"


def on_files(files, config):
    """mkdocs' hook: add the page, written from the schema, to the site's files."""
    from mkdocs.structure.files import File

    files.append(File.generated(config, PAGE, content=render(schema())))
    return files


if __name__ == "__main__":
    sys.stdout.write(render(schema()))
