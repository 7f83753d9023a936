import ast
import pathlib
import subprocess
import sys

ENGINE = pathlib.Path(__file__).resolve().parents[2] / "engine"


def test_no_module_of_the_engine_imports_django():
    for path in ENGINE.rglob("*.py"):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            assert not any(n.split(".")[0] in ("django", "rest_framework", "celery") for n in names), path


def test_importing_the_whole_engine_loads_no_django():
    code = (
        "import sys, engine, engine.cli, engine.play, engine.solver; "
        "print(any(m.split('.')[0] in ('django', 'rest_framework', 'celery') for m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ENGINE.parent)
    assert result.stdout.strip() == "False"
