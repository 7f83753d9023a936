"""Response headers in the OpenAPI schema: each defined once, in ``components/headers`` under its own name, and
referenced from every response that sends it (the post-processing hooks of the modules that send them use this)."""

from __future__ import annotations


def declare_headers(result: dict, answer: dict, definitions: dict[str, dict]) -> None:
    """``definitions`` (header name -> its definition) in the schema's ``components/headers``, and references to
    them on ``answer``."""
    result.setdefault("components", {}).setdefault("headers", {}).update(definitions)
    answer.setdefault("headers", {}).update({name: {"$ref": f"#/components/headers/{name}"} for name in definitions})
