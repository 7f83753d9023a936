"""Property tests over random deals, rule sets and legal move sequences."""

import json

from hypothesis import given
from hypothesis import strategies as st

from engine import Position, card_text, player_view, replay
from engine.moves import DRAW_MOVE, REDEAL_MOVE

from .strategies import engine_settings, games


@engine_settings
@given(games())
def test_every_card_is_somewhere_exactly_once(game):
    start, positions, moves = game
    removed = []
    previous = start
    for position, move in zip(positions, moves, strict=True):
        removed.extend(previous.card_at(loc) for loc in move.locations)
        previous = position
        board = position.board
        pyramid = [board.pyramid_cards[p] for p in range(28) if position.pyramid >> p & 1]
        reserve = [c for i, c in enumerate(board.reserve_cards) if position.reserve >> i & 1]
        everywhere = pyramid + reserve + position.stock_cards() + position.waste_cards() + removed
        assert sorted(everywhere) == list(range(52))


@engine_settings
@given(games())
def test_replaying_the_log_gives_the_same_position(game):
    start, positions, moves = game
    result = replay(start.deal, start.rules, [str(m) for m in moves])
    assert result.ok
    assert result.position == (positions[-1] if positions else start)


@engine_settings
@given(games())
def test_serialised_positions_load_back_equal(game):
    start, positions, _ = game
    for position in [start, *positions]:
        text = position.dumps()
        assert len(text) < 40
        assert Position.loads(text, position.deal, position.rules) == position


def removal_by_turning_alone(position) -> bool:
    """Brute force through the public moves: draw and redeal only, looking for a removal."""
    seen = set()
    position = position.copy()
    # with unlimited passes the pass number grows for ever; the cards' places repeat
    while position.key()[:4] not in seen:
        seen.add(position.key()[:4])
        if any(m.is_removal for m in position._removals()):
            return True
        if position._why_not_turn("draw") is None:
            position._make(DRAW_MOVE)
        elif position._why_not_turn("redeal") is None:
            position._make(REDEAL_MOVE)
        else:
            return False
    return False


@engine_settings
@given(games())
def test_stuck_exactly_when_no_draws_and_redeals_lead_to_a_removal(game):
    start, positions, _ = game
    for position in [start, *positions]:
        if position.is_won:
            continue
        assert position.is_stuck == (not removal_by_turning_alone(position))


@engine_settings
@given(games())
def test_the_player_view_never_shows_a_face_down_stock_card(game):
    start, positions, _ = game
    for position in [start, *positions]:
        view = json.dumps(player_view(position))
        face_down = position.stock_cards()
        if position.rules.stock_live and face_down:
            face_down = face_down[1:]  # the live stock top is face up
        for card in face_down:
            assert f'"{card_text(card)}"' not in view
        assert player_view(position)["stock"]["count"] == position.stock_count


@engine_settings
@given(games(), st.data())
def test_illegal_moves_change_nothing_and_say_why(game, data):
    from engine import IllegalMove, parse_move

    _, positions, _ = game
    position = positions[-1] if positions else game[0]
    token = data.draw(st.sampled_from(["draw", "redeal", "W", "S", "R0", "0", "27", "21+22", "S+W", "R0+R1", "3+W"]))
    before = position.dumps()
    move = parse_move(token)
    legal = move in position.legal_moves()
    try:
        position.apply(move)
    except IllegalMove as exc:
        assert not legal and exc.reason
        assert position.dumps() == before
    else:
        assert legal or position.status != "playing"
