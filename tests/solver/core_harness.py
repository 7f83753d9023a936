"""The compiled core under attack: hostile arguments, allocation failures at every site, and sweeps of
positions. Shared by ``test_core_checks.py`` (the ordinary build, in the test process) and
``sanitizer_run.py`` (the AddressSanitizer and UBSan build, in a subprocess of ``test_sanitizers.py``).

Every function here takes the core module and the solve function to use, so the same checks run
against either build; each raises AssertionError (with the case) on the first thing wrong.
"""

from __future__ import annotations

import math
import random

from engine import Position, Rules, deal_from_number, preset, replay
from engine.solver import UNKNOWN, WINNABLE, fast, solve_reference

from .positions import all_rules, random_position

# Start positions whose solves between them reach every allocation site of _core.c (a few ms each);
# inject_failures says which site none of them reaches when a change to the core needs another here.
ALLOCATION_COVER = (
    ("one-look", 8),
    ("tuts-tomb", 14),
    ("reserve", 14),
    ("classic", 7),
    ("reserve", 13),
    ("strict", 13),
)

# tests/solver/test_cross_check.py's positions: the reference is quick on these
CROSS_CHECK_REMOVALS = {"unlimited": 18, "relaxed": 15, "par": 15, "overlap": 15, "overlap-all": 15}

# argument positions of _core.solve (see fast.core_args)
(
    PYRAMID_VALUES,
    RESERVE_VALUES,
    PILE_VALUES,
    PASSES,
    DRAW,
    STOCK_LIVE,
    WASTE_LIVE,
    GOAL_ALL,
    COVERED,
    PYRAMID_MASK,
    RESERVE_MASK,
    PILE_MASK,
    POINTER,
    PASS_NO,
    MAX_NODES,
    BUDGET,
) = range(16)


def check_line(position, solution) -> None:
    """The line replays through the engine and reaches what the solution claims."""
    played = replay(position.deal, position.rules, solution.solution, start=position)
    assert played.ok, f"move {played.failed_at} of {solution.solution}: {played.reason}"
    assert len(solution.solution) == solution.best_moves
    if solution.verdict == WINNABLE:
        assert played.position.is_won and solution.par_moves == len(solution.solution)
    else:
        assert played.position.cards_left == solution.best_cards_left


def hostile_arguments() -> list[tuple[str, tuple, type, str]]:
    """(what, arguments, exception, words of its message) for calls of ``_core.solve`` it must refuse."""
    classic = Position.start(deal_from_number(5), preset("classic"))
    reserve = Position.start(deal_from_number(5), preset("reserve"))
    played = classic.copy()
    for move in ("draw", "draw", "draw"):
        played.apply(move)  # waste of three cards: pointer 3
    cases = []

    def case(position, changes: dict, error: type, words: str) -> None:
        args = list(fast.core_args(position, max_nodes=2000))
        for index, value in changes.items():
            args[index] = value
        cases.append((f"{position.rules.name} {changes!r:.60}", tuple(args), error, words))

    pyramid = list(classic.board.values[:28])
    for value, error, words in (
        (2**31, ValueError, "passes must be from 0 to 9; got 2147483648"),
        (10, ValueError, "passes must be from 0 to 9"),
        (-1, ValueError, "passes must be from 0 to 9"),
        (2**64, ValueError, "passes must be from 0 to 9; got a number out of that range"),
        (3.0, TypeError, "passes must be an integer"),
        ("3", TypeError, "passes must be an integer"),
    ):
        case(classic, {PASSES: value}, error, words)
    for value in (0, 2, 4, -1, 2**80):
        case(classic, {DRAW: value}, ValueError, "draw must be 1 or 3")
    case(classic, {DRAW: 3, STOCK_LIVE: 1}, ValueError, "draw 3 with a live stock top")
    for index, name in (
        (STOCK_LIVE, "stock_live"),
        (WASTE_LIVE, "waste_live"),
        (GOAL_ALL, "goal_all"),
        (COVERED, "covered"),
    ):
        case(classic, {index: 2}, ValueError, f"{name} must be from 0 to 1; got 2")
        case(classic, {index: -1}, ValueError, f"{name} must be from 0 to 1; got -1")
    for value in (-1, 1 << 28, 2**64):
        case(classic, {PYRAMID_MASK: value}, ValueError, "pyramid_mask must be from 0 to 268435455")
    case(classic, {PYRAMID_MASK: (1 << 28) - 2}, ValueError, "no shape a game can reach")  # top gone, covered
    case(classic, {PYRAMID_MASK: (1 << 28) - 1 - (1 << 10)}, ValueError, "no shape a game can reach")
    case(classic, {RESERVE_MASK: 1}, ValueError, "reserve_mask must be from 0 to 0; got 1")
    case(reserve, {RESERVE_MASK: 1 << 7}, ValueError, "reserve_mask must be from 0 to 127")
    case(classic, {PILE_MASK: 1 << 24}, ValueError, "pile_mask must be from 0 to 16777215")
    case(classic, {PILE_MASK: -1}, ValueError, "pile_mask must be from 0 to 16777215")
    case(reserve, {PILE_MASK: 1 << 17}, ValueError, "pile_mask must be from 0 to 131071")
    case(classic, {POINTER: 25}, ValueError, "pointer must be from 0 to 24; got 25")
    case(reserve, {POINTER: 18}, ValueError, "pointer must be from 0 to 17; got 18")
    case(classic, {POINTER: -1}, ValueError, "pointer must be from 0 to 24")
    case(played, {PILE_MASK: played.pile & ~(1 << 2)}, ValueError, "must sit just above the waste top")
    case(classic, {PASS_NO: 0}, ValueError, "pass_no must be from 1 to 3; got 0")
    case(classic, {PASS_NO: 4}, ValueError, "pass_no must be from 1 to 3; got 4")
    case(classic, {PASS_NO: 2**63}, ValueError, "pass_no must be from 1 to 3")
    case(classic, {PASSES: 0, PASS_NO: -1}, ValueError, "pass_no must be from 0 to")
    for value in (-1, 4_000_000_001, 2**64):
        case(classic, {MAX_NODES: value}, ValueError, "max_nodes must be from 0 to 4000000000")
    for value in (math.nan, -1.0, -math.inf):
        case(classic, {BUDGET: value}, ValueError, "budget_seconds must be 0 (none) or more")
    case(classic, {BUDGET: "1"}, TypeError, "")
    case(classic, {PYRAMID_VALUES: pyramid[:27]}, ValueError, "pyramid_values must hold 28 card values; got 27")
    case(classic, {PYRAMID_VALUES: pyramid + [1]}, ValueError, "pyramid_values must hold 28 card values; got 29")
    case(classic, {PYRAMID_VALUES: [0] + pyramid[1:]}, ValueError, "a card value must be from 1 to 13; got 0")
    case(classic, {PYRAMID_VALUES: [14] + pyramid[1:]}, ValueError, "a card value must be from 1 to 13; got 14")
    case(classic, {PYRAMID_VALUES: [2**70] + pyramid[1:]}, ValueError, "a card value must be from 1 to 13")
    case(classic, {PYRAMID_VALUES: ["A"] + pyramid[1:]}, TypeError, "a card value must be an integer")
    case(classic, {PYRAMID_VALUES: None}, TypeError, "must be a sequence")
    swapped = [pyramid[1]] + pyramid[1:] if pyramid[0] != pyramid[1] else [pyramid[0] % 13 + 1] + pyramid[1:]
    case(classic, {PYRAMID_VALUES: swapped}, ValueError, "the card values are no deck")
    case(classic, {RESERVE_VALUES: (1,)}, ValueError, "reserve_values must hold 0 or 7 card values; got 1")
    case(classic, {RESERVE_VALUES: (1,) * 8}, ValueError, "reserve_values must hold 0 or 7 card values; got 8")
    case(classic, {PILE_VALUES: classic.board.pile_values[:23]}, ValueError, "pile_values must hold 24")
    case(reserve, {PILE_VALUES: classic.board.pile_values}, ValueError, "pile_values must hold 17")
    return cases


def unlimited_late_position() -> Position:
    """A position under unlimited passes in pass 123,456,789,012: legal, and no C int holds it."""
    late = 123_456_789_012
    return Position.loads(
        f"fffffff.0.ffffff.0.{late}.{late}.0", deal_from_number(5), Rules.parse("relaxed;passes=unlimited")
    )


def check_hostile_arguments(core) -> int:
    """Every hostile call is refused with its exception and message; the calls that must work do."""
    cases = hostile_arguments()
    for what, args, error, words in cases:
        try:
            core.solve(*args)
        except error as exc:
            assert words in str(exc), (what, str(exc))
        else:
            raise AssertionError(f"{what}: no {error.__name__}")
    for args in ((), (1,) * 15, (1,) * 17):
        try:
            core.solve(*args)
        except TypeError:
            pass
        else:
            raise AssertionError(f"{len(args)} arguments: no TypeError")
    # what must still work: unlimited passes with any pass number, an endless budget, bools for flags
    args = list(fast.core_args(unlimited_late_position(), max_nodes=2000))
    args[PASS_NO] = 10**6
    args[BUDGET] = math.inf
    core.solve(*args)
    return len(cases) + 3


def check_bad_geometry(core) -> int:
    """configure() refuses geometries that are no pyramid, then leaves the core unconfigured (solve
    refuses) until a good configure()."""
    cover, covers, below, above = (list(table) for table in fast.GEOMETRY)
    bad = [
        ((cover[:27], covers, below, above), ValueError, "the cover mask table needs 28 entries; got 27"),
        (([1 << 40] + cover[1:], covers, below, above), ValueError, "cover[0] must be from 0 to 268435455"),
        ((cover, covers, below, below), ValueError, "above is not the closure of covers"),
        ((cover, above, below, above), ValueError, "covers is not the transpose of cover"),
        (([0] * 28, [0] * 28, [0] * 28, [0] * 28), ValueError, "a shape with more than 7 free cards"),
        (([cover[0] | 1] + cover[1:], covers, below, above), ValueError, "covers is not the transpose of cover"),
        ((cover, covers, below, ["x"] * 28), TypeError, "above[0] must be an integer"),
        ((None, covers, below, above), TypeError, "each mask table must be a sequence"),
    ]
    # a card on itself, with every other table made to agree: caught as a cycle
    looped = list(cover)
    looped[27] = 1 << 27
    looped_covers = [sum(1 << q for q in range(28) if looped[q] >> p & 1) for p in range(28)]
    bad.append(((looped, looped_covers, below, above), ValueError, "not a pyramid geometry"))
    args = fast.core_args(Position.start(deal_from_number(5), preset("classic")), max_nodes=2000)
    try:
        for tables, error, words in bad:
            try:
                core.configure(*tables)
            except error as exc:
                assert words in str(exc), (words, str(exc))
            else:
                raise AssertionError(f"configure took a bad geometry: {words}")
            try:
                core.solve(*args)
            except RuntimeError as exc:
                assert "configure() the geometry first" in str(exc)
            else:
                raise AssertionError("solve ran on a geometry configure() refused")
    finally:
        assert core.configure(*fast.GEOMETRY) == 1430
    core.solve(*args)
    return len(bad)


def inject_failures(core, solve=None) -> tuple[int, set[str]]:
    """Make each allocation site of the core fail, at its first and its last allocation in a solve of
    every position of ALLOCATION_COVER: each such solve raises MemoryError and holds no block after
    it, and the position then solves as before. Returns (failures injected, the sites reached)."""
    solve = solve or fast.solve_fast
    injected, reached = 0, set()
    for name, number in ALLOCATION_COVER:
        position = Position.start(deal_from_number(number), preset(name))
        before = solve(position)
        counts, held = core._allocations()
        assert held == 0, (name, number, "blocks held after a solve", held)
        for site, count in counts.items():
            for nth in sorted({0, count - 1} if count else ()):
                core._fail_alloc_after(nth, site)
                try:
                    solve(position)
                except MemoryError:
                    pass
                else:
                    raise AssertionError(f"{name} deal {number}: allocation {nth} at {site} failed, no MemoryError")
                finally:
                    core._fail_alloc_after(None)
                counts_then, held = core._allocations()
                assert counts_then[site] == nth + 1, (site, nth, counts_then[site])
                assert held == 0, (name, number, site, nth, "blocks held after the failure", held)
                injected += 1
                reached.add(site)
        after = solve(position)
        assert (after.verdict, after.par_moves, after.best_cards_left, after.solution) == (
            before.verdict,
            before.par_moves,
            before.best_cards_left,
            before.solution,
        ), (name, number)
    missing = set(core._allocation_sites()) - reached
    assert not missing, f"no position of ALLOCATION_COVER reaches the allocation sites {sorted(missing)}"
    return injected, reached


def cross_check(solve=None) -> int:
    """test_cross_check's positions: the fast answer equals the reference's, and its line replays."""
    solve = solve or fast.solve_fast
    compared = 0
    for name, rules in all_rules():
        for number in range(30):
            position = random_position(number, rules, CROSS_CHECK_REMOVALS.get(name, 12) + number % 5, seed=number)
            fast_answer = solve(position)
            reference = solve_reference(position, max_nodes=20_000)
            if reference.verdict != UNKNOWN:
                assert (
                    fast_answer.verdict,
                    fast_answer.par_moves,
                    fast_answer.best_cards_left,
                    fast_answer.best_moves,
                ) == (reference.verdict, reference.par_moves, reference.best_cards_left, reference.best_moves), (
                    name,
                    number,
                    position.dumps(),
                )
                compared += 1
            if fast_answer.verdict != UNKNOWN:
                check_line(position, fast_answer)
    return compared


def sweep(count: int, seed: int, solve=None) -> dict[str, int]:
    """``count`` random positions of every rule set of tests/solver/positions.py (the presets and the
    custom ones), each solved under a small random node budget (so searches stop anywhere, and unwind
    from there) or now and then a tiny time budget; every line that comes back replays."""
    solve = solve or fast.solve_fast
    rng = random.Random(seed)
    verdicts: dict[str, int] = {}
    for _name, rules in all_rules():
        for _ in range(count):
            number = rng.getrandbits(64)
            position = random_position(number, rules, rng.randrange(0, 30), seed=rng.getrandbits(32))
            if rng.random() < 0.05:
                answer = solve(position, budget_seconds=1e-6)
            else:
                answer = solve(position, max_nodes=rng.choice((0, 1, 10, 100, 500, 2000, 4000)))
            if answer.verdict != UNKNOWN:
                check_line(position, answer)
            verdicts[answer.verdict] = verdicts.get(answer.verdict, 0) + 1
    return verdicts
