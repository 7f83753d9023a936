"""The player's view names the forced rest of a game (`position.forced`), and the moves endpoint takes
each of its moves as it is written (docs/rules.md, section 19; docs/api.md)."""

import pytest

import engine
from tests.support import make_daily

pytestmark = pytest.mark.django_db

# one-look deal #8: the engine's first legal move, ply after ply, reaches a forced end after 21 moves
ONE_LOOK_8 = (
    "draw 24+S draw draw draw draw 21+S draw draw 22+S draw 26+S draw draw draw draw draw 27+S S 20+S draw"
).split()
# strict deal #138 (the daily preset that clears all 52 cards): forced after 23 moves
STRICT_138 = (
    "22+23 draw draw 25+S 27+S S draw draw 16+S draw draw 21+S S+W S+W draw 24+S 15+S 18+S draw draw S S+W 17+S"
).split()


def start(api, **body):
    response = api.post("/api/games/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def play_through(api, game, moves):
    """Play ``moves`` through the moves endpoint; the game after the last one."""
    for move in moves:
        response = api.post(f"/api/games/{game['id']}/moves/", {"ply": game["next_ply"], "move": move}, format="json")
        assert response.status_code == 201, response.json()
        game = response.json()
        assert game["applied"] is True
    return game


def finish(api, game):
    """Play the view's forced moves one by one, as a Finish button does; each is accepted."""
    forced = game["position"]["forced"]
    for move in forced:
        assert game["position"]["forced"] == forced[forced.index(move) :]  # here the rest of the same list
        response = api.post(f"/api/games/{game['id']}/moves/", {"ply": game["next_ply"], "move": move}, format="json")
        assert response.status_code == 201, response.json()
        game = response.json()
        assert game["applied"] is True
    return game


def test_a_practice_game_shows_its_forced_end_and_plays_it_through_the_moves_endpoint(api):
    game = start(api, number=8, rules="one-look")
    assert game["position"]["forced"] is None
    game = play_through(api, game, ONE_LOOK_8[:-1])
    assert game["position"]["forced"] is None
    game = play_through(api, game, ONE_LOOK_8[-1:])
    expected = engine.replay(engine.deal_from_number(8), engine.preset("one-look"), ONE_LOOK_8)
    assert game["position"]["forced"] == engine.forced_line(expected.position) == ["S"]
    # the GET shows the same
    assert api.get(f"/api/games/{game['id']}/").json()["position"]["forced"] == ["S"]
    game = finish(api, game)
    assert game["status"] != "playing" and game["position"]["forced"] is None
    assert api.get(f"/api/games/{game['id']}/").json()["position"]["forced"] is None


def test_a_ranked_daily_game_shows_its_forced_end_from_what_the_player_sees(api):
    daily = make_daily(preset="strict", number=138)
    game = start(api, daily=daily.pk)
    assert game["mode"] == "ranked" and game["deal"]["number"] is None
    assert game["position"]["forced"] is None
    game = play_through(api, game, STRICT_138)
    forced = game["position"]["forced"]
    assert forced == ["11"]
    # the same for any deal that differs from this one only in the face-down stock (engine/forced.py
    # asks every order of it): nothing of the hidden cards reaches the ranked player
    position = engine.replay(engine.deal_from_number(138), engine.preset("strict"), STRICT_138).position
    assert engine.forced_line(position) == forced
    game = finish(api, game)
    assert game["status"] != "playing" and game["position"]["forced"] is None


def test_a_resigned_game_has_no_forced_moves(api):
    game = play_through(api, start(api, number=8, rules="one-look"), ONE_LOOK_8)
    assert game["position"]["forced"] == ["S"]
    assert api.post(f"/api/games/{game['id']}/resign/").status_code == 200
    view = api.get(f"/api/games/{game['id']}/").json()
    assert view["status"] == "resigned" and view["position"]["forced"] is None
