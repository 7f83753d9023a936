"""Post-game analysis through the API: computed when a game ends, shown on the log's terms (a ranked game's
once its day is over), its answers held to the plain-Python reference search, and the replay of every
position with the solver's best line from any of them."""

from __future__ import annotations

import datetime as dt

import pytest

import engine
from engine.solver import UNWINNABLE, WINNABLE, solve_reference
from games import services
from games.models import Game, GameAnalysis
from games.tasks import analyse_game
from pyramid_site.clock import day_end
from tests.support import PAR, WINNABLE_ONE_LOOK, UserFactory, client_for, clock_at, during, make_daily

pytestmark = pytest.mark.django_db(transaction=True)
ONE_LOOK = engine.preset("one-look")
PLAYED = 20  # moves of the winning line before the game goes its own way


def start_practice(api) -> int:
    answer = api.post("/api/games/", {"number": str(WINNABLE_ONE_LOOK), "rules": "one-look"}, format="json")
    assert answer.status_code == 201, answer.json()
    return answer.json()["id"]


def play(api, game_id: int, moves: list[str]) -> None:
    for ply, notation in enumerate(moves, start=1):
        answer = api.post(f"/api/games/{game_id}/moves/", {"ply": ply, "move": notation}, format="json")
        assert answer.status_code == 201, answer.json()


def position_after(moves: list[str]) -> engine.Position:
    position = engine.Position.start(engine.deal_from_number(WINNABLE_ONE_LOOK), ONE_LOOK)
    for notation in moves:
        position.apply(notation)
    return position


@pytest.fixture(scope="module")
def losing_move(winning_line) -> str:
    """A move after PLAYED moves of the winning line that the reference search proves loses the win."""
    position = position_after(winning_line[:PLAYED])
    for move in position.legal_moves():
        if solve_reference(position.copy().apply(move), max_nodes=200_000).verdict == UNWINNABLE:
            return str(move)
    pytest.fail("no move there throws the win away: pick another ply")


def test_a_game_thrown_away_is_lost_where_the_reference_says(service_settings, player, winning_line, losing_move):
    api = client_for(player)
    game_id = start_practice(api)
    moves = [*winning_line[:PLAYED], losing_move]
    play(api, game_id, moves)
    assert api.get(f"/api/games/{game_id}/analysis/").json()["code"] == "not_yet"
    assert api.post(f"/api/games/{game_id}/resign/", format="json").status_code == 200  # the job runs at commit

    answer = api.get(f"/api/games/{game_id}/analysis/")
    assert answer.status_code == 200
    analysis = answer.json()
    assert analysis["status"] == "ready"
    assert [p["ply"] for p in analysis["plies"]] == list(range(len(moves) + 1))
    assert [p["move"] for p in analysis["plies"]] == [None, *moves]
    # along the winning line the win comes one move nearer with every move
    assert [p["moves_to_win"] for p in analysis["plies"][: PLAYED + 1]] == list(range(PAR, PAR - PLAYED - 1, -1))
    assert analysis["lost_at"] == PLAYED + 1
    kept = position_after(winning_line[:PLAYED]).apply(analysis["keep_move"])
    assert solve_reference(kept, max_nodes=200_000).verdict == WINNABLE
    last = solve_reference(position_after(moves), max_nodes=200_000)
    assert analysis["plies"][-1] | {"ply": 0, "move": None} == {
        "ply": 0,
        "move": None,
        "verdict": last.verdict,
        "best_cards_left": last.best_cards_left,
        "moves_to_win": None,
        "best_move": last.solution[0] if last.solution else None,
    }
    assert analysis["costly"] == [{"ply": PLAYED + 1, "cost": last.best_cards_left}]


def test_a_daily_games_analysis_opens_when_the_day_is_over(service_settings, winning_line):
    player, other = UserFactory(), UserFactory()
    today = dt.date.today()
    with clock_at(during(today)):
        daily = make_daily(date=today)
        api = client_for(player)
        game_id = api.post("/api/games/", {"daily": daily.pk}, format="json").json()["id"]
        play(api, game_id, winning_line[:10])
        api.post(f"/api/games/{game_id}/resign/", format="json")
        assert GameAnalysis.objects.filter(game_id=game_id).exists()  # computed at the game's end
        refused = api.get(f"/api/games/{game_id}/analysis/")
        assert refused.status_code == 409 and refused.json()["code"] == "not_yet"
        assert dt.datetime.fromisoformat(refused.json()["opens_at"]) == day_end(today)
        assert client_for(other).get(f"/api/games/{game_id}/analysis/").status_code == 404
        assert client_for(None).get(f"/api/games/{game_id}/replay/").status_code == 401  # as the log
    with clock_at(day_end(today) + dt.timedelta(minutes=1)):
        for viewer in (player, other):
            answer = client_for(viewer).get(f"/api/games/{game_id}/analysis/")
            assert answer.status_code == 200 and answer.json()["status"] == "ready"
            assert len(answer.json()["plies"]) == 11


def test_a_practice_game_is_its_players_alone_and_waits_for_its_end(
    service_settings, player, other_player, winning_line
):
    api = client_for(player)
    game_id = start_practice(api)
    play(api, game_id, winning_line[:3])
    playing = api.get(f"/api/games/{game_id}/analysis/")
    assert playing.status_code == 409 and playing.json() | {"message": ""} == {
        "code": "not_yet",
        "message": "",
        "opens_at": None,
    }
    api.post(f"/api/games/{game_id}/resign/", format="json")
    assert client_for(other_player).get(f"/api/games/{game_id}/analysis/").json()["code"] == "game_not_found"
    assert client_for(None).get(f"/api/games/{game_id}/analysis/").status_code == 401
    assert api.get("/api/games/999999999/analysis/").status_code == 404


def test_a_lost_job_is_queued_again_by_asking(service_settings, player, winning_line):
    api = client_for(player)
    game_id = start_practice(api)
    play(api, game_id, winning_line[:4])
    api.post(f"/api/games/{game_id}/resign/", format="json")
    GameAnalysis.objects.all().delete()  # as if the job had been lost
    service_settings.CELERY_TASK_ALWAYS_EAGER = True
    from django.core.cache import cache

    cache.clear()
    first = api.get(f"/api/games/{game_id}/analysis/").json()
    assert first["status"] == "pending" and first["plies"] == [] and first["lost_at"] is None
    assert api.get(f"/api/games/{game_id}/analysis/").json()["status"] == "ready"  # the job ran in-process


def test_the_job_is_safe_twice_and_a_failed_run_stores_nothing(service_settings, player, winning_line, monkeypatch):
    api = client_for(player)
    game_id = start_practice(api)
    play(api, game_id, winning_line[:6])
    GameAnalysis.objects.all().delete()
    Game.objects.filter(pk=game_id).update(status=Game.Status.RESIGNED, finished_at=dt.datetime.now(dt.UTC))

    def killed(*args, **kwargs):
        raise SystemExit("worker killed")

    monkeypatch.setattr("games.services.analysis.analyse", killed)
    with pytest.raises(SystemExit):
        analyse_game(game_id)
    assert not GameAnalysis.objects.filter(game_id=game_id).exists()
    assert analyse_game.acks_late  # so a worker killed mid-analysis leaves the message to run again
    monkeypatch.undo()
    analyse_game(game_id)
    first = GameAnalysis.objects.get(game_id=game_id)
    analyse_game(game_id)
    assert GameAnalysis.objects.get(game_id=game_id).created_at == first.created_at
    again = services.game_analyse(game_id=game_id, again=True)
    assert bytes(again.plies) == bytes(first.plies) and again.created_at == first.created_at


def test_the_replay_steps_through_every_position_and_the_best_line(service_settings, player, winning_line, losing_move):
    api = client_for(player)
    game_id = start_practice(api)
    moves = [*winning_line[:PLAYED], losing_move]
    play(api, game_id, moves)
    api.post(f"/api/games/{game_id}/resign/", format="json")
    replay = api.get(f"/api/games/{game_id}/replay/").json()
    assert replay["best_line"] is None
    assert [p["move"] for p in replay["plies"]] == [None, *moves]
    game = api.get(f"/api/games/{game_id}/").json()
    assert replay["plies"][0]["position"]["cards_left"] == position_after([]).cards_left
    assert replay["plies"][-1]["position"]["cards_left"] == game["cards_left"]
    assert replay["plies"][-1]["position"]["pyramid"] == game["position"]["pyramid"]

    best = api.get(f"/api/games/{game_id}/replay/?best_from={PLAYED}").json()["best_line"]
    assert best["ply"] == PLAYED and best["verdict"] == WINNABLE
    assert len(best["moves"]) == len(best["positions"]) == PAR - PLAYED
    assert best["positions"][-1]["status"] == "won"
    for bad in ("-1", str(len(moves) + 1), "x"):
        refused = api.get(f"/api/games/{game_id}/replay/?best_from={bad}")
        assert refused.status_code == 400 and refused.json()["code"] == "bad_parameter"


def test_the_command_analyses_a_days_daily_games(service_settings, winning_line):
    from django.core.management import call_command

    player = UserFactory()
    yesterday = dt.date.today() - dt.timedelta(days=1)
    with clock_at(during(yesterday)):
        daily = make_daily(date=yesterday)
        api = client_for(player)
        game_id = api.post("/api/games/", {"daily": daily.pk}, format="json").json()["id"]
        play(api, game_id, winning_line)  # won on its day
    GameAnalysis.objects.all().delete()
    from io import StringIO

    out = StringIO()
    call_command("analyse_game", "--date", yesterday.isoformat(), stdout=out)
    assert f"game {game_id}: {len(winning_line) + 1} plies, start winnable, lost at None, 0 costly" in out.getvalue()
    analysis = client_for(player).get(f"/api/games/{game_id}/analysis/").json()
    assert [p["moves_to_win"] for p in analysis["plies"]] == list(range(PAR, -1, -1))


def test_a_practice_game_can_ask_whether_it_can_still_be_won(
    service_settings, player, other_player, winning_line, losing_move
):
    api = client_for(player)
    game_id = start_practice(api)
    play(api, game_id, winning_line[:PLAYED])
    still = api.get(f"/api/games/{game_id}/verdict/").json()
    assert still == {
        "game": game_id,
        "ply": PLAYED,
        "verdict": "winnable",
        "moves_to_win": PAR - PLAYED,
        "best_cards_left": 0,
    }
    api.post(f"/api/games/{game_id}/moves/", {"ply": PLAYED + 1, "move": losing_move}, format="json")
    reference = solve_reference(position_after([*winning_line[:PLAYED], losing_move]), max_nodes=200_000)
    lost = api.get(f"/api/games/{game_id}/verdict/").json()
    assert (lost["verdict"], lost["best_cards_left"], lost["moves_to_win"]) == (
        UNWINNABLE,
        reference.best_cards_left,
        None,
    )
    assert Game.objects.get(pk=game_id).hint_count == 0  # not a hint
    assert client_for(other_player).get(f"/api/games/{game_id}/verdict/").status_code == 404


def test_a_ranked_game_never_says_whether_it_can_still_be_won(service_settings, player):
    daily = make_daily()
    api = client_for(player)
    game_id = api.post("/api/games/", {"daily": daily.pk}, format="json").json()["id"]
    refused = api.get(f"/api/games/{game_id}/verdict/")
    assert refused.status_code == 403 and refused.json()["code"] == "ranked_no_verdict"
