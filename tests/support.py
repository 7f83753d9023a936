"""Helpers of the service tests, shared by every folder that needs them (one module, so that no test
imports another folder's conftest): test users and API clients, the one deal the tests know to be
winnable and a line that wins it in par, daily deal rows as the daily job leaves them, finished daily
games, and the checks of the services' invariants that folders run after each test. The fixtures
built on these are in ``tests/conftest.py``."""

from __future__ import annotations

import contextlib
import datetime as dt
import threading
from collections.abc import Callable

import factory
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

import engine
from benchmarks.common import clock_at
from games import services as game_services
from games.daily import commitment, new_salt
from games.engine_glue import engine_deal, engine_rules
from games.models import DailyDeal, Deal, Game
from games.move_log import LoggedMove, log_moves
from games.services.deals import deal_get_or_create, deal_keep_secret
from leaderboards.boards import services as leaderboard_services
from leaderboards.models import BoardCount, PeriodCount, PeriodStanding, Result
from pyramid_site.clock import day_end, utc_today

# The secrets the tests' settings use (tests/conftest.py): two different ones, so that a test can tell
# which secret a number was derived from.
TEST_DAILY_SECRET = "pyramid-test-secret"
TEST_TOURNAMENT_SECRET = "pyramid-test-tournament-secret"

# A one-look deal and a line that wins it in par (33 moves), found by the solver; the session fixture
# ``winning_line`` proves the line with the engine, and tests/games/test_daily.py checks that the
# solver's par is PAR, before any test relies on either.
WINNABLE_ONE_LOOK = 1116761698452426220
WINNING_LINE = (
    "23+26 draw draw draw 22+S 16+S 24+S 17+21 draw S S draw draw 11+S draw draw 15+S 10+25 6+27 "
    "20+S 18+S 12 7 19+S 13+14 8+9 4+5 draw 3+S 1+2 draw draw 0+S"
).split()
PAR = 33


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = factory.PostGenerationMethodCall("set_password", "a-long-pass-phrase")


def client_for(user) -> APIClient:
    """An API client logged in as ``user`` (anonymous for None)."""
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def winnable_deal() -> Deal:
    """The row of WINNABLE_ONE_LOOK as the solver job leaves it (the job itself is tested in
    tests/games/test_daily.py): winnable, par PAR."""
    rules = engine.preset("one-look")
    deal, _ = Deal.objects.get_or_create(
        number=WINNABLE_ONE_LOOK,
        rules=rules.to_text(),
        defaults={
            "preset": rules.name,
            "text": engine.deal_from_number(WINNABLE_ONE_LOOK).text,
            "status": Deal.Status.WINNABLE,
            "par_moves": PAR,
            "best_cards_left": 0,
            "best_moves": PAR,
            "solution": " ".join(WINNING_LINE),
            "solved_at": timezone.now(),
        },
    )
    return deal


def make_daily(*, date: dt.date | None = None, preset: str = "one-look", number: int = WINNABLE_ONE_LOOK) -> DailyDeal:
    """A daily deal row (today's unless ``date``), committed to with a fresh salt. Its deal is the
    proved winnable one by default; any other deal is as the solver has not seen it yet (pending)."""
    if (number, preset) == (WINNABLE_ONE_LOOK, "one-look"):
        deal = winnable_deal()
    else:
        deal = deal_get_or_create(number=number, rules=engine.preset(preset))
    salt = new_salt()
    daily = DailyDeal.objects.create(
        date=date or utc_today(), preset=preset, deal=deal, attempt=0, salt=salt, commitment=commitment(deal.text, salt)
    )
    deal_keep_secret(deal_id=deal.pk, until=day_end(daily.date))  # as the daily job does: secret all its day
    deal.refresh_from_db()
    return daily


def during(date: dt.date) -> dt.datetime:
    """Noon UTC of ``date``: a moment in the middle of that daily deal's day."""
    return dt.datetime.combine(date, dt.time(12), tzinfo=dt.UTC)


def play(game: Game, moves: list[str], *, resign: bool = True, seconds: float | None = None) -> Game:
    """Play ``moves`` through the game service, then resign unless the game is over; with
    ``seconds``, the game's server clock is set to that duration and its result rewritten."""
    for ply, move in enumerate(moves, start=game.moves + 1):
        game_services.move_submit(game_id=game.pk, player=game.player, ply=ply, move=move)
    game.refresh_from_db()
    if resign and not game.is_over:
        game = game_services.game_resign(game_id=game.pk, player=game.player)
    if seconds is not None:
        Game.objects.filter(pk=game.pk).update(started_at=game.finished_at - dt.timedelta(seconds=seconds))
        game.refresh_from_db()
        leaderboard_services.result_record(game=game)
    return game


def daily_game(
    player, daily: DailyDeal, moves: int | None = None, *, seconds: float | None = None, line: list[str] = WINNING_LINE
) -> Game:
    """A finished ranked game of ``player`` on ``daily``: the first ``moves`` moves of ``line`` (all of
    it, a win, by default), then resigned. Started as the game service starts it on the daily deal's
    own day, whatever the day is now: a past day's game is played at noon of its day (``clock_at``), so
    its times are that day's and its window is over now, as it would be."""
    over = day_end(daily.date) <= dt.datetime.now(dt.UTC)
    with clock_at(during(daily.date)) if over else contextlib.nullcontext():
        game = game_services.ranked_game_start(
            player=player, deal=daily.deal, daily=daily, closes_at=day_end(daily.date)
        )
        return play(game, list(line[:moves] if moves is not None else line), seconds=seconds)


def result_of(game: Game) -> Result:
    return Result.objects.get(game=game)


def database_for_check(request) -> bool:
    """For a check that runs after the test: set the test's database up first, so that it is still
    there when the check runs. Whether the test touches a database at all."""
    uses = next((name for name in ("transactional_db", "db") if name in request.fixturenames), None)
    if uses:
        request.getfixturevalue(uses)
    return uses is not None or request.node.get_closest_marker("django_db") is not None


def logged(game) -> list[LoggedMove]:
    """A game's move log as stored now (``game`` a game or its id)."""
    stored = Game.objects.only("move_log", "started_at").get(pk=getattr(game, "pk", game))
    return log_moves(stored.move_log, started_at=stored.started_at)


def check_logs_replay() -> None:
    """Each game's move log, replayed through the engine, gives exactly the stored state."""
    for game in Game.objects.select_related("deal"):
        log = [(move.ply, move.notation) for move in logged(game)]
        assert [ply for ply, _ in log] == list(range(1, len(log) + 1)), f"game {game.pk} has gaps in its plies"
        replayed = engine.replay(engine_deal(game.deal.text), engine_rules(game.deal.rules), [n for _, n in log])
        assert replayed.ok, f"game {game.pk}: move {replayed.failed_at} fails: {replayed.reason}"
        assert replayed.position.dumps() == game.state, f"game {game.pk}: log does not replay to its state"
        assert replayed.position.cards_left == game.cards_left and len(log) == game.moves
        if game.status in (Game.Status.RESIGNED, Game.Status.CLOSED):  # ended by the player or the clock
            assert replayed.position.status == Game.Status.PLAYING, f"game {game.pk} ended on a finished position"
        else:
            assert replayed.position.status == game.status


def check_board_counts() -> None:
    """Each daily board's counts are exactly what its results add up to, and so are the weekly and all-time
    standings, summed here from the results one by one (the services keep them in step)."""
    counts = {(c.daily_id, c.cards_left, c.moves, c.shard): c.results for c in BoardCount.objects.all() if c.results}
    expected: dict = {}
    for daily, cards, moves, player in Result.objects.filter(daily__isnull=False, voided=False).values_list(
        "daily_id", "cards_left", "moves", "player_id"
    ):
        key = (daily, cards, moves, player % 16)
        expected[key] = expected.get(key, 0) + 1
    assert counts == expected
    assert standings_stored() == standings_summed()
    buckets: dict = {}
    for kind, starts, preset, key in PeriodStanding.objects.values_list("kind", "starts", "preset", "rank_key"):
        buckets[(kind, starts, preset, key >> 13)] = buckets.get((kind, starts, preset, key >> 13), 0) + 1
    counted = {(c.kind, c.starts, c.preset, c.bucket): c.players for c in PeriodCount.objects.all() if c.players}
    assert counted == buckets


def standings_stored() -> dict:
    return {
        (s.kind, s.starts, s.preset, s.player_id): (
            s.played,
            s.cleared,
            s.won,
            s.at_par,
            s.cards_total,
            s.best_cards_left,
            s.best_moves_won,
        )
        for s in PeriodStanding.objects.all()
    }


def standings_summed() -> dict:
    """The standings by the board formulas of docs/leaderboards.md, from each counted daily result."""
    figures: dict = {}
    for r in Result.objects.filter(daily__isnull=False, voided=False):
        monday = r.date - dt.timedelta(days=r.date.weekday())
        for key in (("week", monday, r.preset, r.player_id), ("all", dt.date(1970, 1, 1), r.preset, r.player_id)):
            played, cleared, won, at_par, cards, best, best_won = figures.get(key, (0, 0, 0, 0, 0, 52, None))
            par = r.won and r.par_moves is not None and r.moves <= r.par_moves
            if r.won:
                best_won = r.moves if best_won is None else min(best_won, r.moves)
            figures[key] = (
                played + 1,
                cleared + r.cleared,
                won + r.won,
                at_par + par,
                cards + r.cards_left,
                min(best, r.cards_left),
                best_won,
            )
    return figures


METRICS_TOKEN = "metrics-token-of-the-tests"


def metrics_scrape() -> str:
    """``/metrics`` as Prometheus reads it: with its bearer token."""
    from django.test import override_settings

    with override_settings(PYRAMID_METRICS_TOKEN=METRICS_TOKEN):
        response = APIClient().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {METRICS_TOKEN}")
    assert response.status_code == 200, response.content
    return response.content.decode()


def at_once(*actions: Callable[[], object]) -> list[Exception]:
    """Run each action in a thread of its own, released together, each on its own database connection; what
    they raised (a race test asserts it is nothing, or only the refusals it expects)."""
    barrier, errors = threading.Barrier(len(actions)), []

    def run(action):
        try:
            barrier.wait()
            action()
        except Exception as exc:  # noqa: BLE001 - handed to the test
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(action,)) for action in actions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


def guest_from(address: str) -> APIClient:
    """A guest made through the API from ``address``, and a client that plays as it from there."""
    made = APIClient(REMOTE_ADDR=address).post("/api/accounts/guest/")
    assert made.status_code == 201, made.json()
    client = APIClient(REMOTE_ADDR=address)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {made.json()['token']}")
    return client
