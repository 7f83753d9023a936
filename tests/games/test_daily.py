"""Daily deals: keyed deal numbers, commitments, the jobs that prove them, and what the API reveals."""

import datetime as dt
import threading

import pytest
from django.core.management import call_command
from django.db import connection, connections

import engine
from engine.solver import Solution, solve
from games import services
from games.daily import commitment
from games.models import DailyDeal, Deal
from games.services.sequences import candidate_number
from games.tasks import prepare_daily_deals, settle_sequence
from pyramid_site.clock import utc_today
from tests.support import PAR, WINNABLE_ONE_LOOK, WINNING_LINE, client_for, make_daily

# Under the test secret the one-look candidates of this day are: attempt 0 unwinnable, attempt 1
# winnable; the solver proves both in a few seconds (found by searching days; the tests prove it again).
DAY = dt.date(2030, 4, 29)
WINNING_ATTEMPT = 1


@pytest.fixture
def day_to_prove(settings):
    settings.PYRAMID_SOLVE_BUDGET_SECONDS = 60
    return DAY


def daily_number(secret: str, date: dt.date, preset: str, attempt: int) -> int:
    """The candidate deal numbers of a day's daily deal (what was ``games.daily.daily_number``)."""
    return candidate_number(secret=secret, purpose="daily", key=f"{date.isoformat()}|{preset}", attempt=attempt)


def test_candidate_numbers_are_the_documented_hmac():
    """Worked outside Python, by the formula of docs/games.md ("Deal numbers and daily deals") and
    ``games.services.sequences`` (the first 8 bytes of HMAC-SHA256, big-endian), e.g.:
    printf '%s' 'pyramid-daily|2030-04-29|classic|0' | openssl dgst -sha256 -hmac s   ->  8911fd8abda8ce0a...
    The daily numbers are the ones the daily deals had before the sequences were shared with tournaments."""
    assert daily_number("s", DAY, "classic", 0) == 0x8911FD8ABDA8CE0A == 9876954230129479178
    assert daily_number("s", DAY, "one-look", 1) == 0x539E0323074E7D91
    assert candidate_number(secret="s", purpose="tournament", key="17|0", attempt=0) == 0xCE976B6D08DB00D0


def test_daily_numbers_are_keyed_by_the_secret():
    number = daily_number("s", DAY, "classic", 0)
    assert number == daily_number("s", DAY, "classic", 0) and 0 <= number < 2**64
    others = {
        daily_number("t", DAY, "classic", 0),
        daily_number("s", DAY + dt.timedelta(days=1), "classic", 0),
        daily_number("s", DAY, "strict", 0),
        daily_number("s", DAY, "classic", 1),
        candidate_number(secret="s", purpose="tournament", key=f"{DAY.isoformat()}|classic", attempt=0),
    }
    assert number not in others and len(others) == 5


def test_commitment_is_sha256_of_text_and_salt():
    # worked outside Python: printf '%s' '7H 6S KD|abc' | sha256sum
    assert commitment("7H 6S KD", "abc") == "7a7b64c87b23754b4aecbe5e381a9031e7200ececbde3ba08d77e6881d4d90cb"
    assert commitment("7H 6S KD", "abd") == "4be8511f91ae2f3efc3c7c0275c19daa7d3c556d5f6b1335b62aeea7e622b0a7"


def test_the_known_winnable_deal_is_what_the_fixtures_say(winning_line):
    """tests/support.py stores WINNABLE_ONE_LOOK as the solver job would: winnable, par PAR. The solver
    agrees, and the fixtures' line (proved by the engine) wins in par."""
    deal, rules = engine.deal_from_number(WINNABLE_ONE_LOOK), engine.preset("one-look")
    solution = solve(engine.Position.start(deal, rules), max_nodes=1_000_000)
    assert solution.verdict == "winnable" and solution.par_moves == PAR
    assert engine.replay(deal, rules, solution.solution).position.status == "won"
    assert winning_line == WINNING_LINE and len(WINNING_LINE) == PAR


@pytest.mark.django_db
def test_candidates_the_solver_cannot_prove_are_skipped(settings, monkeypatch):
    # a solver whose budget always runs out: the compiled core settles some classic deals within any budget
    # small enough to stand for "too small", so a real one cannot stand in here
    budgets = []

    def out_of_budget(position, *, budget_seconds):
        budgets.append(budget_seconds)
        return Solution(
            verdict="unknown", par_moves=None, best_cards_left=None, best_moves=None, seconds=budget_seconds
        )

    monkeypatch.setattr("games.services.deals.solve", out_of_budget)
    settings.PYRAMID_SOLVE_BUDGET_SECONDS = 0.01
    settings.PYRAMID_DAILY_MAX_ATTEMPTS = 3
    settle_sequence.delay("daily", f"{DAY.isoformat()}|classic")
    numbers = [daily_number(settings.PYRAMID_DAILY_SECRET, DAY, "classic", a) for a in range(3)]
    deals = {d.number: d.status for d in Deal.objects.all()}
    assert deals == dict.fromkeys(numbers, "unknown")
    assert not DailyDeal.objects.exists()
    # run again: nothing new, still no daily deal
    settle_sequence.delay("daily", f"{DAY.isoformat()}|classic")
    assert Deal.objects.count() == 3 and not DailyDeal.objects.exists()
    assert budgets == [0.01] * 3


@pytest.mark.django_db
def test_the_first_candidate_proved_winnable_becomes_the_daily_deal(settings, day_to_prove):
    # a worker died while solving the next candidate: its row is left pending, and is taken up again
    number = daily_number(settings.PYRAMID_DAILY_SECRET, DAY, "one-look", WINNING_ATTEMPT)
    assert services.deal_get_or_create(number=number, rules=engine.preset("one-look")).status == "pending"
    settle_sequence.delay("daily", f"{DAY.isoformat()}|one-look")
    daily = DailyDeal.objects.get(date=DAY, preset="one-look")
    assert daily.attempt == WINNING_ATTEMPT
    assert daily.deal.number == daily_number(settings.PYRAMID_DAILY_SECRET, DAY, "one-look", WINNING_ATTEMPT)
    assert daily.deal.status == "winnable" and daily.deal.par_moves == len(daily.deal.solution.split())
    replayed = engine.replay(engine.parse_deal(daily.deal.text), engine.preset("one-look"), daily.deal.solution)
    assert replayed.ok and replayed.position.status == "won"
    assert daily.commitment == commitment(daily.deal.text, daily.salt)
    refused = Deal.objects.exclude(pk=daily.deal.pk)
    assert [d.status for d in refused] == ["unwinnable"] * WINNING_ATTEMPT
    # run again, and through the operators' command: still exactly this one
    settle_sequence.delay("daily", f"{DAY.isoformat()}|one-look")
    call_command("prepare_daily_deals", "--days", "1", "--preset", "one-look", "--from", DAY.isoformat())
    assert list(DailyDeal.objects.values_list("pk", flat=True)) == [daily.pk]


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL")
def test_two_workers_at_once_leave_one_daily_deal(settings, day_to_prove):
    barrier = threading.Barrier(3)
    found = []

    def run():
        try:
            barrier.wait()
            found.append(services.daily_deal_settle(date=DAY, preset="one-look").pk)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(found) == 3 and len(set(found)) == 1
    assert DailyDeal.objects.count() == 1
    assert Deal.objects.count() == WINNING_ATTEMPT + 1


@pytest.mark.django_db
def test_beat_job_fills_the_open_days(settings):
    settings.PYRAMID_SOLVE_BUDGET_SECONDS = 0.01
    settings.PYRAMID_DAILY_MAX_ATTEMPTS = 1
    settings.PYRAMID_DAILY_DAYS_AHEAD = 3
    settings.PYRAMID_DAILY_PRESETS = ["classic", "strict"]
    today = utc_today()
    make_daily(date=today, preset="classic")  # today's classic deal is ready already
    assert prepare_daily_deals.delay().get() == 5
    expected = {
        daily_number(settings.PYRAMID_DAILY_SECRET, today + dt.timedelta(days=d), p, 0)
        for d in range(3)
        for p in ("classic", "strict")
        if (d, p) != (0, "classic")
    }
    assert expected <= {int(n) for n in Deal.objects.values_list("number", flat=True)}


@pytest.mark.django_db
def test_daily_api_reveals_a_deal_only_in_its_time(player, settings):
    today = utc_today()
    todays = make_daily(date=today)
    past = make_daily(date=today - dt.timedelta(days=1), number=21)
    future = make_daily(date=today + dt.timedelta(days=1), number=22)
    client = client_for(player)

    body = client.get("/api/daily/").json()
    assert body["count"] == 1 and body["next"] is None and body["previous"] is None
    listed = body["results"]
    assert [d["id"] for d in listed] == [todays.pk]
    assert listed[0]["deal"] is None and listed[0]["salt"] is None and listed[0]["my_game"] is None
    assert listed[0]["commitment"] == todays.commitment and listed[0]["preset"] == "one-look"
    game = client.post("/api/games/", {"daily": todays.pk}, format="json").json()
    assert client.get("/api/daily/").json()["results"][0]["my_game"]["id"] == game["id"]

    revealed = client.get(f"/api/daily/{past.date.isoformat()}/").json()["results"][0]
    assert revealed["deal"]["text"] == engine.deal_from_number(21).text and revealed["deal"]["number"] == 21
    assert commitment(revealed["deal"]["text"], revealed["salt"]) == revealed["commitment"]

    ahead = client_for(None).get(f"/api/daily/{future.date.isoformat()}/").json()
    assert ahead["count"] == 1
    assert ahead["results"] == [
        {"form": "commitment", "date": future.date.isoformat(), "preset": "one-look", "commitment": future.commitment}
    ]

    bad = client.get("/api/daily/tomorrow/")
    assert bad.status_code == 400 and bad.json()["code"] == "bad_date"


@pytest.mark.django_db
def test_show_and_solve_commands(capsys):
    call_command("solve_deal", "0", "--rules", "one-look")
    call_command("show_deal", "0", "--rules", "one-look")
    out = capsys.readouterr().out
    assert "unwinnable" in out and "deal #0 one-look" in out
