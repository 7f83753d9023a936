"""Write the perft oracle of the move generators: tests/engine/perft_oracle.json.

For pinned deals under every preset, a few positions (the start, and mid-game positions reached by seeded
random play) with their legal moves and the number of move sequences of each length up to DEPTH from them
("perft": nodes at depth 1, 2, ...), as the Python engine counts them today. tests/engine/test_perft.py holds
``Position.legal_moves`` to it, and tests/solver/test_perft_core.py holds the compiled core's successors to the
same positions. Written once; run again only when the rules change on purpose (and say why in the commit):

    .venv/bin/python -m tools.perft_oracle
"""

from __future__ import annotations

import json
from pathlib import Path

from engine import PRESETS, Position, deal_from_number
from tests.solver.positions import random_position

OUT = Path(__file__).resolve().parents[1] / "tests" / "engine" / "perft_oracle.json"
COMMAND = ".venv/bin/python -m tools.perft_oracle"
DEALS = (5, 8, 14)
DEPTH = 6
# (removals wanted, seed) of the random play (tests/solver/positions.py) that reaches each mid-game position
MID_GAME = ((6, 101), (14, 202))


def perft(position: Position, depth: int) -> list[int]:
    """Move sequences of length 1..depth from position (a won or stuck position ends a sequence)."""
    counts = [0] * depth

    def walk(at: Position, level: int) -> None:
        moves = at.legal_moves()
        counts[level] += len(moves)
        if level + 1 < depth:
            for move in moves:
                walk(at.copy().apply(move), level + 1)

    walk(position, 0)
    return counts


def oracle() -> dict:
    cases = []
    for name, rules in PRESETS.items():
        for number in DEALS:
            start = Position.start(deal_from_number(number), rules)
            for position in (start, *(random_position(number, rules, wanted, seed) for wanted, seed in MID_GAME)):
                cases.append(
                    {
                        "preset": name,
                        "deal": number,
                        "position": position.dumps(),
                        "moves": [str(m) for m in position.legal_moves()],
                        "perft": perft(position, DEPTH),
                    }
                )
    return {"command": COMMAND, "depth": DEPTH, "cases": cases}


def main() -> None:
    found = oracle()
    lines = ",\n".join(json.dumps(case) for case in found["cases"])  # one position a line, for readable diffs
    head = f'{{"command": {json.dumps(found["command"])}, "depth": {found["depth"]}, "cases": [\n'
    OUT.write_text(f"{head}{lines}\n]}}\n")
    print(f"{OUT}: {len(found['cases'])} positions, {sum(c['perft'][-1] for c in found['cases'])} at depth {DEPTH}")


if __name__ == "__main__":
    main()
