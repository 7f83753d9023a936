import datetime as dt

import engine
import pytest
from django.utils import timezone

from games import services as game_services
from games.daily import commitment, new_salt, utc_today
from games.models import DailyDeal, Deal, Game
from leaderboards import services
from leaderboards.models import BoardCount, Result
from pyramid_site.celery import app as celery_app
from tests.service.conftest import client_for  # noqa: F401  (the leaderboards tests import it from here)
from tests.service.conftest import database_for_check
from tests.service.factories import UserFactory

# A one-look deal and a line that wins it in par (33 moves), found by the solver; the fixture
# below proves the line with the engine before any test relies on it.
WINNABLE_ONE_LOOK = 1116761698452426220
WINNING_LINE = ("23+26 draw draw draw 22+S 16+S 24+S 17+21 draw S S draw draw 11+S draw draw 15+S 10+25 6+27 "
                "20+S 18+S 12 7 19+S 13+14 8+9 4+5 draw 3+S 1+2 draw draw 0+S").split()
PAR = 33


@pytest.fixture(autouse=True)
def _leaderboard_settings(settings):
    """Tasks in-process; the Redis board cache off unless a test turns it on."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    settings.PYRAMID_BOARD_REDIS_URL = ""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # test users, not security
    settings.PYRAMID_DAILY_SECRET = "pyramid-test-secret"
    settings.PYRAMID_SOLVE_BUDGET_SECONDS = 20.0
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = eager


@pytest.fixture(autouse=True)
def _board_counts_agree_with_results(request):
    """After every test that touched the database: each daily board's counts are exactly what its
    results add up to (the services keep them in step)."""
    touches_database = database_for_check(request)
    yield
    if not touches_database:
        return
    counts = {(c.daily_id, c.cards_left, c.moves): c.results for c in BoardCount.objects.all() if c.results}
    expected = {}
    for key in Result.objects.filter(daily__isnull=False, voided=False).values_list("daily_id", "cards_left", "moves"):
        expected[key] = expected.get(key, 0) + 1
    assert counts == expected


@pytest.fixture(scope="session")
def winning_line():
    replayed = engine.replay(engine.deal_from_number(WINNABLE_ONE_LOOK), engine.preset("one-look"), WINNING_LINE)
    assert replayed.ok and replayed.position.status == "won" and replayed.position.moves == PAR
    return WINNING_LINE


def winnable_deal(number: int = WINNABLE_ONE_LOOK, preset: str = "one-look") -> Deal:
    """The deal row as the solver job leaves it (the job itself is the service's to test)."""
    rules = engine.preset(preset)
    deal, _ = Deal.objects.get_or_create(number=number, rules=rules.to_text(), defaults={
        "preset": rules.name, "text": engine.deal_from_number(number).text, "status": Deal.Status.WINNABLE,
        "par_moves": PAR, "best_cards_left": 0, "best_moves": PAR, "solved_at": timezone.now()})
    return deal


def make_daily(*, date: dt.date | None = None, preset: str = "one-look", number: int = WINNABLE_ONE_LOOK) -> DailyDeal:
    deal = winnable_deal(number, preset)
    salt = new_salt()
    return DailyDeal.objects.create(date=date or utc_today(), preset=preset, deal=deal, attempt=0, salt=salt,
                                    commitment=commitment(deal.text, salt))


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
        services.result_record(game=game)
    return game


def daily_game(player, daily: DailyDeal, moves: int | None = None, *, seconds: float | None = None,
               line=WINNING_LINE) -> Game:
    """A finished daily game of ``player``: the first ``moves`` moves of the winning line (all of
    it, a win, by default), then resigned."""
    if daily.date != utc_today():
        # a past day cannot be started any more: start it as the game service would have that day
        game = game_services.play._new_game(player=player, deal=daily.deal, daily=daily, mode=Game.Mode.RANKED)
    else:
        game = game_services.game_start(player=player, daily_id=daily.pk)
    return play(game, list(line[:moves] if moves is not None else line), seconds=seconds)


def result_of(game: Game) -> Result:
    return Result.objects.get(game=game)


@pytest.fixture
def player(db):
    return UserFactory()


@pytest.fixture
def users(db):
    return [UserFactory() for _ in range(8)]


__all__ = ["UserFactory", "client_for", "daily_game", "make_daily", "play", "result_of", "winnable_deal"]
