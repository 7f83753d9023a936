"""The daily re-check: every finished ranked game of a day is replayed from its move log; a stored
result that differs, and play that looks like a program, are flagged for review, once."""

import datetime as dt
import io

import pytest
from django.core.management import call_command
from django.test import override_settings

from engine.solver import UNKNOWN, Solution
from games import services as game_services
from games.models import Game
from games.move_log import log_encode, log_without_last
from games.tasks import close_expired_games
from leaderboards.fair_play.models import Flag, Void
from leaderboards.fair_play.recheck import ranked_day_recheck
from leaderboards.fair_play.services import flag_review
from leaderboards.fair_play.tasks import recheck_ranked_day
from leaderboards.models import Result
from pyramid_site.clock import day_end, utc_today
from pyramid_site.errors import Code, DomainError
from tests.support import PAR, client_for, clock_at, daily_game, during, logged, make_daily, metrics_scrape

pytestmark = pytest.mark.django_db
# seconds before each move of a person: long thought at some moves, quick at others
HUMAN_PAUSES = [4.1, 1.2, 0.9, 1.1, 7.5, 3.2, 2.4, 12.0, 1.8, 0.7, 5.5]


def stamp_moves(game: Game, pauses: list[float]) -> Game:
    """Give the game's moves these server times (pauses cycled), as if it had been played so."""
    stamped, at = [], game.started_at
    for index, move in enumerate(logged(game)):
        at += dt.timedelta(seconds=pauses[index % len(pauses)])
        stamped.append((move.notation, at))
    Game.objects.filter(pk=game.pk).update(finished_at=at, move_log=log_encode(stamped, started_at=game.started_at))
    game.refresh_from_db()
    return game


@pytest.fixture
def yesterday():
    """The day the re-check looks at by default (computed when the test runs: a run may cross midnight)."""
    return utc_today() - dt.timedelta(days=1)


def test_a_solver_line_at_an_even_pace_is_flagged_and_a_persons_game_is_not(users, winning_line, yesterday):
    daily = make_daily(date=yesterday)
    bot = stamp_moves(daily_game(users[0], daily), [2.0, 2.05, 1.95])  # par, machine-even
    person = stamp_moves(daily_game(users[1], daily), HUMAN_PAUSES)  # par, a person's pace
    off_par = stamp_moves(daily_game(users[2], daily, 20), [2.0])  # even, but not a winning line
    assert bot.moves == person.moves == PAR and off_par.status == Game.Status.RESIGNED
    report = ranked_day_recheck(date=yesterday)
    assert report.games == 3 and report.mismatched == [] and report.suspicious == [bot.pk]
    flag = Flag.objects.get()
    assert flag.game == bot and flag.kind == "suspicious" and f"won in par ({PAR} moves" in flag.detail
    # a flag is no penalty, but its result is held off the boards until an operator reviews it
    assert Result.objects.get(game=bot).voided and not Void.objects.exists()
    assert not Result.objects.get(game=person).voided


def test_a_game_closed_at_the_end_of_its_day_is_no_mismatch(users, winning_line, yesterday):
    daily = make_daily(date=yesterday)
    with clock_at(during(yesterday)):
        game = game_services.ranked_game_start(
            player=users[0], deal=daily.deal, daily=daily, closes_at=day_end(yesterday)
        )
        for ply, move in enumerate(winning_line[:6], start=1):
            game_services.move_submit(game_id=game.pk, player=users[0], ply=ply, move=move)
    assert close_expired_games() == 1  # left playing: the clock job closed it as it stood
    game.refresh_from_db()
    assert game.status == Game.Status.CLOSED
    report = ranked_day_recheck(date=yesterday)
    assert report.games == 1 and report.mismatched == [], list(Flag.objects.values_list("detail", flat=True))
    assert not Flag.objects.exists()
    # and a closed game whose log has gone on to a win is one
    resigned_won = daily_game(users[1], daily)  # won on its day
    Game.objects.filter(pk=resigned_won.pk).update(
        status=Game.Status.CLOSED, finished_at=day_end(yesterday), closes_at=day_end(yesterday)
    )
    assert ranked_day_recheck(date=yesterday).mismatched == [resigned_won.pk]


@override_settings(PYRAMID_FLAG_EVEN_CV=0.01)
def test_the_rule_reads_its_threshold_from_settings(users, winning_line, yesterday):
    bot = stamp_moves(daily_game(users[0], make_daily(date=yesterday)), [2.0, 2.05, 1.95])
    assert ranked_day_recheck(date=yesterday).suspicious == []
    with override_settings(PYRAMID_FLAG_EVEN_CV=0.25, PYRAMID_FLAG_MIN_MOVES=PAR + 1):
        assert ranked_day_recheck(date=yesterday).suspicious == []
    with override_settings(PYRAMID_FLAG_EVEN_CV=0.25):
        assert ranked_day_recheck(date=yesterday).suspicious == [bot.pk]


@pytest.mark.rows_edited_behind_the_services
def test_a_stored_result_that_differs_from_the_log_is_flagged(users, winning_line, yesterday):
    daily = make_daily(date=yesterday)
    honest = stamp_moves(daily_game(users[0], daily, 15), HUMAN_PAUSES)
    doctored = stamp_moves(daily_game(users[1], daily, 15), HUMAN_PAUSES)
    reported = stamp_moves(daily_game(users[2], daily, 15), HUMAN_PAUSES)
    lost_move = stamp_moves(daily_game(users[3], daily, 15), HUMAN_PAUSES)
    Game.objects.filter(pk=doctored.pk).update(cards_left=3)  # the game row edited behind the service
    Result.objects.filter(game=reported).update(cards_left=0, won=True)  # the board row edited
    Game.objects.filter(pk=lost_move.pk).update(move_log=log_without_last(lost_move.move_log))  # lost its last move
    unscored = stamp_moves(daily_game(users[4], daily, 15), HUMAN_PAUSES)
    Result.objects.filter(game=unscored).delete()
    report = ranked_day_recheck(date=yesterday)
    assert sorted(report.mismatched) == sorted([doctored.pk, reported.pk, lost_move.pk, unscored.pk])
    details = dict(Flag.objects.filter(kind="result_mismatch").values_list("game_id", "detail"))
    assert honest.pk not in details
    assert "game cards_left is 3" in details[doctored.pk]
    assert "result won is True, the log gives False" in details[reported.pk]
    assert "game moves is 15, the log gives 14" in details[lost_move.pk]
    assert details[unscored.pk] == "the game has no result"


def test_an_illegal_move_in_the_log_is_flagged(users, winning_line, yesterday):
    game = stamp_moves(daily_game(users[0], make_daily(date=yesterday), 5), HUMAN_PAUSES)
    moves = [(move.notation, move.created_at) for move in logged(game)]
    moves[1] = ("0+1", moves[1][1])
    Game.objects.filter(pk=game.pk).update(move_log=log_encode(moves, started_at=game.started_at))
    ranked_day_recheck(date=yesterday)
    assert "move 2 (0+1) is illegal" in Flag.objects.get(game=game).detail


@pytest.mark.rows_edited_behind_the_services
def test_the_command_and_the_task_are_safe_to_run_twice(users, winning_line, yesterday):
    daily = make_daily(date=yesterday)
    bot = stamp_moves(daily_game(users[0], daily), [3.0])
    bad = stamp_moves(daily_game(users[1], daily, 8), HUMAN_PAUSES)
    Result.objects.filter(game=bad).update(moves=2)
    daily_game(users[2], make_daily(date=utc_today()), 8)  # today's games wait for their day to be over
    out = io.StringIO()
    call_command("recheck_ranked_day", "--date", yesterday.isoformat(), stdout=out)
    assert "2 ranked games replayed, 1 differ from their log, 1 suspicious, 2 new flags" in out.getvalue()
    first = list(Flag.objects.order_by("pk").values_list("pk", "game_id", "kind"))
    again = recheck_ranked_day.delay().get()  # the beat job's default day is yesterday
    assert again == {
        "date": yesterday.isoformat(),
        "chunks": 1,
        "chunks_done": 1,
        "games": 2,
        "mismatched": [bad.pk],
        "suspicious": [bot.pk],
        "flags_new": 0,
    }
    assert list(Flag.objects.order_by("pk").values_list("pk", "game_id", "kind")) == first


def test_staff_review_flags_beside_the_voids(users, winning_line, yesterday):
    staff = users[5]
    staff.is_staff = True
    staff.save()
    bot = stamp_moves(daily_game(users[0], make_daily(date=yesterday)), [2.0])
    ranked_day_recheck(date=yesterday)
    assert client_for(users[1]).get("/api/fair-play/flags/").status_code == 403
    listed = client_for(staff).get("/api/fair-play/flags/?open=1").json()["results"]
    assert [(f["game"], f["kind"]) for f in listed] == [(bot.pk, "suspicious")]
    url = f"/api/fair-play/flags/{listed[0]['id']}/review/"
    assert client_for(users[1]).post(url, {"note": "x"}, format="json").status_code == 403
    # a blank note: refused by the body's checks over the API, and by the service itself
    blank = client_for(staff).post(url, {"note": " "}, format="json")
    assert blank.status_code == 400 and blank.json()["code"] == "invalid" and "note" in blank.json()["fields"]
    with pytest.raises(DomainError) as refused:
        flag_review(flag_id=listed[0]["id"], note="  ", by=staff)
    assert refused.value.code is Code.NOTE_REQUIRED
    assert Result.objects.get(game=bot).voided  # held until the review
    reviewed = client_for(staff).post(url, {"note": "same pace on every move; voided"}, format="json").json()
    assert reviewed["reviewed_by"] == staff.pk and reviewed["review_note"] == "same pace on every move; voided"
    assert not Result.objects.get(game=bot).voided  # a review without a void puts it back
    assert client_for(staff).post(url, {"note": "again"}, format="json").json()["code"] == "already_reviewed"
    assert client_for(staff).get("/api/fair-play/flags/?open=1").json()["results"] == []
    assert client_for(staff).get("/api/fair-play/flags/").json()["count"] == 1  # reviewed, still listed
    voided = client_for(staff).post("/api/fair-play/voids/", {"game": bot.pk, "reason": "flag reviewed"}, format="json")
    assert voided.status_code == 201 and Result.objects.get(game=bot).voided
    for missing in (999999, 10**30):  # past a 64-bit id: still a plain 404, not a database overflow
        assert (
            client_for(staff)
            .post(f"/api/fair-play/flags/{missing}/review/", {"note": "x"}, format="json")
            .json()["code"]
            == "flag_not_found"
        )


def test_without_a_known_par_the_solver_is_asked_and_an_unknown_verdict_flags_nothing(
    users, winning_line, yesterday, settings, monkeypatch
):
    bot = stamp_moves(daily_game(users[0], make_daily(date=yesterday)), [2.0])
    Deal = type(bot.deal)
    Deal.objects.filter(pk=bot.deal_id).update(status=Deal.Status.UNKNOWN, par_moves=None)
    # a solver whose budget runs out (the compiled one proves some deals within any budget small enough to
    # stand for "too small"): no par, so no suspicion
    asked = []

    def out_of_budget(position, *, budget_seconds):
        asked.append(budget_seconds)
        return Solution(verdict=UNKNOWN, par_moves=None, best_cards_left=None, best_moves=None, seconds=budget_seconds)

    monkeypatch.setattr("leaderboards.fair_play.recheck.solve", out_of_budget)
    assert ranked_day_recheck(date=yesterday).suspicious == []
    assert asked == [settings.PYRAMID_SOLVE_BUDGET_SECONDS]
    assert not Flag.objects.exists()


def test_the_recheck_runs_daily_on_beat(settings):
    from leaderboards import tasks
    from pyramid_site.celery import app

    entry = settings.CELERY_BEAT_SCHEDULE["recheck-ranked-day"]
    assert entry["schedule"] == 86400.0 and entry["task"] in app.tasks
    assert app.tasks[entry["task"]].name == recheck_ranked_day.name == "leaderboards.fair_play.tasks.recheck_ranked_day"
    assert tasks.recheck_ranked_day is recheck_ranked_day  # where Celery looks for the app's tasks too


@pytest.mark.rows_edited_behind_the_services
def test_a_day_cut_into_chunks_finds_what_one_pass_finds_in_any_order_and_twice(users, winning_line, yesterday):

    from leaderboards.fair_play.recheck import recheck_chunk_run, recheck_day_plan, recheck_day_report

    daily = make_daily(date=yesterday)
    bot = stamp_moves(daily_game(users[0], daily), [3.0])
    bad = stamp_moves(daily_game(users[1], daily, 8), HUMAN_PAUSES)
    Result.objects.filter(game=bad).update(moves=2)
    honest = [stamp_moves(daily_game(user, daily, 10), HUMAN_PAUSES) for user in users[2:5]]
    daily_game(users[5], make_daily(date=utc_today()), 8)  # today's: not part of yesterday's re-check
    ids = sorted(game.pk for game in [bot, bad, *honest])
    chunks = recheck_day_plan(date=yesterday, size=2)
    assert [(c.first_game, c.last_game) for c in chunks] == [(ids[0], ids[1]), (ids[2], ids[3]), (ids[4], ids[4])]
    assert recheck_day_report(date=yesterday)[1:] == (0, 3)
    for chunk in reversed(chunks):  # the workers take them in any order
        assert recheck_chunk_run(chunk_id=chunk.pk).finished_at is not None
    report, done, planned = recheck_day_report(date=yesterday)
    assert (done, planned, report.games, report.flags_new) == (3, 3, 5, 2)
    assert (report.mismatched, report.suspicious) == ([bad.pk], [bot.pk])
    assert recheck_chunk_run(chunk_id=chunks[0].pk).flags_new == 0  # run twice: nothing new
    one_pass = ranked_day_recheck(date=yesterday)
    assert (one_pass.games, one_pass.mismatched, one_pass.suspicious) == (5, [bad.pk], [bot.pk])

    out = io.StringIO()  # the workers' way: chunks queued (run in-process in the tests) and followed
    call_command("recheck_ranked_day", "--date", yesterday.isoformat(), "--workers", "--chunk", "2", stdout=out)
    assert "3/3 chunks" in out.getvalue()
    assert "5 ranked games replayed, 1 differ from their log, 1 suspicious, 0 new flags" in out.getvalue()
    assert recheck_chunk_run(chunk_id=chunks[0].pk) is None  # planned anew by the command: that chunk is gone
    metrics = metrics_scrape()
    assert f'pyramid_recheck_games{{date="{yesterday}",outcome="replayed"}} 5.0' in metrics
    assert f'pyramid_recheck_chunks{{date="{yesterday}",state="done"}} 3.0' in metrics
    assert f'pyramid_recheck_games{{date="{yesterday}",outcome="suspicious"}} 1.0' in metrics
