"""The compact move log (``games.move_log``): whatever is written reads back, move for move, each stamp to
the centisecond with no drift, in the bytes the format promises."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.moves import DRAW_MOVE, REDEAL_MOVE, king_move, pair_move
from games.move_log import log_append, log_encode, log_moves, log_notations, log_without_last
from tests.support import WINNING_LINE

START = dt.datetime(2026, 11, 1, 9, 0, 0, 123456, tzinfo=dt.UTC)
LOCATIONS = st.integers(min_value=0, max_value=36)
MOVES = st.one_of(
    st.just(DRAW_MOVE),
    st.just(REDEAL_MOVE),
    LOCATIONS.map(king_move),
    st.tuples(LOCATIONS, LOCATIONS).filter(lambda p: p[0] != p[1]).map(lambda p: pair_move(*p)),
)
PAUSES = st.floats(min_value=0, max_value=4 * 3600, allow_nan=False)  # seconds; hours for a game left open


@given(st.lists(st.tuples(MOVES, PAUSES), max_size=120))
def test_every_move_and_stamp_reads_back_to_the_centisecond_without_drift(played):
    stamps, at = [], START
    for _, pause in played:
        at += dt.timedelta(seconds=pause)
        stamps.append(at)
    log = log_encode([(move, stamp) for (move, _), stamp in zip(played, stamps, strict=True)], started_at=START)
    read = log_moves(log, started_at=START)
    assert [m.ply for m in read] == list(range(1, len(played) + 1))
    assert [m.notation for m in read] == [str(move) for move, _ in played]
    assert log_notations(log) == [str(move) for move, _ in played]
    for stamp, move in zip(stamps, read, strict=True):
        assert abs((move.created_at - stamp).total_seconds()) <= 0.005  # each rounded once, from the start


@given(st.lists(st.tuples(MOVES, PAUSES), min_size=1, max_size=60))
def test_appending_move_by_move_is_the_whole_log_and_undo_takes_the_last_one_off(played):
    log, at, stamped = b"", START, []
    for move, pause in played:
        at += dt.timedelta(seconds=pause)
        log += log_append(log, started_at=START, move=move, at=at)
        stamped.append((move, at))
    assert log == log_encode(stamped, started_at=START)
    assert log_without_last(log) == log_encode(stamped[:-1], started_at=START)
    assert log_without_last(b"") == b""


def test_a_draw_is_one_byte_and_a_removal_three_at_a_players_pace():
    quick = START + dt.timedelta(seconds=0.5)
    assert len(log_append(b"", started_at=START, move=DRAW_MOVE, at=quick)) == 1
    assert len(log_append(b"", started_at=START, move=DRAW_MOVE, at=START + dt.timedelta(seconds=80))) == 2
    # pyramid pairs and the waste's partners: every removal of the classic game's locations
    for first in range(37):
        for second in range(first + 1, 37):
            entry = log_append(b"", started_at=START, move=pair_move(first, second), at=START + dt.timedelta(seconds=9))
            assert len(entry) <= 4
        assert len(log_append(b"", started_at=START, move=king_move(first), at=quick)) <= 3


def test_a_stamp_before_the_one_before_it_counts_as_no_pause():
    """The server's clock may step back (a time adjustment): such a move is logged at the previous stamp."""
    later = START + dt.timedelta(seconds=10)
    log = log_encode([("draw", later), ("draw", START + dt.timedelta(seconds=4))], started_at=START)
    assert [m.created_at for m in log_moves(log, started_at=START)] == [later, later]


def test_a_won_game_at_a_persons_pace_costs_under_200_bytes():
    at, stamped = START, []
    for index, move in enumerate(WINNING_LINE):
        at += dt.timedelta(seconds=(2.0, 6.5, 3.1, 12.0, 1.4)[index % 5])
        stamped.append((move, at))
    log = log_encode(stamped, started_at=START)
    draws = WINNING_LINE.count("draw")
    assert len(log) <= draws * 2 + (len(WINNING_LINE) - draws) * 4 and len(log) < 200


def test_a_log_cut_inside_a_number_is_refused():
    log = log_encode([("0+1", START + dt.timedelta(seconds=5))], started_at=START)
    with pytest.raises(ValueError, match="ends inside a number"):
        log_notations(log[:-1])
