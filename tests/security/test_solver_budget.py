"""Solver work nobody can hoard: every request that runs the solver for a player (hints, verdicts, best lines,
a practice draw from an empty pool, solves, analyses) is paid from the budget of its account and of its client
address. Each test is a way one client used to take the solver from everyone else, and the 429 it meets now.

The budgets are set small and every piece of solver work is measured as ``STEP`` CPU seconds (the measuring
clock is the test's), so nothing here depends on how fast the machine is; the windows' clock is held still
unless a test moves it."""

from __future__ import annotations

import os
import threading
import uuid

import pytest
from django.core.cache import cache
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

import engine
from games import services as game_services
from games.models import Deal, Game, GameAnalysis
from games.tasks import analyse_game, solve_deal
from pyramid_site import sliding_window, solver_budget
from pyramid_site.client import client_address
from pyramid_site.solver_budget import SolverPayer
from tests.support import UserFactory, client_for, guest_from, make_daily

pytestmark = pytest.mark.django_db
STEP = 2.0  # CPU seconds every piece of solver work is measured as
HOME, ELSEWHERE, FAR = "198.51.100.7", "203.0.113.9", "192.0.2.44"
ONE_LOOK = engine.preset("one-look")


class Clocks:
    """The measuring clock (each reading ``step`` seconds after the one before, so a piece of work, read at
    its start and its end, measures ``step``) and the windows' clock (still until moved)."""

    def __init__(self, step: float):
        self.step, self.cpu, self.wall = step, 0.0, 600.0 * 3_000_000 + 1.0

    def read_cpu(self) -> float:
        self.cpu += self.step
        return self.cpu

    def move(self, seconds: float) -> None:
        self.wall += seconds


@pytest.fixture
def clocks(monkeypatch):
    clocks = Clocks(STEP)
    monkeypatch.setattr(solver_budget, "cpu_seconds", clocks.read_cpu)
    monkeypatch.setattr(sliding_window, "wall_seconds", lambda: clocks.wall)
    return clocks


@pytest.fixture
def budgets(settings, clocks):
    """Set the account's and the address's budgets (seconds; 0 is off) for the test."""

    def set_budgets(*, account: float, address: float) -> Clocks:
        settings.PYRAMID_SOLVER_SECONDS_PER_ACCOUNT = account
        settings.PYRAMID_SOLVER_SECONDS_PER_ADDRESS = address
        return clocks

    return set_budgets


@pytest.fixture(autouse=True)
def practice_deal_solved(db):
    """The deal ``practice_game`` plays, solved already as the service's own work: starting a game of it queues no
    solve, so each test's budget goes to the work it is about (a new deal's solve is charged: tested below)."""
    game_services.deal_solve(deal_id=game_services.deal_get_or_create(number=0, rules=ONE_LOOK).pk)


def practice_game(client: APIClient) -> int:
    answer = client.post("/api/games/", {"number": 0, "rules": "one-look"}, format="json")
    assert answer.status_code == 201, answer.json()
    return answer.json()["id"]


def verdict(client: APIClient, game_id: int, **extra):
    return client.get(f"/api/games/{game_id}/verdict/", **extra)


def verdicts(client: APIClient, game_id: int, times: int) -> list[int]:
    return [verdict(client, game_id).status_code for _ in range(times)]


def assert_throttled(answer) -> int:
    body = answer.json()
    assert answer.status_code == 429 and body["code"] == "throttled", body
    assert body["retry_after_seconds"] >= 1 and int(answer["Retry-After"]) == body["retry_after_seconds"]
    return body["retry_after_seconds"]


def test_guests_of_one_address_share_its_budget(budgets):
    """Old hole: every new guest came with fresh allowances, so 20 guests an hour from one address (and 20
    sign-ups) got 40 times what one player gets: about 45 CPU-hours in the first hour."""
    budgets(account=100, address=5)
    guests = [guest_from(HOME) for _ in range(5)]
    codes = [verdict(client, practice_game(client)).status_code for client in guests]
    assert codes == [200, 200, 200, 429, 429]  # 0, 2 and 4 seconds spent before each of the first three
    newcomer = guest_from(HOME)
    assert_throttled(newcomer.get(f"/api/games/{practice_game(newcomer)}/hint/"))
    elsewhere = guest_from(ELSEWHERE)
    assert verdict(elsewhere, practice_game(elsewhere)).status_code == 200


def test_a_verdict_loop_is_refused_once_the_account_has_spent_its_budget(budgets):
    """Old hole: one guest looping ``/verdict/`` (three at once) took a core each for as long as it liked,
    and every visitor's ``/api/daily/`` went from 24 ms to 3 s. Once spent, every solver request of the
    account is refused before any search, until the window has moved on by ``retry_after_seconds``."""
    clocks = budgets(account=5, address=100)
    looper = guest_from(HOME)
    game_id = practice_game(looper)
    assert verdicts(looper, game_id, 6) == [200, 200, 200, 429, 429, 429]
    refused = verdict(looper, game_id)
    wait = assert_throttled(refused)
    assert_throttled(looper.get(f"/api/games/{game_id}/hint/"))  # one budget for every solver request
    assert Game.objects.get(pk=game_id).hint_count == 0
    neighbour = guest_from(HOME)  # the address's budget still has room
    assert verdict(neighbour, practice_game(neighbour)).status_code == 200
    clocks.move(wait - 30)
    assert verdict(looper, game_id).status_code == 429
    clocks.move(31)
    assert verdict(looper, game_id).status_code == 200


def test_a_logged_in_request_is_charged_to_its_account_and_its_address(budgets, player, other_player):
    budgets(account=5, address=7)
    mine, theirs = (game_services.game_start(player=p, number=0, rules="one-look").pk for p in (player, other_player))
    api = client_for(player)
    assert [verdict(api, mine, REMOTE_ADDR=HOME).status_code for _ in range(3)] == [200, 200, 200]
    assert_throttled(verdict(api, mine, REMOTE_ADDR=ELSEWHERE))  # the account's budget, from any address
    other = client_for(other_player)
    assert verdict(other, theirs, REMOTE_ADDR=HOME).status_code == 200  # 6 of the address's 7 seconds spent
    assert_throttled(verdict(other, theirs, REMOTE_ADDR=HOME))  # now 8: the address's budget
    assert verdict(other, theirs, REMOTE_ADDR=FAR).status_code == 200  # their account still has room


def test_clients_of_different_addresses_do_not_touch_each_others_budget(budgets):
    budgets(account=5, address=5)
    hoarder, visitor = guest_from(HOME), guest_from(ELSEWHERE)
    hoarded, visited = practice_game(hoarder), practice_game(visitor)
    hoarders, visitors = [], []
    for _ in range(4):  # turn about: each gets its own three, whatever the other has spent
        hoarders.append(verdict(hoarder, hoarded).status_code)
        visitors.append(verdict(visitor, visited).status_code)
    assert hoarders == visitors == [200, 200, 200, 429]


def test_an_empty_pool_draw_is_charged_and_refused_once_spent(budgets, monkeypatch):
    """Old hole: ``{difficulty: 5, rules: "one-look"}`` with no such deal proved searched for 2.5 s of CPU on
    every request, from anyone, without end."""
    budgets(account=5, address=100).step = 2.5
    searches = []
    monkeypatch.setattr("games.services.play.practice_pool_fill", lambda **kwargs: searches.append(kwargs) or 0)
    drawer = guest_from(HOME)
    answers = [drawer.post("/api/games/", {"difficulty": 5, "rules": "one-look"}, format="json") for _ in range(4)]
    assert [a.json()["code"] for a in answers] == ["no_deal_ready", "no_deal_ready", "throttled", "throttled"]
    assert_throttled(answers[-1])
    assert len(searches) == 2  # refused before searching
    # a deal the pool holds costs no search: it is drawn whatever the budget
    ready = game_services.deal_get_or_create(number=77, rules=ONE_LOOK)
    Deal.objects.filter(pk=ready.pk).update(
        status=Deal.Status.WINNABLE,
        difficulty=5,
        par_moves=30,
        best_moves=30,
        best_cards_left=0,
        solved_at=timezone.now(),
    )
    drawn = drawer.post("/api/games/", {"difficulty": 5, "rules": "one-look"}, format="json")
    assert drawn.status_code == 201 and Game.objects.get(pk=drawn.json()["id"]).deal_id == ready.pk


def finish(client: APIClient, game_id: int, django_capture_on_commit_callbacks) -> None:
    """Resign the game; the analysis it queues runs at commit, in-process, as the tests' tasks do."""
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(f"/api/games/{game_id}/resign/", format="json").status_code == 200


def test_a_practice_analysis_waits_while_the_budget_is_spent(budgets, django_capture_on_commit_callbacks):
    """Old hole: every practice game that ended queued an analysis of up to 120 s (71 moves under a heavy
    custom rule set did), however many its player had run. Now a practice game that ends while its player's
    budget is spent is not analysed; asking for its analysis is 429 until the budget has room, and then
    queues it."""
    clocks = budgets(account=5, address=100)
    player = guest_from(HOME)
    spent_on = practice_game(player)
    assert verdicts(player, spent_on, 3) == [200, 200, 200]
    game_id = practice_game(player)
    finish(player, game_id, django_capture_on_commit_callbacks)
    assert not GameAnalysis.objects.filter(game_id=game_id).exists()
    wait = assert_throttled(player.get(f"/api/games/{game_id}/analysis/"))
    clocks.move(wait + 1)
    with django_capture_on_commit_callbacks(execute=True):
        assert player.get(f"/api/games/{game_id}/analysis/").json()["status"] == "pending"  # queued, ran now
    assert player.get(f"/api/games/{game_id}/analysis/").json()["status"] == "ready"


def test_an_analysis_queued_before_the_budget_was_spent_waits_in_the_worker(budgets, player):
    """A worker that reaches a practice analysis (or a solve) after its payer has spent the budget does not
    run it: a queue full of one player's work cannot outrun the budget. Asking again queues it again."""
    budgets(account=5, address=100)
    game = game_services.game_start(player=player, number=0, rules="one-look")
    game_services.game_resign(game_id=game.pk, player=player)
    solver_budget.charge(SolverPayer(player.pk, HOME), 6)
    cache.set(f"analysis-queued:{game.pk}", True)
    assert analyse_game(game.pk, player.pk, HOME).startswith("deferred")
    assert not GameAnalysis.objects.filter(game=game).exists() and cache.get(f"analysis-queued:{game.pk}") is None
    pending = game_services.deal_get_or_create(number=1234, rules=ONE_LOOK)
    assert solve_deal(pending.pk, player.pk, HOME).startswith("deferred")
    assert Deal.objects.get(pk=pending.pk).status == Deal.Status.PENDING
    # the service's own work (no payer) is never refused
    assert solve_deal(pending.pk) != "pending"


def test_a_ranked_analysis_runs_whatever_the_budget_and_is_charged(budgets, django_capture_on_commit_callbacks):
    """Fair play reads every ranked game's analysis, so spending the budget must not dodge it: a ranked game's
    analysis always runs, and its player pays for it."""
    budgets(account=5, address=100)
    daily = make_daily()
    player = guest_from(HOME)
    assert verdicts(player, practice_game(player), 4) == [200, 200, 200, 429]  # spent
    game_id = player.post("/api/games/", {"daily": daily.pk}, format="json").json()["id"]
    assert player.post(f"/api/games/{game_id}/moves/", {"ply": 1, "move": "draw"}, format="json").status_code == 201
    finish(player, game_id, django_capture_on_commit_callbacks)
    assert GameAnalysis.objects.filter(game_id=game_id).exists()
    spent = solver_budget._window().estimates([f"ip:{HOME}"])[f"ip:{HOME}"]
    assert spent.current == 4 * STEP * 1000  # three verdicts and the analysis


def test_a_solve_request_is_charged_to_whoever_asked(budgets, settings):
    """Old hole: ``POST /api/deals/N/solve/`` for 60 new deals an hour queued 60 solves of up to 60 s each."""
    budgets(account=5, address=100)
    asker = guest_from(HOME)
    codes = [asker.post(f"/api/deals/{number}/solve/?rules=one-look").status_code for number in (11, 12, 13, 14)]
    assert codes == [202, 202, 202, 429]
    assert not Deal.objects.filter(number=14).exists()  # refused before anything was made or queued
    assert asker.post("/api/deals/11/solve/?rules=one-look").status_code == 202  # solved already: no work


def test_a_budget_of_zero_is_off(budgets):
    budgets(account=0, address=0)
    looper = guest_from(HOME)
    assert verdicts(looper, practice_game(looper), 8) == [200] * 8


def test_a_burst_at_a_windows_edge_gets_no_second_allowance(budgets):
    """A sliding window: spending the budget at the end of one window and again at the start of the next (which
    fixed windows allow, twice the budget in a moment) is refused."""
    clocks = budgets(account=5, address=100)
    clocks.wall = 600.0 * 3_000_001 - 5  # five seconds before a window ends
    looper = guest_from(HOME)
    game_id = practice_game(looper)
    assert verdicts(looper, game_id, 3) == [200, 200, 200]
    clocks.move(10)  # five seconds into the next window
    assert_throttled(verdict(looper, game_id))


def test_charges_from_many_threads_at_once_are_all_kept_in_redis(settings, clocks):
    """Two web processes see one budget: charges are atomic increments in the shared Redis, and charges made
    at once (here from eight threads) all count."""
    settings.CACHES = {
        "default": {
            "BACKEND": "pyramid_site.cache.ForgivingRedisCache",
            "LOCATION": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        }
    }
    settings.PYRAMID_SOLVER_SECONDS_PER_ACCOUNT = 1000
    payer = SolverPayer(10**12 + uuid.uuid4().int % 10**9, f"test-{uuid.uuid4().hex}")

    def charge_many():
        for _ in range(50):
            solver_budget.charge(payer, 0.007)

    threads = [threading.Thread(target=charge_many) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    counted = solver_budget._window().estimates([f"user:{payer.account_id}", f"ip:{payer.address}"])
    assert {ident: estimate.current for ident, estimate in counted.items()} == {
        f"user:{payer.account_id}": 8 * 50 * 7,
        f"ip:{payer.address}": 8 * 50 * 7,
    }
    settings.PYRAMID_SOLVER_SECONDS_PER_ACCOUNT = 2.8
    assert solver_budget.seconds_until_room(payer) > 0


def test_with_the_shared_cache_down_solver_requests_are_still_served(budgets, settings, player):
    """The counts are what can be lost: Redis down is a budget nobody has spent, never a 500."""
    budgets(account=1, address=1)
    settings.CACHES = {
        "default": {
            "BACKEND": "pyramid_site.cache.ForgivingRedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
    game = game_services.game_start(player=player, number=0, rules="one-look")
    assert [verdict(client_for(player), game.pk).status_code for _ in range(3)] == [200, 200, 200]


@pytest.mark.parametrize(
    "address, counted",
    [
        ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:bbbb::9", "2001:db8:1:2::/64"),
        ("::ffff:198.51.100.7", "198.51.100.7"),
        ("198.51.100.7", "198.51.100.7"),
    ],
)
def test_an_ipv6_client_is_counted_by_its_64_block(rf, address, counted):
    """One subscriber is given a whole /64: walking it must not give a fresh budget per address."""
    assert client_address(rf.get("/", REMOTE_ADDR=address)) == counted


@pytest.mark.django_db(transaction=True)
def test_searches_at_once_are_capped_per_account_and_per_address(budgets, settings, monkeypatch):
    """Old hole: three verdict loops of one guest held three web workers at once for as long as the budget
    lasted. A search inside a request takes one of the account's slots (1) and of the address's (2); with none
    free the request is 429 at once, and the slot is free again when the search ends."""
    budgets(account=100, address=100)
    settings.PYRAMID_SOLVER_AT_ONCE_PER_ACCOUNT, settings.PYRAMID_SOLVER_AT_ONCE_PER_ADDRESS = 1, 2
    from games.services import analysis

    real_solve, started, release = analysis.solve, threading.Semaphore(0), threading.Event()

    def held_solve(*args, **kwargs):
        started.release()
        release.wait(timeout=30)
        return real_solve(*args, **kwargs)

    monkeypatch.setattr(analysis, "solve", held_solve)
    first, second, third = guest_from(HOME), guest_from(HOME), guest_from(HOME)
    games = {client: practice_game(client) for client in (first, second, third)}
    answers = {}

    def ask(client) -> None:
        try:
            answers[client] = verdict(client, games[client]).status_code
        finally:
            connection.close()  # this thread's own: the test database is dropped at the end

    running = [threading.Thread(target=ask, args=(client,)) for client in (first, second)]
    for thread in running:
        thread.start()
        assert started.acquire(timeout=30)  # its search is running
    try:
        assert_throttled(verdict(first, games[first]))  # the account's one slot is held
        assert_throttled(verdict(third, games[third]))  # the address's two are
    finally:
        release.set()
        for thread in running:
            thread.join()
    assert answers == {first: 200, second: 200}
    assert verdict(third, games[third]).status_code == 200  # let go when the searches ended


def test_a_practice_game_of_a_new_deal_has_its_solve_charged_to_its_player(budgets):
    """Starting a practice game of a deal nobody solved queues its solve (a client polling the deal sees it
    solved), paid by the player: with the budget spent, the next new deal's solve waits for a request with room,
    and asking for it is 429."""
    budgets(account=1, address=0)
    player = client_for(UserFactory())
    assert player.post("/api/games/", {"number": 5, "rules": "one-look"}, format="json").status_code == 201
    assert Deal.objects.get(number=5, rules=ONE_LOOK.to_text()).status != Deal.Status.PENDING  # solved: STEP spent
    assert player.post("/api/games/", {"number": 6, "rules": "one-look"}, format="json").status_code == 201
    assert Deal.objects.get(number=6, rules=ONE_LOOK.to_text()).status == Deal.Status.PENDING  # its solve waits
    assert_throttled(player.post("/api/deals/6/solve/?rules=one-look"))
