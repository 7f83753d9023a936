"""Types of the solver's compiled search (engine/solver/_core.c), for the type checker; ``fast.py`` loads the
built module by name. The arguments' order and bounds are ``_core.c``'s; ``fast.core_args`` builds them."""

from collections.abc import Sequence

def configure(cover: Sequence[int], covers: Sequence[int], below: Sequence[int], above: Sequence[int], /) -> None:
    """The pyramid geometry of engine/layout.py: 28 masks in each table."""

def solve(
    pyramid_values: Sequence[int],
    reserve_values: Sequence[int],
    pile_values: Sequence[int],
    passes: int,
    draw: int,
    stock_live: bool,
    waste_live: bool,
    clear_all: bool,
    covered_pairs: bool,
    pyramid: int,
    reserve: int,
    pile: int,
    pointer: int,
    pass_no: int,
    max_nodes: int,
    budget_seconds: float,
    /,
) -> tuple[int, int, int, list[int], int, int]:
    """(status: 0 answered, else out of budget; won; best cards left; the line as move codes; nodes; peak bytes)."""
