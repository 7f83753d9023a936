"""Pyramid geometry: rows, columns, which positions cover which, as precomputed bit masks.

Position ``p = r*(r+1)/2 + c`` for row ``r`` (0 = top) and column ``c``; the card at (r, c) is
covered by (r+1, c) and (r+1, c+1). Masks let a position test "is this card free" with one AND.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

PYRAMID_SIZE = 28
ROWS = 7
RESERVE_SIZE = 7
FULL_PYRAMID = (1 << PYRAMID_SIZE) - 1


def position_of(row: int, col: int) -> int:
    return row * (row + 1) // 2 + col


ROW_OF = tuple(r for r in range(ROWS) for _ in range(r + 1))
COL_OF = tuple(c for r in range(ROWS) for c in range(r + 1))

# COVERED_BY[p]: the (zero or two) positions lying directly on p.
COVERED_BY: tuple[tuple[int, ...], ...] = tuple(
    () if ROW_OF[p] == ROWS - 1 else (position_of(ROW_OF[p] + 1, COL_OF[p]), position_of(ROW_OF[p] + 1, COL_OF[p] + 1))
    for p in range(PYRAMID_SIZE)
)
COVER_MASK = tuple(sum(1 << q for q in qs) for qs in COVERED_BY)

# COVERS[p]: the positions p lies directly on.
COVERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(q for q in range(PYRAMID_SIZE) if p in COVERED_BY[q]) for p in range(PYRAMID_SIZE)
)


def _closure(start: int, step: Sequence[Iterable[int]]) -> int:
    mask, todo = 0, [start]
    while todo:
        for q in step[todo.pop()]:
            if not mask >> q & 1:
                mask |= 1 << q
                todo.append(q)
    return mask


# BELOW_MASK[p]: every position that must be gone before p is free (its whole cone downwards).
BELOW_MASK = tuple(_closure(p, COVERED_BY) for p in range(PYRAMID_SIZE))
# ABOVE_MASK[p]: every position that cannot be free while p is there.
ABOVE_MASK = tuple(_closure(p, COVERS) for p in range(PYRAMID_SIZE))


def is_valid_shape(pyramid: int) -> bool:
    """True when every removed card's coverers are gone too.

    Cards only leave when free, so a pyramid that was really played never has a gap under a card
    that is still there.
    """
    if pyramid >> PYRAMID_SIZE:
        return False
    for p in range(PYRAMID_SIZE):
        if not pyramid >> p & 1 and pyramid & COVER_MASK[p]:
            return False
    return True
