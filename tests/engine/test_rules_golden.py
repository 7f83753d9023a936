"""Golden tests: hand-built positions from the rule pages described in docs/rules.md."""

import random

import pytest

from engine import IllegalMove, Position, Rules, parse_card, preset, score
from engine.moves import WASTE

from .builders import build_deal, position_with

CLASSIC, RELAXED, STRICT = preset("classic"), preset("relaxed"), preset("strict")


def removal_strings(position):
    return {str(m) for m in position.legal_moves() if m.is_removal}


def test_english_rule_page_worked_example():
    # 6♠ and 9♣ end the bottom row over the 4♥; the 7♦ turns up, then 5♣, K♣, and later a 4
    deal = build_deal(
        {20: "4H", 21: "AC", 22: "AD", 23: "2C", 24: "2D", 25: "3C", 26: "6S", 27: "9C"},
        stock=["7D", "5C", "KC", "2H", "4D"],
    )
    position = Position.start(deal, CLASSIC)
    assert position.is_free(26) and not position.is_free(20)
    position.apply("draw")
    position.apply("26+W")  # 6 + 7 = 13
    assert not position.is_free(20)
    with pytest.raises(IllegalMove, match="^4♥ is covered by 9♣$"):
        position.check("20+W")
    position.apply("draw")
    assert position.card_at(WASTE) == parse_card("5C")
    assert not any("W" in m for m in removal_strings(position))  # nothing pairs with the 5♣
    position.apply("draw")
    position.apply("W")  # the K♣ alone
    assert position.card_at(WASTE) == parse_card("5C")  # the 5♣ is on top again
    position.apply("draw")
    position.apply("draw")
    position.apply("W+27")  # 4 + 9 = 13
    assert position.is_free(20)
    assert position.moves == 8


@pytest.mark.parametrize("rules_name", ["classic", "overlap"])
def test_a_six_lying_on_its_own_seven(rules_name):
    rules = preset(rules_name)
    deal = build_deal({15: "7H", 21: "6S", 22: "KS"})
    position = Position.start(deal, rules)
    with pytest.raises(IllegalMove, match="^7♥ is covered by 6♠ and K♠[:,] "):
        position.check("21+15")
    position.apply("22")  # the king goes; now only the 6 lies on the 7
    if rules.covered_pairs:
        assert "15+21" in removal_strings(position)
        position.apply("21+15")
        assert not position.pyramid >> 15 & 1 and not position.pyramid >> 21 & 1
    else:
        assert "15+21" not in removal_strings(position)
        with pytest.raises(
            IllegalMove, match="^7♥ is covered by 6♠: a card never pairs with a card it covers under these rules$"
        ):
            position.check("21+15")


def test_covered_pair_needs_the_upper_card_free():
    # under covered_pairs the covering card must itself be free
    rules = preset("overlap")
    deal = build_deal({10: "7H", 15: "6S"})
    position = Position.start(deal, rules)
    with pytest.raises(
        IllegalMove,
        match="^7♥ is covered by 6♠ and 4♥, and a card pairs with the card it covers only when nothing else covers it$",
    ):
        position.check("15+10")
    # 16 gone, so only the 6 lies on the 7, but the 6 itself is still under 21
    position = position_with(deal, rules, set(range(28)) - {16, 22, 23})
    with pytest.raises(IllegalMove, match="^6♠ is covered by 5♠$"):
        position.check("15+10")


@pytest.mark.parametrize("rules_name", ["classic", "relaxed", "strict", "tuts-tomb", "one-look"])
def test_a_top_six_over_all_four_sevens_never_leaves(rules_name):
    deal = build_deal({0: "6S", 5: "7C", 12: "7D", 20: "7H", 27: "7S"})
    rng = random.Random(rules_name)
    for _ in range(60):
        position = Position.start(deal, preset(rules_name))
        while position.status == "playing":
            moves = position.legal_moves()
            removals = [m for m in moves if m.is_removal]
            position.apply(rng.choice(removals) if removals and rng.random() < 0.9 else rng.choice(moves))
            assert position.pyramid & 1, "the 6 on top can never be taken"
        assert position.status == "stuck"


def test_kings_go_alone_from_pyramid_stock_top_and_waste():
    deal = build_deal({21: "KS", 22: "7D"}, stock=["KD", "KH", "5C"])
    position = Position.start(deal, RELAXED)
    assert {"21", "S"} <= removal_strings(position)
    with pytest.raises(IllegalMove, match="^7♦ is not a king: only a king goes alone$"):
        position.check("22")
    position.apply("21").apply("S")
    assert position.stock_count == 23
    position.apply("draw")
    assert position.card_at(WASTE) == parse_card("KH")
    position.apply("W")
    assert position.waste_count == 0 and position.moves == 4

    hidden = Position.start(deal, CLASSIC)
    with pytest.raises(IllegalMove, match="the stock top is face down under these rules"):
        hidden.check("S")


def test_stock_top_pairs_with_waste_top_only_when_both_are_live():
    deal = build_deal({}, stock=["7D", "6C", "2S"])
    relaxed = Position.start(deal, RELAXED).apply("draw")
    assert "S+W" in removal_strings(relaxed)
    relaxed.apply("S+W")
    assert relaxed.waste_count == 0 and relaxed.card_at(35) == parse_card("2S")

    classic = Position.start(deal, CLASSIC).apply("draw")
    with pytest.raises(IllegalMove, match="face down"):
        classic.check("W+S")


def test_waste_top_is_dead_under_one_look():
    deal = build_deal({21: "6S"}, stock=["7D", "7C"])
    position = Position.start(deal, preset("one-look"))
    assert "21+S" in removal_strings(position)  # the stock top is live
    position.apply("draw")
    with pytest.raises(IllegalMove, match="the waste top is dead under these rules"):
        position.check("21+W")
    position.apply("21+S")


def test_draw_three_under_tuts_tomb():
    deal = build_deal({21: "6S"}, stock=["2C", "7D", "KH", "AC", "AD", "AH"])
    position = Position.start(deal, preset("tuts-tomb"))
    position.apply("draw")
    assert list(position.waste_cards()) == [parse_card(c) for c in ("2C", "7D", "KH")]
    assert position.card_at(WASTE) == parse_card("KH")  # only the last one lands on top
    assert position.stock_count == 21
    position.apply("W")
    position.apply("21+W")  # the 7♦ under the king is on top now
    assert position.card_at(WASTE) == parse_card("2C")
    # 22 cards left in the pile: seven draws of three and one of one
    while position.stock_count:
        position.apply("draw")
    assert position.moves == 3 + 7
    position.apply("redeal")
    counts = []
    while position.stock_count:
        position.apply("draw")
        counts.append(position.waste_count)
    assert counts == [3, 6, 9, 12, 15, 18, 21, 22]
    assert position.card_at(WASTE) == position.board.pile_cards[-1]

    with pytest.raises(Exception, match="draw 3 with stock_top live is not a valid rule set"):
        Rules.parse("tuts-tomb;stock_top=live")


def test_reserve_cards_are_always_available():
    deal = build_deal({21: "7C"}, reserve=["KC", "6D", "7S", "AC", "AD", "AH", "2C"], stock=["QC"])
    position = Position.start(deal, preset("reserve"))
    assert {"R0", "R1+R2", "21+R1", "R3+S", "R4+S", "R5+S"} <= removal_strings(position)
    position.apply("R0").apply("R1+R2").apply("R3+S")
    assert position.reserve_left == 3
    with pytest.raises(IllegalMove, match="^the reserve's K♣ is already gone$"):
        position.check("R0")
    classic = Position.start(deal, CLASSIC)
    with pytest.raises(IllegalMove, match="there is no reserve under these rules"):
        classic.check("R0")


def test_redeal_limits():
    deal = build_deal({21: "6S", 22: "7D"})  # a pair in the bottom row: never stuck
    strict = Position.start(deal, STRICT)
    for _ in range(24):
        strict.apply("draw")
    with pytest.raises(IllegalMove, match="the stock is empty and no pass is left"):
        strict.check("draw")
    with pytest.raises(IllegalMove, match="no pass is left: these rules allow 1 pass$"):
        strict.check("redeal")

    classic = Position.start(deal, CLASSIC)
    with pytest.raises(IllegalMove, match="the stock still has 24 cards"):
        classic.check("redeal")
    for pass_no in (1, 2, 3):
        assert classic.pass_no == pass_no
        for _ in range(24):
            classic.apply("draw")
        if pass_no < 3:
            with pytest.raises(IllegalMove, match=f"redeal to start pass {pass_no + 1}"):
                classic.check("draw")
            classic.apply("redeal")
    with pytest.raises(IllegalMove, match="these rules allow 3 passes"):
        classic.check("redeal")
    assert classic.moves == 3 * 24 + 2


def test_unlimited_passes_and_when_they_are_stuck():
    rules = Rules.parse("classic;passes=unlimited")
    deal = build_deal({21: "6S", 22: "7D"})
    position = Position.start(deal, rules)
    for _ in range(10):
        for _ in range(24):
            position.apply("draw")
        position.apply("redeal")
    assert position.pass_no == 11

    # the last 6 on top and no 7 or king left anywhere: a whole trip finds nothing, so it is stuck
    kings = {5: "KC", 6: "KD", 7: "KH", 8: "KS"}
    lonely = build_deal({0: "6S", 1: "7C", 2: "7D", 3: "7H", 4: "7S", **kings})
    assert position_with(lonely, rules, {0}).status == "stuck"
    # a 7 still in the pile, even deep in the waste, can come round again
    hopeful = build_deal({0: "6S", 1: "7C", 2: "7D", 3: "7H", **kings}, stock=["7S"])
    waiting = position_with(hopeful, rules, {0}, pointer=24)
    assert waiting.status == "playing"
    last_pass = position_with(hopeful, CLASSIC, {0}, pointer=24, pass_no=3)
    assert last_pass.status == "stuck"  # the same, with no pass left
    with pytest.raises(IllegalMove, match="the deal is over"):
        position_with(lonely, rules, {0}, pointer=24).check("redeal")


def test_goal_all_needs_every_card():
    deal = build_deal({21: "6S", 22: "7D"})
    par = position_with(deal, preset("par"), set(), cleared_pass=1)
    assert par.status == "playing" and par.cards_left == 24 and par.pyramid_left == 0
    relaxed = position_with(deal, RELAXED, set(), cleared_pass=1)
    assert relaxed.status == "won" and relaxed.cards_left == 0
    with pytest.raises(IllegalMove, match="already won"):
        relaxed.check("draw")


def test_par_pyramid_match_score():
    deal = build_deal({21: "6S", 22: "7D"})
    rules = preset("par")
    cleared_in_2 = position_with(deal, rules, set(), cleared_pass=2, pass_no=2, pile=(1 << 10) - 1, pointer=10)
    assert score(cleared_in_2).match_score == 35 - 10
    not_cleared = position_with(deal, rules, {0, 1, 2}, pile=(1 << 5) - 1, pointer=5, pass_no=3)
    assert score(not_cleared).match_score == -(3 + 5)
    assert score(not_cleared).cards_left == 8 and score(not_cleared).pyramid_left == 3


def test_removal_clears_pyramid_records_the_pass():
    deal = build_deal({0: "KS", 1: "6S", 2: "7D"})
    position = position_with(deal, RELAXED, {0, 1, 2}, pass_no=2)
    position.apply("1+2").apply("0")
    assert position.status == "won" and position.cleared_pass == 2
    assert score(position).cleared_pass == 2


def test_pair_must_add_to_thirteen():
    deal = build_deal({21: "7D", 22: "5C"})
    with pytest.raises(IllegalMove, match=r"^7♦ \+ 5♣ make 12, not 13$"):
        Position.start(deal, CLASSIC).check("21+22")
