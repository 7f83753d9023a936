"""The games API: starting games, server-validated moves, and every error path."""

import datetime as dt

import pytest

import engine
from games.models import Deal, Game
from games.signals import game_finished
from leaderboards.models import Result
from pyramid_site.clock import day_end, utc_today
from tests.support import PAR, WINNABLE_ONE_LOOK, client_for, clock_at, logged, make_daily

pytestmark = pytest.mark.django_db


def start(api, **body):
    response = api.post("/api/games/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def play(api, game_id, ply, move):
    return api.post(f"/api/games/{game_id}/moves/", {"ply": ply, "move": move}, format="json")


def test_practice_game_by_number_shows_the_players_view(api):
    game = start(api, number=7, rules="classic")
    assert game["mode"] == "practice" and game["status"] == "playing" and game["next_ply"] == 1
    assert game["deal"]["number"] == 7 and game["deal"]["preset"] == "classic"
    position = game["position"]
    deal = engine.deal_from_number(7)
    assert [p["card"] for p in position["pyramid"]] == [engine.card_text(c) for c in deal.cards[:28]]
    # the face-down stock shows only as a count: none of its cards appear anywhere in the view
    assert position["stock"] == {"count": 24, "top": None}
    body = str(game)
    assert not any(f"'{engine.card_text(c)}'" in body for c in deal.cards[28:])
    assert Game.objects.get(pk=game["id"]).state == engine.Position.start(deal, engine.preset("classic")).dumps()


def test_random_practice_game_and_rule_text(api):
    game = start(api, rules="classic;passes=unlimited")
    deal = Deal.objects.get(games__id=game["id"])
    assert deal.preset == "custom" and "passes=unlimited" in deal.rules
    assert 0 <= game["deal"]["number"] < 2**64
    assert game["deal"]["number"] == deal.number


def test_moves_are_validated_and_logged(api):
    game = start(api, number=0, rules="one-look")
    first = game["position"]["legal_moves"][0]
    response = play(api, game["id"], 1, first)
    assert response.status_code == 201
    body = response.json()
    assert body["applied"] is True and body["moves"] == 1 and body["next_ply"] == 2
    assert [(move.ply, move.notation) for move in logged(game["id"])] == [(1, first)]


def test_illegal_move_is_refused_with_the_engines_reason_and_changes_nothing(api):
    game = start(api, number=0, rules="one-look")
    stored = Game.objects.get(pk=game["id"])
    response = play(api, game["id"], 1, "0")  # the apex is covered
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "illegal_move" and body["move"] == "0"
    position = engine.Position.start(engine.deal_from_number(0), engine.preset("one-look"))
    assert body["message"] == position.why_illegal(engine.parse_move("0"))
    after = Game.objects.get(pk=game["id"])
    assert (after.state, after.moves, after.version) == (stored.state, stored.moves, stored.version)
    assert logged(after) == []


# an empty move is refused by the body's checks; the others are strings the engine's notation refuses
@pytest.mark.parametrize(
    "move, code",
    [
        ("", "invalid"),
        ("28", "bad_notation"),
        ("R9", "bad_notation"),
        ("1+2+3", "bad_notation"),
        ("drawing", "bad_notation"),
    ],
)
def test_malformed_notation_is_400(api, move, code):
    game = start(api, number=0, rules="one-look")
    response = play(api, game["id"], 1, move)
    assert response.status_code == 400
    assert response.json()["code"] == code and response.json()["message"]
    assert logged(game["id"]) == []


@pytest.mark.parametrize(
    "body, code",
    [
        ({}, "invalid"),
        ({"ply": 0, "move": "draw"}, "invalid"),
        ({"ply": "x", "move": "draw"}, "invalid"),
        ({"move": "draw"}, "invalid"),
        ([1], "malformed_body"),
    ],
)
def test_malformed_body_is_400(api, body, code):
    game = start(api, number=0, rules="one-look")
    response = api.post(f"/api/games/{game['id']}/moves/", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == code and response.json()["message"]
    assert logged(game["id"]) == []


def test_a_database_lost_mid_write_is_503_and_the_move_is_written_whole_or_not_at_all(api, winning_line):
    """The move that wins a ranked game and its result land in one transaction. The database goes away
    after the move's row is written and the result's too, before the commit: the answer is a 503 that
    says to send the request again, and the move, the game's new state and the result are all gone;
    sent again, the move is the game's and the result is on the board."""
    from django.db import OperationalError

    daily = make_daily()
    game = start(api, daily=daily.pk)
    for ply, move in enumerate(winning_line[:-1], start=1):
        assert play(api, game["id"], ply, move).status_code == 201
    before = Game.objects.values("state", "moves", "status", "version", "finished_at").get(pk=game["id"])

    def connection_lost(sender, game, **kwargs):
        # a receiver after the leaderboards' one, which has written the result by now
        assert Result.objects.filter(game=game).exists()
        assert len(logged(game)) == PAR
        raise OperationalError("server closed the connection unexpectedly")

    game_finished.connect(connection_lost)
    try:
        response = play(api, game["id"], PAR, winning_line[-1])
    finally:
        game_finished.disconnect(connection_lost)
    assert response.status_code == 503 and response["Retry-After"] == "1"
    assert response.json()["code"] == "database_unavailable" and "again" in response.json()["message"]
    assert Game.objects.values("state", "moves", "status", "version", "finished_at").get(pk=game["id"]) == before
    assert before["moves"] == PAR - 1 and before["status"] == "playing"
    assert len(logged(game["id"])) == PAR - 1
    assert not Result.objects.filter(game_id=game["id"]).exists()

    response = play(api, game["id"], PAR, winning_line[-1])
    assert response.status_code == 201 and response.json()["applied"] is True and response.json()["status"] == "won"
    assert len(logged(game["id"])) == PAR
    assert Result.objects.get(game_id=game["id"]).won


def test_a_database_lost_after_the_commit_is_503_and_the_resent_move_is_a_safe_retry(api, monkeypatch):
    """The move is committed, then the connection drops before the answer is made: the 503 asks for the
    same request again, which is answered as already applied, and the move is in the log once."""
    from django.db import OperationalError

    from games.api import views

    game = start(api, number=0, rules="one-look")
    real_output = views.game_output

    def connection_lost(*args, **kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(views, "game_output", connection_lost)
    response = play(api, game["id"], 1, "draw")
    assert response.status_code == 503 and response.json()["code"] == "database_unavailable"
    assert [(move.ply, move.notation) for move in logged(game["id"])] == [(1, "draw")]
    monkeypatch.setattr(views, "game_output", real_output)
    again = play(api, game["id"], 1, "draw")
    assert again.status_code == 200 and again.json()["applied"] is False and again.json()["moves"] == 1
    assert len(logged(game["id"])) == 1


def test_body_that_is_not_json_is_400(api):
    game = start(api, number=0, rules="one-look")
    response = api.post(f"/api/games/{game['id']}/moves/", "{not json", content_type="application/json")
    assert response.status_code == 400 and response.json()["code"] == "malformed_body"


def test_wrong_ply_is_409_with_the_expected_ply(api):
    game = start(api, number=0, rules="one-look")
    for ply in (0 + 2, 5):
        response = play(api, game["id"], ply, "draw")
        assert response.status_code == 409
        assert response.json()["code"] == "wrong_ply" and response.json()["expected_ply"] == 1
    assert play(api, game["id"], 1, "draw").status_code == 201
    # ply 1 again with another move: taken
    other = next(move for move in game["position"]["legal_moves"] if move != "draw")
    response = play(api, game["id"], 1, other)
    assert response.status_code == 409
    assert response.json()["code"] == "wrong_ply" and response.json()["expected_ply"] == 2
    assert [move.notation for move in logged(game["id"])] == ["draw"]


def test_resending_an_applied_move_returns_the_game_unchanged(api):
    game = start(api, number=0, rules="one-look")
    first = play(api, game["id"], 1, "draw").json()
    again = play(api, game["id"], 1, "draw")
    assert again.status_code == 200
    body = again.json()
    assert body["applied"] is False and body["version"] == first["version"] and body["moves"] == 1
    assert len(logged(game["id"])) == 1


def test_winning_a_game_then_game_over(api, winning_line):
    game = start(api, number=WINNABLE_ONE_LOOK, rules="one-look")
    for ply, move in enumerate(winning_line, start=1):
        response = play(api, game["id"], ply, move)
        assert response.status_code == 201, response.json()
    body = response.json()
    assert body["status"] == "won" and body["cards_left"] == 0 and body["finished_at"]
    response = play(api, game["id"], len(winning_line) + 1, "draw")
    assert response.status_code == 409 and response.json()["code"] == "game_over"
    # the winning move resent is still a safe retry
    assert play(api, game["id"], len(winning_line), winning_line[-1]).status_code == 200


def test_not_your_game_is_404(api, other_player):
    game = start(api, number=0, rules="one-look")
    other = client_for(other_player)
    for response in (
        other.get(f"/api/games/{game['id']}/"),
        play(other, game["id"], 1, "draw"),
        other.post(f"/api/games/{game['id']}/resign/"),
        other.post(f"/api/games/{game['id']}/undo/"),
        other.get(f"/api/games/{game['id']}/hint/"),
        other.get("/api/games/999999/"),
    ):
        assert response.status_code == 404 and response.json()["code"] == "game_not_found"
    assert other.get("/api/games/99999999999999999999/").status_code == 404


def test_not_logged_in_is_401(api):
    game = start(api, number=0, rules="one-look")
    anonymous = client_for(None)
    for response in (
        anonymous.post("/api/games/", {}, format="json"),
        anonymous.get(f"/api/games/{game['id']}/"),
        play(anonymous, game["id"], 1, "draw"),
        anonymous.get("/api/accounts/me/"),
    ):
        assert response.status_code == 401 and response.json()["code"] == "not_authenticated"


def test_bad_start_requests(api):
    for body, code in (
        ({"rules": "nonsense"}, "bad_rules"),
        ({"number": -1}, "invalid"),
        ({"number": 2**64}, "invalid"),
        ({"daily": 1, "number": 3}, "invalid"),
        ({"daily": 424242}, "daily_not_found"),
    ):
        response = api.post("/api/games/", body, format="json")
        assert response.json()["code"] == code, body
        assert response.status_code == (404 if code == "daily_not_found" else 400)


def test_resign(api):
    game = start(api, number=0, rules="one-look")
    response = api.post(f"/api/games/{game['id']}/resign/")
    assert response.status_code == 200 and response.json()["status"] == "resigned"
    assert Game.objects.get(pk=game["id"]).finished_at is not None
    again = api.post(f"/api/games/{game['id']}/resign/")
    assert again.status_code == 409 and again.json()["code"] == "game_over"
    assert play(api, game["id"], 1, "draw").json()["code"] == "game_over"


def test_practice_undo_takes_back_the_last_move(api):
    game = start(api, number=0, rules="one-look")
    assert api.post(f"/api/games/{game['id']}/undo/").json()["code"] == "nothing_to_undo"
    play(api, game["id"], 1, "draw")
    after_two = play(api, game["id"], 2, "draw").json()
    response = api.post(f"/api/games/{game['id']}/undo/")
    assert response.status_code == 200
    body = response.json()
    assert body["moves"] == 1 and body["undo_count"] == 1 and body["next_ply"] == 2
    assert body["position"]["waste"] != after_two["position"]["waste"]
    assert [move.ply for move in logged(game["id"])] == [1]
    # the undone ply is free again
    assert play(api, game["id"], 2, "draw").status_code == 201


def test_practice_undo_out_of_a_stuck_position(api):
    game = start(api, number=0, rules="one-look")
    ply = 1
    while game["status"] == "playing":
        game = play(
            api,
            game["id"],
            ply,
            "draw" if "draw" in game["position"]["legal_moves"] else game["position"]["legal_moves"][0],
        ).json()
        ply += 1
    assert game["status"] == "stuck" and game["finished_at"]
    body = api.post(f"/api/games/{game['id']}/undo/").json()
    assert body["status"] == "playing" and body["finished_at"] is None


def test_practice_hint(api):
    game = start(api, number=0, rules="one-look")
    response = api.get(f"/api/games/{game['id']}/hint/")
    assert response.status_code == 200
    body = response.json()
    assert body["verdict"] == "unwinnable" and body["can_win"] is False
    assert body["move"] in game["position"]["legal_moves"] and body["explanation"]
    assert Game.objects.get(pk=game["id"]).hint_count == 1


def test_a_hint_asked_again_for_the_same_position_is_not_counted_again(api):
    """A hint whose answer was lost is asked again: the same advice, counted once. A new position (a move, or an
    undo back to a ply hinted before) is a new hint."""
    game = start(api, number=0, rules="one-look")
    hint = f"/api/games/{game['id']}/hint/"
    first, again = api.get(hint), api.get(hint)
    assert first.status_code == again.status_code == 200 and first.json() == again.json()
    assert Game.objects.get(pk=game["id"]).hint_count == 1
    assert play(api, game["id"], 1, "draw").status_code == 201
    assert api.get(hint).status_code == api.get(hint).status_code == 200
    assert Game.objects.get(pk=game["id"]).hint_count == 2
    assert api.post(f"/api/games/{game['id']}/undo/").status_code == 200
    assert api.get(hint).status_code == 200
    assert Game.objects.get(pk=game["id"]).hint_count == 3


def test_ranked_games_refuse_undo_and_hints(api):
    daily = make_daily()
    game = start(api, daily=daily.pk)
    assert game["mode"] == "ranked" and game["deal"]["number"] is None
    play(api, game["id"], 1, "draw")
    for response, code in (
        (api.post(f"/api/games/{game['id']}/undo/"), "ranked_no_undo"),
        (api.get(f"/api/games/{game['id']}/hint/"), "ranked_no_hint"),
    ):
        assert response.status_code == 403 and response.json()["code"] == code
        assert "practice" in response.json()["message"]
    stored = Game.objects.get(pk=game["id"])
    assert stored.moves == 1 and stored.undo_count == 0 and stored.hint_count == 0


def test_a_daily_deal_is_played_once(api):
    daily = make_daily()
    first = start(api, daily=daily.pk)
    response = api.post("/api/games/", {"daily": daily.pk}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "already_played" and response.json()["game"] == first["id"]


def test_closed_and_future_daily_deals_cannot_be_played(api):
    today = utc_today()
    past = make_daily(date=today - dt.timedelta(days=1), number=11)
    future = make_daily(date=today + dt.timedelta(days=1), number=12)
    response = api.post("/api/games/", {"daily": past.pk}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "daily_over"
    assert "11" in response.json()["message"]
    response = api.post("/api/games/", {"daily": future.pk}, format="json")
    assert response.status_code == 404 and response.json()["code"] == "daily_not_found"


def test_log_of_a_daily_game_is_private_until_the_day_is_over(api, other_player):
    daily = make_daily()
    game = start(api, daily=daily.pk)
    play(api, game["id"], 1, "draw")
    mine = api.get(f"/api/games/{game['id']}/log/")
    assert mine.status_code == 200 and mine.json()["log"] == "draw"
    other = client_for(other_player)
    assert other.get(f"/api/games/{game['id']}/log/").status_code == 404
    assert other.get(f"/api/games/{game['id']}/").status_code == 404
    with clock_at(day_end(daily.date) + dt.timedelta(seconds=1)):  # the day is over
        assert other.get(f"/api/games/{game['id']}/log/").json()["moves"][0]["notation"] == "draw"
        seen = other.get(f"/api/games/{game['id']}/")
    assert seen.status_code == 200 and seen.json()["deal"]["number"] == WINNABLE_ONE_LOOK


def test_log_of_a_practice_game_is_its_players_alone(api, other_player):
    game = start(api, number=0, rules="one-look")
    play(api, game["id"], 1, "draw")
    assert api.get(f"/api/games/{game['id']}/log/").json()["log"] == "draw"
    refused = client_for(other_player).get(f"/api/games/{game['id']}/log/")
    assert refused.status_code == 404 and refused.json()["code"] == "game_not_found"
    assert client_for(None).get(f"/api/games/{game['id']}/log/").status_code == 401


def test_deal_endpoint_reports_and_solves_on_request(api):
    response = client_for(None).get("/api/deals/0?rules=one-look")
    assert response.status_code == 200
    body = response.json()
    assert body["number"] == 0 and body["text"] == engine.deal_from_number(0).text
    # nobody asked for it to be solved: nothing is stored, nothing queued
    assert body["status"] == "unsolved" and body["solution"] == "" and not Deal.objects.exists()
    asked = api.post("/api/deals/0/solve/?rules=one-look")
    assert asked.status_code == 202 and asked["Location"] == "/api/deals/0/?rules=one-look"
    body = client_for(None).get("/api/deals/0?rules=one-look").json()
    assert body["status"] == "unwinnable" and body["best_cards_left"] > 0
    replayed = engine.replay(engine.deal_from_number(0), engine.preset("one-look"), body["solution"])
    assert replayed.ok and replayed.position.cards_left == body["best_cards_left"]
    assert client_for(None).get("/api/deals/x?rules=one-look").json()["code"] == "bad_deal_number"
    assert client_for(None).get("/api/deals/1?rules=bogus").json()["code"] == "bad_rules"
    assert client_for(None).post("/api/deals/0/solve/?rules=one-look").status_code == 401


def test_the_location_of_a_solve_of_custom_rules_is_that_deal_under_those_rules(api):
    """Old bug: custom rules answered ``Location: /api/deals/6?rules=custom``, which is 400 (custom is no rule
    set) and lacks the trailing slash."""
    asked = api.post("/api/deals/6/solve/?rules=relaxed;passes=unlimited")
    assert asked.status_code == 202 and asked["Location"].startswith("/api/deals/6/?rules=")
    followed = client_for(None).get(asked["Location"])
    assert followed.status_code == 200, followed.json()
    expected = engine.Rules.parse("relaxed;passes=unlimited")
    assert engine.Rules.parse(followed.json()["rules"]) == expected and followed.json()["number"] == 6
    assert followed.json()["status"] == asked.json()["status"] != "unsolved"  # the deal asked for, not another
    preset = api.post("/api/deals/6/solve/?rules=relaxed")
    assert preset["Location"] == "/api/deals/6/?rules=relaxed"
    assert client_for(None).get(preset["Location"]).status_code == 200


def test_a_practice_game_s_deal_is_solved_for_a_client_polling_it(api):
    """Old bug: starting a practice game stored its deal ``pending`` and queued nothing, so a client polling the
    deal waited for ever. Its solve is queued now, on the player's solver budget."""
    game = api.post("/api/games/", {"number": 24, "rules": "relaxed"}, format="json")
    assert game.status_code == 201
    deal = Deal.objects.get(number=24, rules=engine.preset("relaxed").to_text())
    statuses = []
    for _ in range(50):  # the solve is queued in-process here: it is over before the first poll
        statuses.append(client_for(None).get("/api/deals/24/?rules=relaxed").json()["status"])
        if statuses[-1] != "pending":
            break
    assert statuses[-1] in {"winnable", "unwinnable"} and statuses[-1] == Deal.objects.get(pk=deal.pk).status


def test_deal_endpoint_keeps_a_current_daily_deal_secret(api):
    daily = make_daily()
    response = client_for(None).get(f"/api/deals/{daily.deal.number}?rules=one-look")
    assert response.status_code == 404


def test_reading_deals_makes_the_server_solve_nothing(monkeypatch):
    """Old hole: every ``GET /api/deals/N``, anonymous too, stored a row and queued a solve of up to the
    solve budget: walking numbers kept the solver busy. Reading stores and queues nothing now."""
    from games.api import views

    queued = []
    monkeypatch.setattr(views, "solve_deal_soon", queued.append)
    anonymous = client_for(None)
    for number in range(100, 120):
        for rules in ("classic", "relaxed"):
            body = anonymous.get(f"/api/deals/{number}?rules={rules}").json()
            assert body["status"] == "unsolved" and body["text"] == engine.deal_from_number(number).text
    assert queued == [] and not Deal.objects.exists()


def test_a_solve_that_fails_ends_unknown_with_the_failure_kept(api, monkeypatch):
    """A solver that raises leaves the deal ``unknown`` with why, never ``pending`` for ever."""

    def broken(position, *, budget_seconds):
        raise RuntimeError("the solver fell over")

    monkeypatch.setattr("games.services.deals.solve", broken)
    asked = api.post("/api/deals/5/solve/?rules=classic")
    assert asked.status_code == 202 and asked.json()["status"] == "unknown"
    deal = Deal.objects.get(number=5)
    assert deal.status == Deal.Status.UNKNOWN and deal.failure == "RuntimeError: the solver fell over"
    assert client_for(None).get("/api/deals/5?rules=classic").json()["status"] == "unknown"


def test_a_started_game_says_where_it_is(api):
    created = api.post("/api/games/", {"number": 7, "rules": "one-look"}, format="json")
    assert created.status_code == 201 and created["Location"] == f"/api/games/{created.json()['id']}/"
    assert api.get(created["Location"]).json()["id"] == created.json()["id"]
