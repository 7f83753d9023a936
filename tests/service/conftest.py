import datetime as dt

import engine
import pytest
from engine.solver import solve
from rest_framework.test import APIClient

from games.daily import commitment, daily_number, new_salt, utc_today
from games.engine_glue import engine_deal, engine_rules
from games.models import DailyDeal, Deal, Game
from pyramid_site.celery import app as celery_app

from .factories import UserFactory

# A one-look deal the solver proves winnable in a few seconds (found by searching deal numbers).
WINNABLE_ONE_LOOK = 1116761698452426220


@pytest.fixture(autouse=True)
def _service_settings(settings):
    """Tasks in-process, a private cache (throttle counts), small solver budgets."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    settings.PYRAMID_SOLVE_BUDGET_SECONDS = 10.0
    settings.PYRAMID_HINT_BUDGET_SECONDS = 5.0
    settings.PYRAMID_DAILY_SECRET = "pyramid-test-secret"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # quick, for tests only
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    from django.core.cache import cache

    cache.clear()
    yield
    celery_app.conf.task_always_eager = eager


def database_for_check(request) -> bool:
    """For a check that runs after the test: set the test's database up first, so that it is still
    there when the check runs. Whether the test touches a database at all."""
    uses = next((name for name in ("transactional_db", "db") if name in request.fixturenames), None)
    if uses:
        request.getfixturevalue(uses)
    return uses is not None or request.node.get_closest_marker("django_db") is not None


@pytest.fixture(autouse=True)
def _every_log_replays_to_its_state(request):
    """After every test that touched the database: each game's move log, replayed through the
    engine, gives exactly the stored state."""
    touches_database = database_for_check(request)
    yield
    if not touches_database:
        return
    for game in Game.objects.select_related("deal"):
        log = list(game.log.order_by("ply").values_list("ply", "notation"))
        assert [ply for ply, _ in log] == list(range(1, len(log) + 1)), f"game {game.pk} has gaps in its plies"
        replayed = engine.replay(engine_deal(game.deal.text), engine_rules(game.deal.rules), [n for _, n in log])
        assert replayed.ok, f"game {game.pk}: move {replayed.failed_at} fails: {replayed.reason}"
        assert replayed.position.dumps() == game.state, f"game {game.pk}: log does not replay to its state"
        assert replayed.position.cards_left == game.cards_left and len(log) == game.moves
        if game.status != Game.Status.RESIGNED:
            assert replayed.position.status == game.status


@pytest.fixture
def player(db):
    return UserFactory()


@pytest.fixture
def other_player(db):
    return UserFactory()


def client_for(user) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def api(player):
    return client_for(player)


@pytest.fixture(scope="session")
def winning_line():
    """The solver's winning line of the winnable one-look deal, proved by the engine."""
    deal, rules = engine.deal_from_number(WINNABLE_ONE_LOOK), engine.preset("one-look")
    solution = solve(engine.Position.start(deal, rules), max_nodes=1_000_000)
    assert solution.verdict == "winnable"
    replayed = engine.replay(deal, rules, solution.solution)
    assert replayed.ok and replayed.position.status == "won"
    return solution.solution


def make_daily(*, date: dt.date | None = None, preset: str = "one-look", number: int = WINNABLE_ONE_LOOK) -> DailyDeal:
    """A daily deal row as the job leaves it (the job itself is tested in test_daily.py)."""
    rules = engine.preset(preset)
    deal, _ = Deal.objects.get_or_create(number=number, rules=rules.to_text(),
                                         defaults={"preset": rules.name, "text": engine.deal_from_number(number).text})
    salt = new_salt()
    return DailyDeal.objects.create(date=date or utc_today(), preset=preset, deal=deal, attempt=0, salt=salt,
                                    commitment=commitment(deal.text, salt))


__all__ = ["client_for", "daily_number", "make_daily"]
