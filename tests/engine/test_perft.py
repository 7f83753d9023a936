"""``Position.legal_moves`` against the perft oracle (tests/engine/perft_oracle.json, written by
tools/perft_oracle.py): for pinned deals under every preset, the legal moves of each position and the number of
move sequences of every length up to the oracle's depth."""

from __future__ import annotations

import json
from pathlib import Path

from engine import PRESETS, Position, deal_from_number, preset

ORACLE = json.loads((Path(__file__).with_name("perft_oracle.json")).read_text())


def perft(position: Position, depth: int) -> list[int]:
    counts = [0] * depth
    stack = [(position, 0)]
    while stack:
        at, level = stack.pop()
        moves = at.legal_moves()
        counts[level] += len(moves)
        if level + 1 < depth:
            stack.extend((at.copy().apply(move), level + 1) for move in moves)
    return counts


def test_the_oracle_covers_every_preset_and_reaches_past_the_first_moves():
    assert {case["preset"] for case in ORACLE["cases"]} == set(PRESETS)
    assert ORACLE["depth"] >= 5 and sum(case["perft"][-1] for case in ORACLE["cases"]) > 100_000
    assert any(case["moves"] == [] for case in ORACLE["cases"])  # a stuck position, too


def test_legal_moves_and_their_perft_counts_match_the_oracle():
    wrong = []
    for case in ORACLE["cases"]:
        position = Position.loads(case["position"], deal_from_number(case["deal"]), preset(case["preset"]))
        moves = [str(move) for move in position.legal_moves()]
        counts = perft(position, ORACLE["depth"])
        if moves != case["moves"] or counts != case["perft"]:
            wrong.append(
                f"{case['preset']} deal {case['deal']} {case['position']}: moves {moves} perft {counts}, "
                f"the oracle says {case['moves']} {case['perft']}"
            )
    assert wrong == []
