"""The type checker's baseline (tools/mypy_baseline.py) only shrinks: more errors in any file, or in all, fail."""

from __future__ import annotations

import importlib.util
import json
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("mypy_baseline", ROOT / "tools" / "mypy_baseline.py")
baseline_tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(baseline_tool)

OUTPUT = """\
games/selectors.py:36: error: "DailyDeal" has no attribute "my_game"  [attr-defined]
games/selectors.py:117: note: "list" is invariant
games/selectors.py:128:5: error: Need type annotation for "instances"  [var-annotated]
games/metrics.py:47: note: By default the bodies of untyped functions are not checked  [annotation-unchecked]
leaderboards/api/boards.py:52: error: Definition of "permission_classes" is incompatible  [misc]
Found 3 errors in 2 files (checked 170 source files)
"""


def test_errors_are_counted_per_file_and_notes_are_not():
    assert baseline_tool.counts_of(OUTPUT) == Counter({"games/selectors.py": 2, "leaderboards/api/boards.py": 1})


def test_a_file_with_more_errors_fails_even_when_the_total_does_not_grow():
    recorded = {"games/selectors.py": 1, "leaderboards/api/boards.py": 3}
    worse = baseline_tool.grown(recorded, baseline_tool.counts_of(OUTPUT))
    assert worse == ["games/selectors.py: 2 errors, 1 recorded"]


def test_a_new_file_with_errors_fails_and_fewer_errors_pass():
    counts = baseline_tool.counts_of(OUTPUT)
    assert baseline_tool.grown({"games/selectors.py": 2}, counts) == [
        "leaderboards/api/boards.py: 1 errors, 0 recorded",
        "in all: 3 errors, 2 recorded",
    ]
    recorded = {"games/selectors.py": 4, "leaderboards/api/boards.py": 1, "games/words.py": 2}
    assert baseline_tool.grown(recorded, counts) == []
    assert baseline_tool.shrunk(recorded, counts) == [
        "games/selectors.py: 2 errors, 4 recorded",
        "games/words.py: 0 errors, 2 recorded",
    ]


def test_the_committed_baseline_is_a_count_per_checked_file():
    recorded = json.loads((ROOT / "tools" / "mypy_baseline.json").read_text())
    assert recorded and all(isinstance(n, int) and n > 0 for n in recorded.values())
    assert all(path.split("/")[0] in {"games", "leaderboards", "pyramid_site"} for path in recorded)
    assert list(recorded) == sorted(recorded)
