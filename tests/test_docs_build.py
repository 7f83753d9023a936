"""The documentation site builds with ``mkdocs build --strict`` (mkdocs.yml): no broken link or anchor, no page
left out of the nav, no nav entry without its page. A failure shows mkdocs' own warnings."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_docs_build_strict(tmp_path):
    site = tmp_path / "site"
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--config-file",
            str(ROOT / "mkdocs.yml"),
            "--site-dir",
            str(site),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert built.returncode == 0, f"mkdocs build --strict failed:\n{built.stdout}{built.stderr}"
    pages = {path.parent.name for path in site.glob("*/index.html")}
    documents = {path.stem for path in (ROOT / "docs").glob("*.md")} - {"index"}
    # and the API reference, written from the schema at build time (tools/api_reference.py, tests/test_api_reference.py)
    assert pages == documents | {"api-reference"}
    assert "op-games_moves_create" in (site / "api-reference" / "index.html").read_text()
    assert (site / "index.html").is_file()
