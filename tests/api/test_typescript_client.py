"""The contract from TypeScript: types generated from the live schema with openapi-typescript, and a small
client (tests/api/node/client.ts, on openapi-fetch) type-checked against them with ``tsc --strict``,
``noUncheckedIndexedAccess`` and ``exactOptionalPropertyTypes`` (a client written with the strictest flags);
the client also states what the types must refuse (``@ts-expect-error``). Needs Node and the packages of
tests/api/node (``npm ci --prefix tests/api/node``, which .ci/services runs)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command

HERE = Path(__file__).resolve().parent / "node"
BIN = HERE / "node_modules" / ".bin"
TSCONFIG = {
    "compilerOptions": {
        "strict": True,
        "noEmit": True,
        "noUncheckedIndexedAccess": True,
        "exactOptionalPropertyTypes": True,
        "target": "ES2022",
        "module": "ESNext",
        "moduleResolution": "Bundler",
        "lib": ["ES2022", "DOM"],
        "skipLibCheck": True,
    },
    "files": ["client.ts"],
}


def test_a_typescript_client_type_checks_against_the_generated_types(tmp_path):
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    if not (BIN / "openapi-typescript").exists() or not (BIN / "tsc").exists():
        pytest.skip("the TypeScript tools are not installed: npm ci --prefix tests/api/node")
    schema = tmp_path / "schema.json"
    call_command("spectacular", "--file", str(schema), "--format", "openapi-json")
    generate = subprocess.run(
        [str(BIN / "openapi-typescript"), str(schema), "-o", str(tmp_path / "schema.d.ts")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert generate.returncode == 0, generate.stdout + generate.stderr
    shutil.copy(HERE / "client.ts", tmp_path / "client.ts")
    (tmp_path / "tsconfig.json").write_text(json.dumps(TSCONFIG))
    (tmp_path / "node_modules").symlink_to(HERE / "node_modules", target_is_directory=True)
    check = subprocess.run([str(BIN / "tsc"), "-p", str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert check.returncode == 0, check.stdout + check.stderr
