"""One list of error codes: the registry, the table in docs/api.md and the code base say the same."""

from __future__ import annotations

import re
from pathlib import Path

from pyramid_site.api import errors, exceptions
from pyramid_site.api.codes import ERROR_CODES

ROOT = Path(__file__).resolve().parents[2]
APPS = ("games", "leaderboards", "pyramid_site")


def test_the_docs_table_is_the_registry():
    text = (ROOT / "docs" / "api.md").read_text()
    rows = re.findall(r"^\| `([a-z_]+)` \| (\d{3}) \| (.+) \|$", text, flags=re.MULTILINE)
    assert {code: (int(status), what) for code, status, what in rows} == ERROR_CODES


def _codes_written_in_the_code_base() -> set[str]:
    found = set()
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            source = path.read_text()
            found |= set(re.findall(r"""\bcode\s*=\s*["']([a-z_]+)["']""", source))
            found |= set(re.findall(r"""["']code["']\s*:\s*["']([a-z_]+)["']""", source))
            # the one code built from parts: ranked_no_{what}, with what in undo and hint
            if "ranked_no_{what}" in source:
                found |= {f"ranked_no_{what}" for what in re.findall(r"""_practice_only\(game, ["'](\w+)["']\)""",
                                                                      source)}
    return found


def test_every_code_the_code_base_answers_is_registered():
    written = _codes_written_in_the_code_base()
    assert {"wrong_ply", "ranked_no_undo", "ranked_no_hint", "database_unavailable"} <= written  # the scan works
    assert written - set(ERROR_CODES) == set()


def test_the_handler_and_the_error_classes_use_registered_codes():
    handler_codes = set(exceptions._CODES.values())
    class_codes = {cls.code for cls in vars(errors).values() if isinstance(cls, type)
                   and issubclass(cls, errors.ServiceError)}
    assert handler_codes | class_codes <= set(ERROR_CODES)
    for code, (status, what) in ERROR_CODES.items():
        assert 400 <= status <= 599 and what, code
