"""Property: whatever a client sends, the server's game is exactly the engine's replay of the moves it
accepted; refused requests change nothing."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from games.models import Game

pytestmark = pytest.mark.django_db

TOKENS = ["draw", "redeal", "S", "W", "S+W", "12", "21+22", "23+W", "26+S", "R0", "0", "27", "20+27"]

actions = st.lists(
    st.one_of(
        st.tuples(st.just("legal"), st.integers(0, 30)),
        st.tuples(st.just("token"), st.sampled_from(TOKENS)),
        st.tuples(st.just("stale"), st.integers(-3, 3)),
        st.tuples(st.just("undo"), st.just(0)),
    ),
    max_size=40,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    number=st.integers(0, 2**64 - 1),
    preset=st.sampled_from(["classic", "one-look", "strict", "reserve"]),
    steps=actions,
)
def test_server_game_follows_the_engine(api, number, preset, steps):
    response = api.post("/api/games/", {"number": number, "rules": preset}, format="json")
    assert response.status_code == 201
    game_id = response.json()["id"]
    rules = engine.preset(preset)
    log: list[str] = []
    position = engine.Position.start(engine.deal_from_number(number), rules)
    for kind, value in steps:
        if kind == "undo":
            response = api.post(f"/api/games/{game_id}/undo/")
            if log and position.status != "won":
                assert response.status_code == 200
                log.pop()
                position = engine.replay(engine.deal_from_number(number), rules, log).position
            else:
                assert response.status_code == 409
            continue
        if kind == "stale":
            ply = len(log) + 1 + value
            move = log[ply - 1] if 1 <= ply <= len(log) else "draw"
        else:
            legal = [str(m) for m in position.legal_moves()] if position.status == "playing" else []
            move = legal[value % len(legal)] if kind == "legal" and legal else (value if kind == "token" else "draw")
            ply = len(log) + 1
        response = api.post(f"/api/games/{game_id}/moves/", {"ply": ply, "move": move}, format="json")
        if ply < 1:
            assert response.status_code == 400 and response.json()["code"] == "invalid"
        elif ply <= len(log) and log[ply - 1] == str(engine.parse_move(move)):
            assert response.status_code == 200 and response.json()["applied"] is False
        elif ply != len(log) + 1:
            assert response.status_code == 409 and response.json()["expected_ply"] == len(log) + 1
        elif position.status != "playing":
            assert response.status_code == 409 and response.json()["code"] == "game_over"
        else:
            try:
                parsed = engine.parse_move(move)
            except engine.NotationError:
                assert response.status_code == 400
                continue
            reason = position.why_illegal(parsed)
            if reason:
                assert response.status_code == 422 and response.json()["message"] == reason
            else:
                assert response.status_code == 201, response.json()
                position.apply(parsed)
                log.append(str(parsed))
        stored = Game.objects.get(pk=game_id)
        assert stored.state == position.dumps() and stored.moves == len(log) and stored.status == position.status
