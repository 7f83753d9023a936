"""Forced play (docs/rules.md, section 19) against a slow reference written from the rule book.

The reference below shares nothing with engine/forced.py but the rules themselves (``Position``'s
legal moves, the rule book's authority): it deals every order of the real face-down cards (no
grouping by value, no dead cards, no bounds), follows every line of play in each, and looks for the
shortest list of moves that is legal in all of them and ends the deal in all of them.
"""

from __future__ import annotations

import itertools
import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import PRESETS, Deal, Position, Rules, deal_from_number, player_view
from engine import forced as forced_module
from engine.forced import forced_line
from engine.layout import ABOVE_MASK
from engine.position import PLAYING, board_for

from .builders import build_deal, position_with

FINITE_PRESETS = [rules for rules in PRESETS.values() if not rules.unlimited_passes]
MORE_RULES = [
    Rules.parse(text)
    for text in (
        "classic;passes=1",
        "classic;goal=all",
        "one-look;goal=all",
        "tuts-tomb;goal=all;passes=1",
        "relaxed;covered_pairs=yes",
        "strict;reserve=7;passes=2",
        "classic;waste_top=dead;reserve=7",
    )
]
ALL_RULES = FINITE_PRESETS + MORE_RULES


# --- the reference ------------------------------------------------------------------------------------
def face_down(position: Position) -> list[int]:
    """Pile indices of the cards the player has not seen: in pass 1 the stock, less its top where it is
    live; none in a later pass (a redeal needs an empty stock: every pile card was turned in pass 1)."""
    if position.pass_no > 1:
        return []
    stock = [i for i in range(position.pointer, position.board.pile_size) if position.pile >> i & 1]
    return stock[1:] if position.rules.stock_live and stock else stock


def every_order(position: Position) -> list[Position]:
    """The position under every order of its face-down cards (every permutation of the real cards)."""
    slots = face_down(position)
    cards = list(position.deal.cards)
    base = 28 + position.rules.reserve
    found = {}
    for order in itertools.permutations([cards[base + i] for i in slots]):
        dealt = cards[:]
        for slot, card in zip(slots, order, strict=True):
            dealt[base + slot] = card
        deal = Deal(tuple(dealt))
        found[deal] = Position(
            board_for(deal, position.rules),
            position.pyramid,
            position.reserve,
            position.pile,
            position.pointer,
            position.pass_no,
            position.moves,
            position.cleared_pass,
        )
    return list(found.values())


def every_result(position: Position) -> set[tuple[str, int]]:
    """The results (status, cards left) of every line of play from here (finite passes only)."""

    @cache
    def results(key) -> frozenset:
        here = Position(position.board, *key)
        moves = here.legal_moves()
        if not moves:
            return frozenset({(here.status, here.cards_left)})
        return frozenset().union(*(results(here.play(m).key()) for m in moves))

    return set(results(position.key()))


def shortest_common_line(orders: list[Position]) -> int | None:
    """The length of the shortest list of moves legal in every order that ends the deal in every
    order, or None when no such list exists."""

    @cache
    def shortest(key) -> float:
        here = [Position(o.board, *key) for o in orders]
        legal = [{str(m) for m in p.legal_moves()} for p in here]
        if not any(legal):
            return 0
        if not all(legal):
            return float("inf")
        common = set.intersection(*legal)
        return min((1 + shortest(here[0].play(m).key()) for m in common), default=float("inf"))

    length = shortest(orders[0].key())
    return None if length == float("inf") else int(length)


def reachable_count(position: Position) -> int:
    seen, todo = {position.key()}, [position]
    while todo:
        here = todo.pop()
        for move in here.legal_moves():
            child = here.play(move)
            if child.key() not in seen:
                seen.add(child.key())
                todo.append(child)
    return len(seen)


# --- small late-game positions -----------------------------------------------------------------------
def small_position(
    seed: int, rules: Rules | None = None, max_face_down: int = 4, first_pass: bool = False
) -> Position | None:
    """A random late-game position: a few pyramid cards, a few reserve and pile cards; None when it
    is not being played (won or stuck) or has too many face-down cards for the reference."""
    rng = random.Random(seed)
    rules = rules or rng.choice(ALL_RULES)
    deal = deal_from_number(rng.randrange(2**64))
    board = board_for(deal, rules)
    pyramid = 0
    for _ in range(rng.choice((0, 1, 1, 2, 2, 3))):
        p = rng.randrange(10)  # rows 0 to 3: at most a few cards each
        pyramid |= 1 << p | ABOVE_MASK[p]
    if rng.random() < 0.3:  # now and then a card of the bottom rows with its whole column
        p = rng.randrange(10, 28)
        pyramid |= 1 << p | ABOVE_MASK[p]
    reserve = sum(1 << i for i in rng.sample(range(rules.reserve), rng.randint(0, min(3, rules.reserve))))
    kept = sorted(rng.sample(range(board.pile_size), rng.randint(0, 7)))
    pile = sum(1 << i for i in kept)
    waste = rng.randint(0, len(kept))
    pointer = kept[waste - 1] + 1 if waste else 0
    pass_no = 1 if first_pass else rng.randint(1, rules.passes)
    position = Position(
        board, pyramid, reserve, pile, pointer, pass_no, moves=60, cleared_pass=0 if pyramid else pass_no
    )
    if position.status != PLAYING or len(face_down(position)) > max_face_down:
        return None
    return position


def check_against_reference(position: Position) -> str:
    """Check forced_line on one position against the reference; say which case it was."""
    line = forced_line(position)
    orders = every_order(position)
    results = [every_result(o) for o in orders]
    one_result = all(len(r) == 1 for r in results) and len({next(iter(r)) for r in results}) == 1
    common = shortest_common_line(orders) if one_result else None
    if line is not None:
        # forced: every line of every order ends the same way, and the line ends it so in every order
        assert one_result, (position, line, results)
        for order in orders:
            played = order.copy()
            for done, move in enumerate(line):
                if done:  # on the way, the game stays forced: the rest of the line, or a shorter way
                    rest = forced_line(played)
                    assert rest is not None and len(rest) <= len(line) - done, (position, line, done, rest)
                played.apply(move)  # legal in every order, or IllegalMove says why
            assert played.status != PLAYING and {(played.status, played.cards_left)} == results[0]
            # the answer is the same whatever the face-down cards are
            assert forced_line(order) == line
        assert len(line) == common  # and it is the shortest such line
        return "forced"
    small = len(orders) <= 6 and sum(reachable_count(o) for o in orders) * 3 < forced_module.MAX_NODES
    if small:
        # within its bounds the function is exact: it says no only when a choice matters somewhere
        assert not (one_result and common is not None), (position, results)
        return "not forced"
    return "over the bound"


# --- tests ---------------------------------------------------------------------------------------------
@settings(max_examples=400, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_forced_agrees_with_every_line_of_every_order(seed):
    position = small_position(seed)
    if position is not None:
        check_against_reference(position)


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: r.name if r.name != "custom" else r.to_text())
def test_forced_under_each_rule_set_finds_forced_games(rules):
    """Under every rule set, many small positions: the reference agrees on each, and forced positions
    do turn up (the test is not vacuous)."""
    cases = {"forced": 0, "not forced": 0, "over the bound": 0}
    for seed in range(150):
        position = small_position(seed * 7919 + 1, rules)
        if position is not None:
            cases[check_against_reference(position)] += 1
    assert cases["forced"] >= 3, cases
    assert cases["not forced"] >= 3, cases


def single_line(position: Position) -> list[str] | None:
    """The moves when, in every order of the face-down cards, exactly one move is legal at every step
    and it is the same move in all of them; else None."""
    here, line = every_order(position), []
    while True:
        legal = [[str(m) for m in p.legal_moves()] for p in here]
        if all(not moves for moves in legal):
            return line
        if any(len(moves) != 1 for moves in legal) or len({moves[0] for moves in legal}) != 1:
            return None
        line.append(legal[0][0])
        here = [p.play(legal[0][0]) for p in here]


def test_one_legal_move_at_every_step_is_forced():
    found = 0
    for seed in range(3000):
        position = small_position(seed, max_face_down=3)
        if position is None:
            continue
        line = single_line(position)
        if line is not None and len(line) <= 40:
            assert forced_line(position) == line, position
            found += 1
    assert found >= 20


def test_drawing_through_a_stock_that_cannot_pair_is_forced_to_the_last_removal():
    # one-look: one pass, the stock top live, the waste dead. Left: the 7♣ at 0 under the K♠ at 2, and
    # four stock cards none of which pairs with anything (the 6s are gone): take the king, then stuck
    deal = build_deal({0: "7C", 1: "KD", 2: "KS", 3: "6C", 4: "6D", 5: "6H", 6: "6S"}, stock=["2C", "3C", "4C", "5C"])
    position = position_with(deal, Rules.parse("one-look"), {0, 2}, pile=0b1111, moves=40)
    assert forced_line(position) == ["2"]
    assert player_view(position)["forced"] == ["2"]
    # under goal all too (the four stock cards stay, whatever is drawn)
    assert forced_line(position_with(deal, Rules.parse("one-look;goal=all"), {0, 2}, pile=0b1111)) == ["2"]


def test_a_final_king_wins_and_a_removal_that_matters_is_not_forced():
    deal = build_deal({0: "KC", 1: "7C", 2: "6C"}, stock=["AC", "2D", "3H", "7D"])
    classic = Rules.parse("classic")
    # the king alone: a full stock of 24 face-down cards cannot change that every line wins at once
    assert forced_line(position_with(deal, classic, {0})) == ["0"]
    # 7♣ and 6♣ free over the king, and the pile (A♣ 2♦ 3♥ left) holds no partner: forced
    three = position_with(deal, classic, {0, 1, 2}, pile=0b0111, moves=40)
    assert forced_line(three) == ["1+2", "0"]
    # under goal all the three pile cards stay whatever happens: still forced, and lost with 3 left
    assert forced_line(position_with(deal, Rules.parse("classic;goal=all"), {0, 1, 2}, pile=0b0111)) == ["1+2", "0"]
    # with the 7♦ in the pile, the 6♣ may take it and leave the 7♣ with no partner: a real choice
    assert forced_line(position_with(deal, classic, {0, 1, 2}, pile=0b1111, moves=40)) is None


def test_moves_that_commute_count_as_one_choice():
    # two kings free side by side, nothing else: either order ends the same, so it is forced
    deal = build_deal({0: "QC", 1: "KC", 2: "KD"}, stock=["AC"])
    rules = Rules.parse("classic;passes=1")
    position = position_with(deal, rules, {0, 1, 2}, pile=0, moves=40)  # no stock, no waste
    orders = [["1", "2"], ["2", "1"]]
    for order in orders:
        played = position.copy()
        for move in order:
            played.apply(move)
        assert (played.status, played.cards_left) == ("stuck", 1)
    assert forced_line(position) == ["1", "2"]


def test_unlimited_passes_do_not_loop():
    deal = build_deal({0: "KC"}, stock=["6D", "7D", "AC"])
    rules = Rules.parse("classic;passes=unlimited")
    assert forced_line(position_with(deal, rules, {0})) == ["0"]
    full = Position.start(deal, rules)
    assert forced_line(full) is None


def test_the_answer_does_not_depend_on_the_face_down_cards():
    """Two positions the player sees alike (pyramid, reserve, waste, live stock top, removed cards,
    pass) but with their face-down stock cards in another order give the very same answer, forced
    or not, and the view the player gets is identical."""
    rng = random.Random(24)
    compared = forced = 0
    for _ in range(1000):
        position = small_position(rng.randrange(2**32), max_face_down=4, first_pass=True)
        if position is None or len(face_down(position)) < 2:
            continue
        orders = every_order(position)
        answers = {tuple(forced_line(o)) if forced_line(o) is not None else None for o in orders}
        assert len(answers) == 1, (position, answers)
        # what the player sees is alike (status and legal moves aside: the stuck rule of section 12 looks
        # ahead through the face-down pile itself), and so is the forced line in the view
        views = {repr({k: v for k, v in player_view(o).items() if k not in ("status", "legal_moves")}) for o in orders}
        assert len(views) == 1
        compared += 1
        forced += answers != {None}
    assert compared >= 100 and forced >= 5, (compared, forced)


def test_a_ranked_daily_deal_answers_alike_for_deals_that_differ_only_face_down():
    """Under each daily preset, along a whole game, the answer for the real deal and for a deal with
    the face-down stock cards shuffled are the same at every ply (no leak to a ranked player)."""
    rng = random.Random(7)
    for name in ("classic", "strict", "one-look", "par", "reserve"):
        rules = PRESETS[name]
        position = Position.start(deal_from_number(rng.randrange(2**64)), rules)
        while position.status == PLAYING:
            slots = face_down(position)
            cards = list(position.deal.cards)
            base = 28 + rules.reserve
            hidden = [cards[base + i] for i in slots]
            rng.shuffle(hidden)
            for slot, card in zip(slots, hidden, strict=True):
                cards[base + slot] = card
            other_deal = Deal(tuple(cards))
            other = Position(
                board_for(other_deal, rules),
                position.pyramid,
                position.reserve,
                position.pile,
                position.pointer,
                position.pass_no,
                position.moves,
                position.cleared_pass,
            )
            assert player_view(other)["forced"] == player_view(position)["forced"]
            assert player_view(other)["waste"] == player_view(position)["waste"]
            moves = position.legal_moves()
            removals = [m for m in moves if m.is_removal]
            position = position.play(removals[0] if removals and rng.random() < 0.8 else rng.choice(moves))


def test_over_the_bound_is_not_forced():
    position = Position.start(deal_from_number(1), PRESETS["classic"])
    assert forced_line(position) is None
    assert player_view(position)["forced"] is None
    assert player_view(position, forced=False)["forced"] is None


def test_the_search_leaves_the_games_board_as_it_was():
    """The board of a game is kept per process for all its views: the positions the search looks at
    stay out of its caches."""
    rng = random.Random(3)
    position = Position.start(deal_from_number(5), PRESETS["relaxed"])
    while position.status == PLAYING:
        before = (dict(position.board.partners_cache), dict(position.board.pile_masks))
        forced_module._CACHE.clear()
        forced_line(position)
        assert (position.board.partners_cache, position.board.pile_masks) == before
        moves = position.legal_moves()
        removals = [m for m in moves if m.is_removal]
        position = position.play(removals[0] if removals and rng.random() < 0.8 else rng.choice(moves))
