"""Hints in a player's words: cards by name (``Pair 9♥ with the waste's 4♣: it frees 6♠``), the
strategy reasons of docs/rules.md section 17, no location numbers, and never a face-down stock
card; the ``move`` and ``locations`` fields keep the notation for clients."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import PRESETS, Position, card_pretty, card_text, parse_move, preset
from engine.solver import hint
from engine.solver.hints import explain
from tests.engine.builders import build_deal, position_with
from tests.engine.strategies import engine_settings, games, rule_sets

CLASSIC, RELAXED = preset("classic"), preset("relaxed")
EVERY_PYRAMID = set(range(28))

# a bottom row in which nothing pairs and no king lies (values 1 2 3 4 5 6 1)
QUIET = {21: "AC", 22: "2C", 23: "3C", 24: "4C", 25: "5C", 26: "6C", 27: "AD"}
# 6♠ at 15 lies under 9♥ (21) and K♠ (22); the waste top will be the 4♣
FREES = build_deal({15: "6S", 16: "5D", 21: "9H", 22: "KS", 23: "8C", 26: "2H", 27: "9D"}, stock=["4C", "5C"])


def freeing_position() -> Position:
    """The K♠ gone and the 4♣ drawn: 9♥ with the waste's 4♣ frees the 6♠."""
    return position_with(FREES, CLASSIC, EVERY_PYRAMID - {22}, pointer=1, moves=2)


GOLDEN = [
    (
        "a pair with the waste that frees a card",
        freeing_position,
        "21+W",
        "Pair 9♥ with the waste's 4♣: it frees 6♠; take the 4♣ now, before the next draw covers it; "
        "no other pair frees as much.",
    ),
    (
        "a pair with the waste that frees nothing",
        freeing_position,
        "27+W",
        "Pair 9♦ with the waste's 4♣: take the 4♣ now, before the next draw covers it.",
    ),
    (
        "a pair inside the pyramid",
        lambda: Position.start(build_deal({**QUIET, 21: "9H", 23: "4D"}), CLASSIC),
        "21+23",
        "Pair 9♥ with 4♦: a pair inside the pyramid clears more of it than one that uses the pile.",
    ),
    (
        "a card that needs the pile's partner",
        lambda: Position.start(build_deal({**QUIET, 21: "9H", 24: "3D"}, stock=["4C", "4D", "4H", "4S"]), RELAXED),
        "21+S",
        "Pair 9♥ with the stock's 4♣: 9♥ has no 4 left in the pyramid that it could ever reach, so it needs "
        "the pile's 4; use the 4♣ while it is live, before it goes to the waste.",
    ),
    (
        "a pyramid king",
        lambda: Position.start(build_deal({21: "KD", 22: "QC"}), CLASSIC),
        "21",
        "Take the K♦ at once: a king never pairs with anything, so keeping it only blocks the cards under it.",
    ),
    (
        "a pyramid king that frees a card",
        lambda: position_with(build_deal({15: "6S", 21: "KD"}), CLASSIC, EVERY_PYRAMID - {22}),
        "21",
        "Take the K♦ at once: a king never pairs with anything, so keeping it only blocks the cards under it; "
        "it frees 6♠.",
    ),
    (
        "the waste's king",
        lambda: Position.start(build_deal({}, stock=["KC"]), CLASSIC).apply("draw"),
        "W",
        "Take the waste's K♣ at once: a king never pairs with anything, so keeping it only blocks the pile under it.",
    ),
    (
        "the stock's king",
        lambda: Position.start(build_deal({}, stock=["KC"]), RELAXED),
        "S",
        "Take the stock's K♣ at once: a king never pairs with anything, so keeping it only blocks the pile under it.",
    ),
    (
        "the reserve's king",
        lambda: Position.start(build_deal({}, reserve=["KC", "6D", "7S", "AC", "AD", "AH", "2C"]), preset("reserve")),
        "R0",
        "Take the reserve's K♣ at once: a king never pairs with anything, so keeping it only takes up room in "
        "the reserve.",
    ),
    (
        "a covered pair",
        lambda: Position.start(build_deal({15: "7H", 21: "6S", 22: "KS"}), preset("overlap")).apply("22"),
        "15+21",
        "Pair 7♥ with 6♠: under these rules 6♠ may pair with the 7♥ it alone covers; a pair inside the "
        "pyramid clears more of it than one that uses the pile.",
    ),
    (
        "draw, nothing pairs",
        lambda: Position.start(build_deal(QUIET), CLASSIC),
        "draw",
        "Draw: nothing pairs yet, so turn the next card.",
    ),
    (
        "draw, the waste top has no partner",
        lambda: Position.start(build_deal(QUIET, stock=["5H"]), CLASSIC).apply("draw"),
        "draw",
        "Draw: the waste's 5♥ has no partner among the free cards, so the next card is worth more.",
    ),
    (
        "draw, neither live top has a partner",
        lambda: Position.start(build_deal(QUIET, stock=["5H", "6H"]), RELAXED).apply("draw"),
        "draw",
        "Draw: the stock's 6♥ and the waste's 5♥ have no partner among the free cards, so the next card is worth more.",
    ),
    (
        "draw, pairs that can wait",
        freeing_position,
        "draw",
        "Draw: the pairs in view can wait, and taking them now would spend cards a later one needs more.",
    ),
    (
        "redeal",
        lambda: position_with(build_deal({21: "6S", 22: "7D"}), CLASSIC, EVERY_PYRAMID, pointer=24),
        "redeal",
        "Redeal: the stock is empty and nothing in view pairs usefully, so turn the waste over to start pass 2.",
    ),
]


@pytest.mark.parametrize(("what", "build", "move", "text"), GOLDEN, ids=[case[0] for case in GOLDEN])
def test_every_kind_of_explanation_word_for_word(what, build, move, text):
    position = build()
    assert parse_move(move) in position.legal_moves()
    assert explain(position, parse_move(move)) == text


def test_a_hint_names_cards_and_keeps_the_notation_for_clients():
    advice = hint(freeing_position())
    assert advice.move == "21+W" and advice.locations == ["21", "W"]
    assert advice.explanation.startswith("Pair 9♥ with the waste's 4♣: it frees 6♠; ")
    assert re.search(r"This position can still be won in \d+ moves\.$", advice.explanation)


# --- never a face-down stock card, never a location number -------------------------------------------


def face_down(position: Position) -> list[int]:
    cards = position.stock_cards()
    return cards[1:] if position.rules.stock_live else cards


def assert_player_words(text: str, position: Position, what: str) -> None:
    for card in face_down(position):
        assert card_pretty(card) not in text and not re.search(rf"\b{card_text(card)}\b", text), (what, text)
    assert not re.search(r"\bposition \d+|\bR\d\b|\b\d+\+|\+[SW0-9]\b|\bat [SW]\b", text), (what, text)


def check_hints(game, budget: float | None) -> None:
    start, positions, _ = game
    everything = [start, *positions]
    for position in everything[-3:]:
        for move in position.legal_moves():
            assert_player_words(explain(position, move), position, str(move))
    if budget is not None:
        last = everything[-1]
        advice = hint(last, budget_seconds=budget)
        assert_player_words(advice.explanation, last, f"hint {advice.move}")
        if advice.move is not None:
            assert advice.locations == [str(part) for part in advice.move.split("+")] or advice.move in (
                "draw",
                "redeal",
            )


@pytest.mark.parametrize("rules_name", list(PRESETS))
@settings(engine_settings, max_examples=25)
@given(data=st.data())
def test_no_hint_names_a_face_down_stock_card_under_any_preset(rules_name, data):
    check_hints(data.draw(games(rules=st.just(PRESETS[rules_name]))), budget=0.05)


@settings(engine_settings, max_examples=60)
@given(games(rules=rule_sets))
def test_no_hint_names_a_face_down_stock_card_under_any_rule_set(game):
    check_hints(game, budget=0.05)
