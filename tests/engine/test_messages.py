"""The engine's refusals in a player's words: cards by name, never by location number, and never a
face-down stock card. One golden position for every refusal of ``Position.why_illegal`` (the table
of docs/rules.md, section 10, quotes the same texts), the order in which they win, and properties
over random games."""

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import PRESETS, IllegalMove, Position, Rules, card_pretty, card_text, parse_move, player_view, preset
from engine.layout import COVERED_BY, PYRAMID_SIZE
from engine.moves import DRAW_MOVE, REDEAL_MOVE, WASTE, king_move, location_text, pair_move

from .builders import build_deal, position_with
from .strategies import engine_settings, games, presets_and_rule_sets

CLASSIC, RELAXED, STRICT = preset("classic"), preset("relaxed"), preset("strict")
RESERVE, OVERLAP, ONE_LOOK = preset("reserve"), preset("overlap"), preset("one-look")
EVERY_PYRAMID = set(range(PYRAMID_SIZE))

# The deal of the golden positions. The pyramid, by position:
#   0 7♣ under 1 Q♦ and 2 2♠;  15 7♥ under 21 6♠ and 22 K♠;  20 8♥ under 26 4♣ and 27 9♣;  25 10♥;
# the stock from its top 7♦ 5♣ K♦ ...; under reserve: 7 the same, with the reserve 5♦ K♣ 3♣ ... dealt first.
PYRAMID = {0: "7C", 1: "QD", 2: "2S", 15: "7H", 20: "8H", 21: "6S", 22: "KS", 25: "TH", 26: "4C", 27: "9C"}
STOCK_TOP = ["7D", "5C", "KD"]
DEAL = build_deal(PYRAMID, stock=STOCK_TOP)
RESERVE_DEAL = build_deal(PYRAMID, reserve=["5D", "KC", "3C", "AC", "AD", "AH", "2C"], stock=STOCK_TOP)
# with no 7 left anywhere but under the 6 on top, and no king: stuck once the stock is spent
LONELY = build_deal({0: "6S", 1: "7C", 2: "7D", 3: "7H", 4: "7S", 5: "KC", 6: "KD", 7: "KH", 8: "KS"})


def deal_for(rules):
    return RESERVE_DEAL if rules.reserve else DEAL


def start(rules):
    return Position.start(deal_for(rules), rules)


def left(rules, pyramid=EVERY_PYRAMID, **fields):
    """A position of the golden deal with only ``pyramid`` left there, and the fields given."""
    return position_with(deal_for(rules), rules, pyramid, **fields)


def after(rules, *moves):
    position = start(rules)
    for move in moves:
        position.apply(move)
    return position


def drawn_out(rules, **fields):
    """Every stock card drawn onto the waste in pass 1 (or the pass given)."""
    return left(rules, pointer=start(rules).board.pile_size, **fields)


def emptied(rules):
    """Stock and waste both empty (their cards all removed)."""
    return left(rules, pile=0, pointer=0)


GOLDEN = [
    # (what, position, move, the refusal word for word)
    ("won", lambda: left(RELAXED, set(), cleared_pass=1), "draw", "the deal is already won"),
    ("won, a removal", lambda: left(RELAXED, set(), cleared_pass=1), "22", "the deal is already won"),
    ("pyramid card gone", lambda: left(CLASSIC, EVERY_PYRAMID - {27}), "27", "9♣ is already gone from the pyramid"),
    ("covered by two", lambda: start(CLASSIC), "0", "7♣ is covered by Q♦ and 2♠"),
    ("covered by one", lambda: left(CLASSIC, EVERY_PYRAMID - {26}), "20", "8♥ is covered by 9♣"),
    (
        "covered, partner lies on it, covered_pairs no",
        lambda: after(CLASSIC, "22"),
        "15+21",
        "7♥ is covered by 6♠: a card never pairs with a card it covers under these rules",
    ),
    (
        "covered, partner lies on it with another, covered_pairs yes",
        lambda: start(OVERLAP),
        "15+21",
        "7♥ is covered by 6♠ and K♠, and a card pairs with the card it covers only when nothing else covers it",
    ),
    ("no reserve", lambda: start(CLASSIC), "R0", "there is no reserve under these rules"),
    ("reserve card gone", lambda: left(RESERVE, reserve=0b1111110), "R0", "the reserve's 5♦ is already gone"),
    (
        "stock top face down",
        lambda: start(CLASSIC),
        "S",
        "the stock top is face down under these rules: draw to turn it",
    ),
    ("stock empty", lambda: drawn_out(RELAXED), "S", "the stock is empty"),
    (
        "waste top dead",
        lambda: after(ONE_LOOK, "draw"),
        "W",
        "the waste's 7♦ cannot be taken: the waste top is dead under these rules",
    ),
    ("waste top dead, waste empty", lambda: start(ONE_LOOK), "W", "the waste top is dead under these rules"),
    ("waste empty", lambda: start(CLASSIC), "W", "the waste is empty"),
    ("no king, pyramid", lambda: start(CLASSIC), "27", "9♣ is not a king: only a king goes alone"),
    ("no king, reserve", lambda: start(RESERVE), "R0", "the reserve's 5♦ is not a king: only a king goes alone"),
    ("no king, live stock top", lambda: start(RELAXED), "S", "the stock's 7♦ is not a king: only a king goes alone"),
    ("no king, waste top", lambda: after(CLASSIC, "draw"), "W", "the waste's 7♦ is not a king: only a king goes alone"),
    ("not 13", lambda: start(CLASSIC), "25+26", "10♥ + 4♣ make 14, not 13"),
    ("not 13, with the waste", lambda: after(CLASSIC, "draw"), "27+W", "9♣ + 7♦ make 16, not 13"),
    ("not 13, stock and waste", lambda: after(RELAXED, "draw"), "S+W", "5♣ + 7♦ make 12, not 13"),
    (
        "draw, stock empty, a pass left",
        lambda: drawn_out(CLASSIC),
        "draw",
        "the stock is empty: redeal to start pass 2",
    ),
    ("draw, stock and waste empty", lambda: emptied(CLASSIC), "draw", "the stock and the waste are both empty"),
    ("draw, stock empty, no pass left", lambda: drawn_out(STRICT), "draw", "the stock is empty and no pass is left"),
    (
        "redeal, cards in the stock",
        lambda: start(CLASSIC),
        "redeal",
        "the stock still has 24 cards: redeal only when it is empty",
    ),
    (
        "redeal, one card in the stock",
        lambda: left(CLASSIC, pointer=23),
        "redeal",
        "the stock still has 1 card: redeal only when it is empty",
    ),
    ("redeal, no pass left (one)", lambda: drawn_out(STRICT), "redeal", "no pass is left: these rules allow 1 pass"),
    (
        "redeal, no pass left (three)",
        lambda: drawn_out(CLASSIC, pass_no=3),
        "redeal",
        "no pass is left: these rules allow 3 passes",
    ),
    ("redeal, waste empty", lambda: emptied(CLASSIC), "redeal", "the waste is empty: there is nothing to redeal"),
    (
        "stuck",
        lambda: position_with(LONELY, Rules.parse("classic;passes=unlimited"), {0}, pointer=24),
        "redeal",
        "the deal is over: no removal is possible and none can come up by drawing or redealing",
    ),
]


@pytest.mark.parametrize(("what", "build", "move", "reason"), GOLDEN, ids=[case[0] for case in GOLDEN])
def test_every_refusal_word_for_word(what, build, move, reason):
    position = build()
    assert position.why_illegal(parse_move(move)) == reason
    with pytest.raises(IllegalMove) as refused:
        position.check(move)
    assert (refused.value.reason, refused.value.move, str(refused.value)) == (reason, str(parse_move(move)), reason)


def test_the_rule_book_quotes_these_refusals_word_for_word():
    """docs/rules.md, section 10: every whole reason its refusal table quotes is one of the golden ones
    (fragments, such as the tails added to a covered card's reason, are left out), and every kind of
    refusal in the table is quoted."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text()
    table = text[text.index("**Refusals.**") : text.index("For a pair, the first location is checked")]
    rows = [line.split("|")[2] for line in table.splitlines() if line.startswith("| ") and "reason given" not in line]
    quoted = [q for row in rows for q in re.findall(r"`([^`]+)`", row)]
    whole = [q for q in quoted if len(q) > 12 and "…" not in q and not q.startswith((":", ","))]
    golden = {reason for *_, reason in GOLDEN}
    assert whole and not [q for q in whole if q not in golden]
    assert len(rows) == 20 and all(re.search(r"`[^`]+`", row) for row in rows)


ORDER = [
    # both cards are refused: the first location (in the notation's order) gives the reason
    ("0+W", lambda: start(CLASSIC), "7♣ is covered by Q♦ and 2♠"),
    ("W+0", lambda: start(CLASSIC), "7♣ is covered by Q♦ and 2♠"),
    ("S+W", lambda: start(CLASSIC), "the stock top is face down under these rules: draw to turn it"),
    ("S+W", lambda: after(ONE_LOOK, "draw"), "the waste's 7♦ cannot be taken: the waste top is dead under these rules"),
    ("R0+0", lambda: left(RESERVE, reserve=0b1111110), "7♣ is covered by Q♦ and 2♠"),
    # a card is refused before the total is looked at
    (
        "0+1",
        lambda: start(CLASSIC),
        "7♣ is covered by Q♦ and 2♠: a card never pairs with a card it covers under these rules",
    ),
    ("1+27", lambda: start(CLASSIC), "Q♦ is covered by A♣ and A♦"),
    # a won deal refuses everything with the same words
    ("0", lambda: left(RELAXED, set(), cleared_pass=1), "the deal is already won"),
]


@pytest.mark.parametrize(("move", "build", "reason"), ORDER, ids=[f"{i}:{case[0]}" for i, case in enumerate(ORDER)])
def test_which_refusal_wins(move, build, reason):
    assert build().why_illegal(parse_move(move)) == reason


def test_a_card_lying_on_its_only_partner_pairs_under_overlap():
    position = after(OVERLAP, "22")
    assert position.why_illegal(parse_move("15+21")) is None


# --- no refusal names a face-down stock card, nor a location number ------------------------------------

EVERY_MOVE = [
    DRAW_MOVE,
    REDEAL_MOVE,
    *(king_move(loc) for loc in range(WASTE + 1)),
    *(pair_move(a, b) for a in range(WASTE + 1) for b in range(a + 1, WASTE + 1)),
]


def face_down(position):
    """The stock cards no player sees: all of them, less a live stock top."""
    cards = position.stock_cards()
    return cards[1:] if position.rules.stock_live else cards


def naming(text: str, cards) -> list[int]:
    """The cards of ``cards`` that ``text`` names, by their face (``7♦``) or their token (``7D``)."""
    return [c for c in cards if card_pretty(c) in text or re.search(rf"\b{card_text(c)}\b", text)]


def sampled_positions(game, data):
    start_position, positions, _ = game
    everything = [start_position, *positions]
    picks = data.draw(st.lists(st.integers(0, len(everything) - 1), max_size=3))
    return [everything[-1], *(everything[i] for i in picks)]


def check_refusals(position):
    hidden = face_down(position)
    for move in EVERY_MOVE:
        reason = position.why_illegal(move)
        if reason is None:
            continue
        assert not naming(reason, hidden), (str(move), reason)
        # places are named as a player says them: no location number, no notation
        assert not re.search(r"\b(position \d+|R\d|[SW])\b", reason), (str(move), reason)
        assert not re.search(r"(?<![\w♣♦♥♠])(?:\d+|R\d)\+", reason), (str(move), reason)


@pytest.mark.parametrize("rules_name", list(PRESETS))
@settings(engine_settings, max_examples=40)
@given(data=st.data())
def test_no_refusal_names_a_face_down_stock_card_under_any_preset(rules_name, data):
    game = data.draw(games(rules=st.just(PRESETS[rules_name])))
    for position in sampled_positions(game, data):
        check_refusals(position)


@engine_settings
@given(games(), st.data())
def test_no_refusal_names_a_face_down_stock_card_under_any_rule_set(game, data):
    for position in sampled_positions(game, data):
        check_refusals(position)


# --- what the web page says without asking the server -------------------------------------------------


def page_covered_reason(view: dict, location: str, partner: str | None = None) -> str | None:
    """What table.js's ``coveredReason`` says from the player's view alone: a covered pyramid card and
    the cards on it, named; None where the page leaves the answer to the server."""
    if view["status"] != "playing" or not location.isdigit():
        return None
    slot = view["pyramid"][int(location)]
    if not slot or slot["free"]:
        return None
    on = [q for q in COVERED_BY[int(location)] if view["pyramid"][q]]
    if not on or partner in map(str, on):
        return None

    def label(token):
        return ("10" if token[0] == "T" else token[0]) + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[token[1]]

    return f"{label(slot['card'])} is covered by {' and '.join(label(view['pyramid'][q]['card']) for q in on)}"


@engine_settings
@given(games(rules=presets_and_rule_sets))
def test_the_page_says_a_covered_card_in_the_engines_words_from_the_view_alone(game):
    start_position, positions, _ = game
    for position in [start_position, *positions][-5:]:
        view = json.loads(json.dumps(player_view(position)))  # what the page has: JSON
        available = [location_text(loc) for loc, _ in position.available()]
        for p in range(PYRAMID_SIZE):
            location = str(p)
            said = page_covered_reason(view, location)
            if position.status != "playing":
                assert said is None
                continue
            if said is not None:
                # a click on the card alone, and a pair with any card that does not lie on it
                assert said == position.why_illegal(king_move(p))
                for partner in available:
                    if page_covered_reason(view, location, partner) is not None:
                        assert said == position.why_illegal(parse_move(f"{location}+{partner}"))
            elif position.pyramid >> p & 1:
                assert position.is_free(p)  # the page asks the server only about what it cannot tell
