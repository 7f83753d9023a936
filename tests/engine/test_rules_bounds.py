"""Every rule option has bounds (docs/rules.md, section 3): a rule set is refused with the option, the
value and the allowed range, or it is one the engine plays and the solver (compiled core and
reference) takes. Nothing in between: no rule set that parses and then breaks something later."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import Position, Rules, RulesError, deal_from_number
from engine.rules import MAX_PASSES, OPTION_ORDER, UNLIMITED
from engine.solver import fast, solve_reference

from .strategies import engine_settings

WORDS = ["unlimited", "Unlimited", "live", "dead", "hidden", "pyramid", "all", "yes", "no", "true", "false", ""]
NUMBER_TEXTS = st.one_of(
    st.integers(-3, 12).map(str),
    st.integers(-(2**70), 2**70).map(str),
    st.sampled_from(["2147483648", "4294967296", "9" * 25, "1_0", "٣", "+3", "03", " 7 ", "3.0", "1e3", "0x3", "-0"]),
)
VALUE_TEXTS = st.one_of(NUMBER_TEXTS, st.sampled_from(WORDS), st.text(max_size=6))


def _mostly(common, rare, one_in: int = 4):
    """``common`` three times in four (by default), else ``rare``: a good share of the texts are rule sets."""
    return st.integers(0, one_in - 1).flatmap(lambda pick: rare if pick == 0 else common)


KEYS = _mostly(st.sampled_from([*OPTION_ORDER, "Passes", "covered-pairs", " draw "]), st.just("colour"), one_in=20)
FITTING = {
    "passes": ["1", "2", "3", "9", "unlimited", "UNLIMITED"],
    "draw": ["1", "3"],
    "stock_top": ["hidden", "live"],
    "waste_top": ["live", "dead"],
    "goal": ["pyramid", "all"],
    "covered_pairs": ["yes", "no", "true"],
    "reserve": ["0", "7"],
}


def _value(key: str):
    return _mostly(st.sampled_from(FITTING.get(key.strip().lower().replace("-", "_"), ["x"])), VALUE_TEXTS)


OPTION_TEXTS = st.tuples(
    _mostly(st.sampled_from(["", "classic;", "tuts-tomb;", "reserve, "]), st.just("klondike;"), one_in=10),
    st.lists(KEYS.flatmap(lambda key: st.tuples(st.just(key), _value(key))), max_size=4),
    st.sampled_from([";", ","]),
).map(lambda parts: parts[0] + parts[2].join(f"{key}={value}" for key, value in parts[1]))
JSON_VALUES = st.one_of(
    st.integers(-(2**70), 2**70),
    st.integers(-3, 12),
    st.floats(allow_nan=True),
    st.booleans(),
    st.none(),
    st.sampled_from(WORDS),
    st.text(max_size=6),
    st.lists(st.integers(0, 9), max_size=2),
)
JSON_TEXTS = st.lists(
    KEYS.flatmap(lambda key: st.tuples(st.just(key), _mostly(_value(key), JSON_VALUES))), max_size=4
).map(lambda pairs: json.dumps(dict(pairs)))


def assert_played_and_solved(rules: Rules, deal_number: int = 5) -> None:
    """The engine plays the rules and both solvers take a position under them, also in the last pass."""
    assert Rules.parse(rules.to_text()) == rules and Rules.parse(rules.to_json()) == rules
    deal = deal_from_number(deal_number)
    start = Position.start(deal, rules)
    assert start.legal_moves()
    last_pass = rules.passes or 7  # unlimited: any pass number at all
    reserve, pile = (1 << rules.reserve) - 1, (1 << start.board.pile_size) - 1
    late = Position.loads(f"fffffff.{reserve:x}.{pile:x}.0.{last_pass}.{last_pass}.0", deal, rules)
    for position in (start, late):
        if fast.available:
            assert fast.solve_fast(position, max_nodes=300).verdict is not None
        assert solve_reference(position, max_nodes=30).verdict is not None


@engine_settings
@given(st.one_of(OPTION_TEXTS, JSON_TEXTS))
def test_parse_refuses_with_a_reason_or_gives_rules_engine_and_solver_accept(text):
    try:
        rules = Rules.parse(text)
    except RulesError as exc:
        assert str(exc) and len(str(exc)) < 300
        return
    assert rules.passes == UNLIMITED or 1 <= rules.passes <= MAX_PASSES
    assert rules.draw in (1, 3) and rules.reserve in (0, 7)
    assert_played_and_solved(rules)


def test_every_rule_set_within_the_bounds_is_played_and_solved():
    """The whole option space, 640 combinations: those the bounds allow (all but draw 3 with a live
    stock top) are played and solved; the rest are refused."""
    accepted = 0
    for passes, draw, stock, waste, goal, covered, reserve in itertools.product(
        ["unlimited", *range(1, MAX_PASSES + 1)],
        (1, 3),
        ("hidden", "live"),
        ("live", "dead"),
        ("pyramid", "all"),
        (False, True),
        (0, 7),
    ):
        options = {
            "passes": passes,
            "draw": draw,
            "stock_top": stock,
            "waste_top": waste,
            "goal": goal,
            "covered_pairs": covered,
            "reserve": reserve,
        }
        if draw == 3 and stock == "live":
            with pytest.raises(RulesError, match="draw 3 with stock_top live"):
                Rules.from_options(options)
            continue
        assert_played_and_solved(Rules.from_options(options))
        accepted += 1
    assert accepted == 10 * 2 * 2 * 2 * 2 * 2 + 10 * 1 * 2 * 2 * 2 * 2  # draw 1: both tops; draw 3: stock hidden


@pytest.mark.parametrize(
    "text,message",
    [
        ("classic;passes=2147483648", "passes must be a whole number from 1 to 9, or unlimited; got 2147483648"),
        ("classic;passes=10", "passes must be a whole number from 1 to 9, or unlimited; got 10"),
        ("classic;passes=0", "passes must be a whole number from 1 to 9, or unlimited; got 0"),
        ("classic;passes=-1", "passes must be a whole number from 1 to 9, or unlimited; got -1"),
        ("classic;passes=" + "9" * 5000, "passes must be a whole number from 1 to 9, or unlimited; got '99999"),
        ("classic;passes=1_0", "passes must be a whole number from 1 to 9, or unlimited; got '1_0'"),
        ("classic;passes=٣", "passes must be a whole number from 1 to 9, or unlimited; got '٣'"),
        ("classic;passes=3.0", "passes must be a whole number from 1 to 9, or unlimited; got '3.0'"),
        ("classic;draw=2", "draw must be 1 or 3; got 2"),
        ("classic;draw=0", "draw must be 1 or 3; got 0"),
        ("classic;draw=4294967297", "draw must be 1 or 3; got 4294967297"),
        ("classic;reserve=5", "reserve must be 0 or 7; got 5"),
        ("classic;reserve=-7", "reserve must be 0 or 7; got -7"),
        ("classic;stock_top=open", "stock_top must be hidden or live; got 'open'"),
        ("classic;waste_top=" + "x" * 100, "waste_top must be live or dead; got 'xxxxxxxx"),
        ("classic;goal=half", "goal must be pyramid or all; got 'half'"),
        ("classic;covered_pairs=1", "covered_pairs must be yes or no; got '1'"),
        ('{"passes": 2147483648}', "passes must be a whole number from 1 to 9, or unlimited; got 2147483648"),
        ('{"passes": 3.0}', "passes must be a whole number from 1 to 9, or unlimited; got 3.0"),
        ('{"passes": true}', "passes must be a whole number from 1 to 9, or unlimited; got True"),
        ('{"draw": 1e400}', "draw must be 1 or 3; got inf"),
        ('{"reserve": null}', "reserve must be 0 or 7; got None"),
        ('{"covered_pairs": 0}', "covered_pairs must be yes or no; got 0"),
        ('{"goal": ["all"]}', "goal must be pyramid or all; got ['all']"),
        ('{"passes": 1' + "0" * 5000 + "}", "rule set JSON is malformed"),
        ('{"a":' * 5000, "rule set JSON is malformed"),
    ],
)
def test_out_of_bounds_names_the_option_the_value_and_the_range(text, message):
    with pytest.raises(RulesError) as refused:
        Rules.parse(text)
    assert str(refused.value).startswith(message)
    assert len(str(refused.value)) < 300


@pytest.mark.parametrize(
    "options",
    [
        {"passes": 10},
        {"passes": -1},
        {"passes": 2**31},
        {"passes": True},
        {"passes": 3.0},
        {"passes": "3"},
        {"draw": 2},
        {"draw": True},
        {"reserve": 1},
        {"reserve": 7.0},
        {"goal": None},
        {"covered_pairs": 1},
    ],
)
def test_rules_built_directly_keep_the_same_bounds(options):
    with pytest.raises(RulesError, match=f"^{next(iter(options))} must be "):
        Rules(**options)


def test_the_edges_of_the_bounds_are_accepted():
    for text in (
        "classic;passes=1",
        "classic;passes=9",
        "classic;passes=unlimited",
        "classic;passes=+9",
        "classic;passes= 09 ",
        "tuts-tomb;passes=9",
        "reserve;passes=9;goal=pyramid",
    ):
        rules = Rules.parse(text)
        assert_played_and_solved(rules)
    assert Rules(passes=9).passes == 9 and Rules(passes=UNLIMITED).unlimited_passes
