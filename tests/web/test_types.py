"""The page's JavaScript is typed with JSDoc, and TypeScript's compiler (from the npm registry) checks it:
`tsc --checkJs` with `tests/web/tsconfig.json`, no build and nothing emitted. A wrong property, a missing
argument or a misspelt name fails here rather than in a player's browser."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
TSC = HERE / "node_modules" / "typescript" / "bin" / "tsc"


@pytest.mark.skipif(
    not TSC.exists(), reason="TypeScript is not installed: npm ci --prefix tests/web (.ci/services does)"
)
def test_the_page_script_type_checks():
    checked = subprocess.run(
        ["node", str(TSC), "-p", str(HERE / "tsconfig.json"), "--pretty", "false"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
