"""A move's body: whatever is sent, ``move_input`` takes or refuses it exactly as the serializer does."""

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.exceptions import ValidationError

from games.api.serializers import MoveInput, move_input

plies = st.one_of(
    st.integers(-3, 2**70),
    st.booleans(),
    st.floats(),
    st.none(),
    st.text(max_size=6),
    st.sampled_from(["1", " 2", "3.0", "1e3"]),
    st.lists(st.integers(), max_size=2),
)
moves = st.one_of(
    st.text(max_size=25),
    st.sampled_from(["draw", "redeal", "12+15", " S+W", "W\n", "S\x00", "a" * 21]),
    st.integers(),
    st.none(),
    st.booleans(),
)


def serializer_answer(body):
    serializer = MoveInput(data=body)
    if serializer.is_valid():
        return dict(serializer.validated_data)
    return serializer.errors


def move_input_answer(body):
    try:
        return move_input(body)
    except ValidationError as exc:
        return exc.detail


@given(
    body=st.dictionaries(st.sampled_from(["ply", "move", "other"]), st.one_of(plies, moves), max_size=3)
    | st.fixed_dictionaries({"ply": plies, "move": moves})
)
def test_move_input_answers_as_the_serializer(body):
    assert move_input_answer(body) == serializer_answer(body)


@pytest.mark.parametrize("body", [{"ply": 1, "move": "draw"}, {"ply": 40, "move": "12+15", "note": "x"}])
def test_plain_bodies_are_taken_as_sent(body):
    assert move_input(body) == {"ply": body["ply"], "move": body["move"]}
