"""Every parser refuses bad input with an EngineError and a message, never a crash."""

from hypothesis import given
from hypothesis import strategies as st

from engine import EngineError, Position, Rules, deal_from_number, parse_deal, parse_move, preset

from .strategies import engine_settings, games

TOKENS = st.sampled_from(
    [
        "draw",
        "redeal",
        "W",
        "S",
        "R0",
        "R7",
        "28",
        "0",
        "+",
        "21+",
        "+21",
        "S+W",
        "W+W",
        "1+2+3",
        "-1",
        "007",
        "r6",
        " ",
        "K",
        "KS",
        "10",
        "ten",
        "\x00",
        "é",
    ]
)


def assert_plays_on(position, start) -> None:
    """A loaded position is one a game can be in: its status says what its moves say (no legal move, and the game
    is over), and every legal move plays on to a position that serialises back to itself."""
    moves = position.legal_moves()
    assert position.status in ("won", "stuck", "playing")
    assert moves or position.is_over, position.dumps()
    if position.is_won:
        assert moves == []
    for move in moves:
        after = position.copy().apply(move)
        assert after.moves == position.moves + 1
        assert Position.loads(after.dumps(), start.deal, start.rules) == after


def assert_refused_or_fine(call, *args):
    try:
        call(*args)
    except EngineError as exc:
        assert str(exc)


@engine_settings
@given(st.text(max_size=30) | st.lists(TOKENS, max_size=3).map("".join))
def test_move_notation(text):
    assert_refused_or_fine(parse_move, text)


@engine_settings
@given(
    st.text(max_size=200)
    | st.lists(st.sampled_from(deal_from_number(3).text.split() + ["10h", "XX", "1S"]), max_size=55).map(" ".join)
)
def test_deal_text(text):
    assert_refused_or_fine(parse_deal, text)


OPTION_TEXT = st.lists(
    st.tuples(
        st.sampled_from(
            ["passes", "draw", "stock_top", "waste_top", "goal", "covered_pairs", "reserve", "colour", "classic"]
        ),
        st.sampled_from(
            ["1", "3", "0", "-2", "unlimited", "live", "dead", "hidden", "yes", "no", "all", "pyramid", "7", "x", ""]
        ),
    ),
    max_size=4,
).map(lambda pairs: ";".join(f"{k}={v}" for k, v in pairs))


@engine_settings
@given(st.text(max_size=60) | OPTION_TEXT | st.sampled_from(["classic", "{]", "[]", '{"draw": true}', '{"x": 1}']))
def test_rule_sets(text):
    assert_refused_or_fine(Rules.parse, text)


@engine_settings
@given(games(max_moves=30), st.text(alphabet="0123456789abcdef.-_ x", max_size=40))
def test_serialised_positions(game, text):
    start, _, _ = game
    try:
        position = Position.loads(text, start.deal, start.rules)
    except EngineError as exc:
        assert str(exc)
    else:
        # whatever loads is a position that plays on and serialises back to itself
        assert Position.loads(position.dumps(), start.deal, start.rules) == position
        assert_plays_on(position, start)


@engine_settings
@given(games(max_moves=60), st.integers(0, 6), st.integers(-3, 3))
def test_tampered_serialised_positions(game, field, delta):
    start, positions, _ = game
    position = positions[-1] if positions else start
    parts = position.dumps().split(".")
    base = 16 if field < 3 else 10
    parts[field] = format(max(int(parts[field], base) + delta, 0), "x" if base == 16 else "d")
    try:
        loaded = Position.loads(".".join(parts), start.deal, start.rules)
    except EngineError as exc:
        assert str(exc)
    else:
        assert Position.loads(loaded.dumps(), start.deal, start.rules) == loaded
        assert_plays_on(loaded, start)


def test_rules_text_round_trips_for_every_preset():
    from engine import PRESETS

    for name, rules in PRESETS.items():
        assert Rules.parse(rules.to_text()) == rules
        assert Rules.parse(rules.to_json()) == rules
        assert Rules.parse(name) == rules
        assert rules.name == name
    custom = Rules.parse("relaxed;passes=unlimited;covered_pairs=yes")
    assert custom.name == "custom"
    assert Rules.parse(custom.to_text()) == custom
    assert custom.to_text() == (
        "passes=unlimited;draw=1;stock_top=live;waste_top=live;goal=pyramid;covered_pairs=yes;reserve=0"
    )


def test_rules_refusals_say_why():
    import pytest

    from engine import RulesError

    cases = {
        "tuts-tomb;stock_top=live": "draw 3 with stock_top live is not a valid rule set",
        "classic;passes=0": "passes must be a whole number from 1 to 9, or unlimited; got 0",
        "classic;draw=2": "draw must be 1 or 3",
        "classic;colour=red": "unknown option 'colour'",
        "klondike": "unknown preset 'klondike'",
        "classic;reserve=5": "reserve must be 0 or 7",
        "classic;goal=half": "goal must be pyramid or all",
        "classic;covered_pairs=maybe": "covered_pairs must be yes or no",
    }
    for text, message in cases.items():
        with pytest.raises(RulesError, match=message):
            Rules.parse(text)
    assert preset("classic").describe().startswith("draw 1, 3 passes")
