"""Hypothesis strategies: deals, rule sets and random legal games."""

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from engine import PRESETS, Position, Rules, deal_from_number
from engine.errors import RulesError

# generous example counts, no deadline: the machine running the suite is shared and noisy
engine_settings = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _rules_or_none(options):
    try:
        return Rules.from_options(options)
    except RulesError:
        return None


rule_sets = (
    st.fixed_dictionaries(
        {
            "passes": st.sampled_from([1, 2, 3, "unlimited"]),
            "draw": st.sampled_from([1, 3]),
            "stock_top": st.sampled_from(["hidden", "live"]),
            "waste_top": st.sampled_from(["live", "dead"]),
            "goal": st.sampled_from(["pyramid", "all"]),
            "covered_pairs": st.booleans(),
            "reserve": st.sampled_from([0, 7]),
        }
    )
    .map(_rules_or_none)
    .filter(lambda rules: rules is not None)
)

# every preset by name, and any other valid combination of options
presets_and_rule_sets = st.one_of(st.sampled_from(list(PRESETS.values())), rule_sets)

deals = st.integers(min_value=0, max_value=2**64 - 1).map(deal_from_number)


@st.composite
def games(draw, max_moves=150, rules=rule_sets):
    """(start position, list of positions after each move, the moves) of a random legal game.

    Removals are preferred, as a player would, so games go deep into the pyramid."""
    deal, rules = draw(deals), draw(rules)
    position = Position.start(deal, rules)
    start = position.copy()
    positions, moves = [], []
    for _ in range(draw(st.integers(min_value=0, max_value=max_moves))):
        legal = position.legal_moves()
        if not legal:
            break
        removals = [m for m in legal if m.is_removal]
        pool = removals if removals and draw(st.integers(0, 9)) < 8 else legal
        move = pool[draw(st.integers(0, len(pool) - 1))]
        position = position.play(move)
        positions.append(position)
        moves.append(move)
    return start, positions, moves
