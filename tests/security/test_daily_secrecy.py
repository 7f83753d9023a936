"""Ranked play keeps its secrets: the stock order, the deal of today and of every day to come; the
commitment published before the day checks out against the salt revealed after it."""

import datetime as dt
import hashlib
import json
import subprocess

import pytest
from django.utils import timezone

import engine
from games import services
from games.daily import commitment
from games.models import Deal, Game
from games.services.sequences import candidate_number
from leaderboards.clubs import services as leaderboard_services
from leaderboards.models import Result, TournamentDeal
from leaderboards.tournaments import services as tournament_services
from pyramid_site.clock import day_end, utc_today
from tests.support import WINNABLE_ONE_LOOK, client_for, clock_at, daily_game, logged, make_daily, winnable_deal

pytestmark = pytest.mark.django_db
DAY = dt.timedelta(days=1)
HOUR = dt.timedelta(hours=1)


@pytest.fixture
def today() -> dt.date:
    """Today (UTC), when the test runs: a run may cross midnight."""
    return utc_today()


def daily_number(secret: str, date: dt.date, preset: str, attempt: int) -> int:
    return candidate_number(secret=secret, purpose="daily", key=f"{date.isoformat()}|{preset}", attempt=attempt)


def face_down_stock(deal_text: str, shown: int = 29) -> set[str]:
    """The one-look deal's stock below its face-up top card (28 pyramid cards, then the stock)."""
    return set(deal_text.split()[shown:])


def quoted_cards(body) -> set[str]:
    text = json.dumps(body)
    return {card for card in engine.deal_from_number(WINNABLE_ONE_LOOK).text.split() if f'"{card}"' in text}


def test_no_answer_shows_the_face_down_stock(users, winning_line):
    daily = make_daily()
    api = client_for(users[0])
    started = api.post("/api/games/", {"daily": daily.pk}, format="json").json()
    assert not quoted_cards(started) & face_down_stock(daily.deal.text)
    assert started["position"]["stock"]["count"] == 24 and started["deal"]["number"] is None
    deal, rules = engine.parse_deal(daily.deal.text), engine.preset("one-look")
    for ply, move in enumerate(winning_line[:12], start=1):
        body = api.post(f"/api/games/{started['id']}/moves/", {"ply": ply, "move": move}, format="json").json()
        position = engine.replay(deal, rules, winning_line[:ply]).position
        # no card the player could not see at the table: only what the engine's player view shows
        assert quoted_cards(body) <= quoted_cards(engine.player_view(position))
        assert body["deal"]["number"] is None
    for answer in (
        api.get(f"/api/games/{started['id']}/"),
        api.get("/api/daily/"),
        api.get(f"/api/daily/{daily.date}/"),
        api.get(f"/api/daily/{daily.date}/one-look/verify/"),
        api.get(f"/api/games/{started['id']}/log/"),
    ):
        assert answer.status_code == 200
        assert daily.deal.text not in answer.content.decode() and str(daily.deal.number) not in answer.content.decode()


def test_future_days_show_only_their_commitment(users, today):
    api = client_for(users[0])
    for offset in (1, 2, 6):
        daily = make_daily(date=today + offset * DAY)
        listed = api.get(f"/api/daily/{daily.date}/").json()
        assert listed["count"] == 1
        assert listed["results"] == [
            {"form": "commitment", "date": daily.date.isoformat(), "preset": "one-look", "commitment": daily.commitment}
        ]
        verify = api.get(f"/api/daily/{daily.date}/one-look/verify/").json()
        assert verify["revealed"] is False and verify["commitment"] == daily.commitment
        assert not {"salt", "number", "deal_text"} & verify.keys()
        # neither playable nor fetchable as a practice deal, by its id or by its number
        assert api.post("/api/games/", {"daily": daily.pk}, format="json").json()["code"] == "daily_not_found"
        by_number = api.get(f"/api/deals/{daily.deal.number}/?rules=one-look")
        assert by_number.status_code == 404 and by_number.json()["code"] == "deal_not_found"
        assert not Game.objects.filter(deal=daily.deal).exists()
        Game.objects.all().delete()
        daily.delete()


def test_a_ranked_game_cannot_pick_its_deal_or_its_clock(users):
    daily = make_daily()
    api = client_for(users[0])
    mixed = api.post("/api/games/", {"daily": daily.pk, "number": 5}, format="json")
    assert mixed.status_code == 400 and not Game.objects.exists()
    game = api.post("/api/games/", {"daily": daily.pk, "rules": "relaxed"}, format="json")
    assert game.status_code == 400
    game = api.post("/api/games/", {"daily": daily.pk, "started_at": "2000-01-01T00:00:00Z"}, format="json").json()
    assert Game.objects.get(pk=game["id"]).started_at.date() == daily.date
    moved = api.post(
        f"/api/games/{game['id']}/moves/",
        {"ply": 1, "move": "draw", "created_at": "2000-01-01T00:00:00Z", "duration_ms": 1},
        format="json",
    )
    assert moved.status_code == 201 and logged(Game.objects.get())[0].created_at.date() == daily.date
    api.post(f"/api/games/{game['id']}/resign/", {"finished_at": "2000-01-01T00:00:00Z"}, format="json")
    result = Result.objects.get()
    stored = Game.objects.get(pk=game["id"])
    assert result.duration_ms == int((stored.finished_at - stored.started_at).total_seconds() * 1000)


def test_the_number_of_a_day_cannot_be_guessed_without_the_secret(settings, today):
    """The derivation is public; the secret is not. Guesses with a wrong secret, the public Django key,
    the tournaments' secret, a nearby day or attempt, or no secret at all, all miss the real number."""
    real = daily_number(settings.PYRAMID_DAILY_SECRET, today + DAY, "one-look", 0)
    guesses = {
        daily_number(secret, today + DAY, "one-look", 0)
        for secret in (
            "",
            "pyramid",
            "pyramid-test-secre",
            settings.SECRET_KEY,
            "PYRAMID-TEST-SECRET",
            settings.PYRAMID_TOURNAMENT_SECRET,
        )
    }
    guesses |= {
        daily_number(settings.PYRAMID_DAILY_SECRET, today + DAY * k, "one-look", a) for k in (0, 2) for a in (0, 1)
    }
    guesses |= {daily_number(settings.PYRAMID_DAILY_SECRET, today + DAY, "classic", 0)}
    assert real not in guesses and len(guesses) == 11


def test_the_commitment_gives_nothing_away(users, today):
    """Without the salt even the true deal text does not match its commitment, so a reader cannot
    test candidate deals against it; each day's salt is fresh, 128 random bits."""
    tomorrow, after = make_daily(date=today + DAY), make_daily(date=today + 2 * DAY)
    text = tomorrow.deal.text
    assert tomorrow.commitment not in {
        hashlib.sha256(text.encode()).hexdigest(),
        commitment(text, ""),
        commitment(str(tomorrow.deal.number), ""),
    }
    # the same deal on two days: two unrelated commitments
    assert tomorrow.deal == after.deal and tomorrow.commitment != after.commitment
    assert len(tomorrow.salt) == 32 and int(tomorrow.salt, 16) >= 0 and tomorrow.salt != after.salt


def test_after_the_day_anyone_checks_the_commitment_in_one_line(users, winning_line, today):
    yesterday = make_daily(date=today - DAY)
    game = daily_game(users[0], yesterday)
    anonymous = client_for(None)
    body = anonymous.get(f"/api/daily/{yesterday.date}/one-look/verify/").json()
    assert body["revealed"] is True and body["salt"] == yesterday.salt and body["number"] == WINNABLE_ONE_LOOK
    assert body["commitment_matches"] is True and body["number_gives_text"] is True
    # the documented check, run by a shell, gives the commitment published before the day
    digest = subprocess.run(["sh", "-c", body["check"]], capture_output=True, text=True, check=True).stdout.split()[0]
    assert digest == body["commitment"] == yesterday.commitment
    # and the deal played is that deal: its log replays from the revealed text to the stored result
    log = client_for(users[1]).get(f"/api/games/{game.pk}/log/")  # another player, after the day
    assert log.status_code == 200
    replayed = engine.replay(engine.parse_deal(body["deal_text"]), engine.preset("one-look"), log.json()["log"])
    assert replayed.ok and replayed.position.status == "won" == game.status


def test_verify_refusals(today):
    api = client_for(None)
    assert api.get("/api/daily/2030-02-30/one-look/verify/").json()["code"] == "bad_date"
    assert api.get(f"/api/daily/{today}/no-such/verify/").json()["code"] == "daily_not_found"


RULE_SETS = ["one-look", "classic", "relaxed", "strict", "classic;passes=unlimited", "one-look;draw=3;stock_top=hidden"]


def test_tomorrows_deal_number_is_secret_under_every_rule_set(users, today):
    """Old hole: ``GET /api/deals/N?rules=relaxed`` answered tomorrow's one-look deal (the number alone
    gives every card, the face-down stock included), and a practice game of it could start, to be
    rehearsed before the day. Now the number is secret under every rule set until its day is over."""
    tomorrow = make_daily(date=today + DAY)
    number, api = tomorrow.deal.number, client_for(users[0])
    for rules in RULE_SETS:
        answers = {
            "read": api.get(f"/api/deals/{number}?rules={rules}"),
            "solve": api.post(f"/api/deals/{number}/solve/?rules={rules}"),
            "play": api.post("/api/games/", {"number": number, "rules": rules}, format="json"),
        }
        codes = {name: (a.status_code, a.json()["code"]) for name, a in answers.items()}
        assert codes == dict.fromkeys(answers, (404, "deal_not_found")), rules
        assert not any(tomorrow.deal.text in a.content.decode() for a in answers.values())
    assert not Game.objects.exists() and Deal.objects.filter(number=number).count() == 1
    with clock_at(day_end(tomorrow.date) + dt.timedelta(seconds=1)):  # its day is over: a practice deal like any
        assert api.get(f"/api/deals/{number}?rules=relaxed").json()["text"] == tomorrow.deal.text
        assert api.post("/api/games/", {"number": number, "rules": "relaxed"}, format="json").status_code == 201


def test_a_tournament_deal_is_secret_until_the_tournament_ends(users):
    """The same for a tournament's deals (old: only a current daily deal was kept back, and only under its
    own rules): secret under every rule set until the tournament's end."""
    club = leaderboard_services.club_create(user=users[0], name="Secret Club")
    now = timezone.now()
    cup = tournament_services.tournament_create(
        actor=users[0],
        club_id=club.pk,
        name="Cup",
        rules="one-look",
        format="match",
        starts_at=now - HOUR,
        ends_at=now + HOUR,
        deal_count=1,
    )
    deal = winnable_deal()
    TournamentDeal.objects.create(tournament=cup, index=0, deal=deal)
    services.deal_keep_secret(deal_id=deal.pk, until=cup.ends_at)  # as the preparation job does
    api = client_for(users[1])
    for rules in RULE_SETS:
        assert api.get(f"/api/deals/{deal.number}?rules={rules}").json()["code"] == "deal_not_found", rules
        assert (
            api.post("/api/games/", {"number": deal.number, "rules": rules}, format="json").json()["code"]
            == "deal_not_found"
        ), rules
    with clock_at(cup.ends_at + dt.timedelta(seconds=1)):
        assert api.get(f"/api/deals/{deal.number}?rules=classic").status_code == 200


def test_a_random_practice_deal_is_never_a_secret_one(users, today, monkeypatch):
    tomorrow = make_daily(date=today + DAY)
    drawn = iter([tomorrow.deal.number, tomorrow.deal.number, 424242])
    monkeypatch.setattr("games.services.play.secrets.randbelow", lambda bound: next(drawn))
    game = client_for(users[0]).post("/api/games/", {"rules": "relaxed"}, format="json").json()
    assert game["deal"]["number"] == 424242
