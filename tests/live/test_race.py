"""A club's race from its lobby to its end, through the API with the clock moved: entrants set at the start, one
secret deal for all dealt at the same moment, progress told live as counts only, the standings by cards left then
time, and the end told once to entrants and spectators, when the deal becomes public and not before."""

from __future__ import annotations

import datetime as dt
import json
import re
from types import SimpleNamespace

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

import engine
from games import services as game_services
from games.models import Deal, Game
from leaderboards.clubs import services as clubs
from leaderboards.fair_play.models import Void
from leaderboards.models import Entry, Tournament, TournamentDeal
from leaderboards.tournaments import services
from leaderboards.tournaments.live import tournament_channel
from leaderboards.tournaments.services import tournaments
from pyramid_site.live.bus import bus
from tests.support import UserFactory, at_once, clock_at, winnable_deal

from .conftest import collect

# committed at once: what is published after commit is published in the test's own time
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("schema_conformance_check")]
MINUTE = dt.timedelta(minutes=1)
SECOND = dt.timedelta(seconds=1)
CARD = re.compile(r"\b(?:10|[A2-9TJQK])[CDHS♣♦♥♠]\b")


def api(user) -> APIClient:
    """A client of the user's own, from an address of their own: fair play's scouting rule would hold the results
    of games of one deal played from one address."""
    client = APIClient(REMOTE_ADDR=f"10.9.{user.pk // 250}.{user.pk % 250 + 1}")
    client.force_authenticate(user)
    return client


def events(tournament_id: int, kind: str | None = None) -> list[dict]:
    got = [d.event for d in collect(bus(), tournament_channel(tournament_id)) if d.event is not None]
    return [e for e in got if kind is None or e["type"] == kind]


@pytest.fixture
def club(users, monkeypatch):
    """A club of eight; the race's deal is fixed as the preparation job fixes it (the job is not run here)."""
    monkeypatch.setattr(tournaments, "settle_sequence", SimpleNamespace(delay=lambda *args: None))
    club = clubs.club_create(user=users[0], name="Race Club")
    for user in users[1:]:
        clubs.club_join(user=user, invite_code=club.invite_code)
    return club


def race_created(owner, club, *, starts_in=10 * MINUTE, lasts=60 * MINUTE) -> Tournament:
    now = timezone.now()
    body = {
        "name": "Sprint",
        "rules": "one-look",
        "format": "race",
        "starts_at": (now + starts_in).isoformat(),
        "ends_at": (now + starts_in + lasts).isoformat(),
    }
    made = api(owner).post(f"/api/clubs/{club.pk}/tournaments/", body, format="json")
    assert made.status_code == 201, made.json()
    assert (made.json()["format"], made.json()["deal_count"], made.json()["finished_at"]) == ("race", 1, None)
    race = Tournament.objects.get(pk=made.json()["id"])
    deal = winnable_deal()
    TournamentDeal.objects.create(tournament=race, index=0, deal=deal)
    game_services.deal_keep_secret(deal_id=deal.pk, until=race.ends_at)  # as the preparation job keeps it
    Tournament.objects.filter(pk=race.pk).update(status=Tournament.Status.READY)
    race.refresh_from_db()
    return race


def join(user, race) -> None:
    answer = api(user).post(f"/api/tournaments/{race.pk}/join/")
    assert answer.status_code == 201, answer.json()


def start(user, race) -> dict:
    answer = api(user).post(f"/api/tournaments/{race.pk}/games/", {}, format="json")
    assert answer.status_code == 201, answer.json()
    return answer.json()


def move(user, game_id: int, ply: int, notation: str) -> dict:
    answer = api(user).post(f"/api/games/{game_id}/moves/", {"ply": ply, "move": notation}, format="json")
    assert answer.status_code == 201, answer.json()
    return answer.json()


def resign(user, game_id: int) -> None:
    assert api(user).post(f"/api/games/{game_id}/resign/").status_code == 200


def leaks(text: str, deal: Deal) -> list[str]:
    """What of the deal an answer or event gives away: its number, or any card of its text."""
    found = [str(deal.number)] if str(deal.number) in text else []
    return found + [card for card in deal.text.split() if re.search(rf"(?<![\w]){re.escape(card)}(?![\w])", text)]


def test_create_a_race_refuses_what_a_race_cannot_be(users, club):
    now = timezone.now()
    body = {
        "name": "Sprint",
        "rules": "one-look",
        "format": "race",
        "starts_at": (now + MINUTE).isoformat(),
        "ends_at": (now + 60 * MINUTE).isoformat(),
    }
    owner = api(users[0])
    for extra, code in [
        ({"deal_count": 3}, "bad_deal_count"),
        ({"scoring": "par"}, "bad_scoring"),
        ({"source": "daily"}, "bad_source"),
        ({"format": "relay"}, "invalid"),
    ]:
        refused = owner.post(f"/api/clubs/{club.pk}/tournaments/", body | extra, format="json")
        assert refused.status_code == 400 and refused.json()["code"] == code, (extra, refused.json())
    assert not Tournament.objects.exists()
    made = owner.post(f"/api/clubs/{club.pk}/tournaments/", body | {"deal_count": 1}, format="json")
    assert made.status_code == 201 and made.json()["deal_count"] == 1


def test_a_race_of_three_from_the_lobby_to_the_finish(users, club, winning_line):
    owner, racers, late, spectator = users[0], users[1:4], users[4], users[5]
    race = race_created(owner, club)
    deal = race.deals.get().deal
    for racer in racers:
        join(racer, race)
    # (the race starts within the soon window: its ``soon`` went out at its creation)
    assert [e["type"] for e in events(race.pk) if e["type"] != "soon"] == ["joined", "standing"] * 3

    # the lobby: nothing of the deal anywhere, and no game before the start
    page = api(racers[0]).get(f"/api/tournaments/{race.pk}/")
    assert page.status_code == 200 and page.json()["me"]["deals"] == [{"index": 0, "game": None, "counted": False}]
    early = api(racers[0]).post(f"/api/tournaments/{race.pk}/games/", {}, format="json")
    assert early.status_code == 409 and early.json()["code"] == "not_started"
    reads = [
        api(racers[0]).get(f"/api/tournaments/{race.pk}/"),
        api(spectator).get(f"/api/tournaments/{race.pk}/standings/"),
        api(racers[0]).get("/api/games/"),
        api(spectator).get(f"/api/deals/{deal.number}/", {"rules": "one-look"}),
        api(spectator).post("/api/games/", {"number": deal.number, "rules": "one-look"}, format="json"),
    ]
    assert [r.status_code for r in reads] == [200, 200, 200, 404, 404]
    assert [leaks(r.content.decode(), deal) for r in reads[:3]] == [[]] * 3
    # the number asked for is echoed back to who asked for it, with nothing of the deal
    assert [r.json()["code"] for r in reads[3:]] == ["deal_not_found"] * 2
    assert [leaks(r.content.decode().replace(str(deal.number), ""), deal) for r in reads[3:]] == [[]] * 2

    # the start: entrants are set, everyone is dealt the same deal
    with clock_at(race.starts_at + SECOND):
        refused = api(late).post(f"/api/tournaments/{race.pk}/join/")
        assert refused.status_code == 409 and refused.json()["code"] == "race_started"
        games = [start(racer, race) for racer in racers]
        assert len({Game.objects.get(pk=g["id"]).deal_id for g in games}) == 1
        assert Game.objects.get(pk=games[0]["id"]).deal_id == deal.pk
        assert all(g["deal"]["number"] is None and g["mode"] == "ranked" for g in games)
        assert all(Game.objects.get(pk=g["id"]).started_at >= race.starts_at for g in games)
        again = api(racers[0]).post(f"/api/tournaments/{race.pk}/games/", {}, format="json")
        assert again.status_code == 409 and again.json()["code"] == "already_played"
    ids = [g["id"] for g in games]

    # the winner clears the pyramid after 20 seconds; the two others stop after ten moves, 30 and 50 seconds in
    with clock_at(race.starts_at + 20 * SECOND):
        for ply, notation in enumerate(winning_line, start=1):
            move(racers[0], ids[0], ply, notation)
    with clock_at(race.starts_at + 30 * SECOND):
        for ply, notation in enumerate(winning_line[:10], start=1):
            move(racers[1], ids[1], ply, notation)
            move(racers[2], ids[2], ply, notation)
        resign(racers[1], ids[1])
        # before the race is over for everyone: nobody but its player reads a game of it, its deal stays secret
        for reader, game_id in [(racers[1], ids[0]), (spectator, ids[0]), (racers[0], ids[2])]:
            assert api(reader).get(f"/api/games/{game_id}/").status_code == 404
        mine = api(racers[0]).get(f"/api/games/{ids[0]}/")
        assert mine.json()["deal"]["number"] is None
        assert api(spectator).get(f"/api/deals/{deal.number}/", {"rules": "one-look"}).status_code == 404
        assert not events(race.pk, "race_finished")
    with clock_at(race.starts_at + 50 * SECOND):
        resign(racers[2], ids[2])  # the last game: the race is over for everyone, and the clock runs on

        # progress as it was made: counts only, never a card nor the deal's number
        progress = events(race.pk, "race_progress")
        assert len(progress) == len(winning_line) + 2 * 10 + 2
        assert {tuple(sorted(e)) for e in progress} == {
            ("cards_left", "moves", "player", "seconds", "state", "tournament", "type", "version")
        }
        assert leaks(json.dumps(progress, ensure_ascii=False), deal) == []
        assert not CARD.search(json.dumps(progress, ensure_ascii=False))
        first_player = [e for e in progress if e["player"]["id"] == racers[0].pk]
        assert [e["moves"] for e in first_player] == list(range(1, len(winning_line) + 1))
        assert first_player[-1]["state"] == "cleared" and first_player[-1]["cards_left"] == 0
        assert [e["state"] for e in progress if e["player"]["id"] == racers[1].pk][-1] == "resigned"
        won = Game.objects.get(pk=ids[0])
        assert first_player[-1]["seconds"] == int((won.finished_at - race.starts_at).total_seconds() * 1000) / 1000
        assert first_player[-1]["seconds"] >= 20  # the race's clock, from its start: not the game's own

        # the end, told once: the standings by cards left then time, checked against the games themselves
        finished = events(race.pk, "race_finished")
        assert len(finished) == 1
        race.refresh_from_db()
        assert race.finished_at is not None and race.ends_at == race.finished_at
        assert race.finished_at >= Game.objects.get(pk=ids[2]).finished_at
        played = {g.player_id: g for g in Game.objects.filter(pk__in=ids)}
        expected = sorted(
            racers, key=lambda u: (played[u.pk].cards_left, (played[u.pk].finished_at - race.starts_at).total_seconds())
        )
        rows = finished[0]["standings"]
        assert [row["player"]["id"] for row in rows] == [u.pk for u in expected]
        assert [row["rank"] for row in rows] == [1, 2, 3]
        assert [row["cards_left"] for row in rows] == [played[u.pk].cards_left for u in expected]
        assert rows[1]["cards_left"] == rows[2]["cards_left"] and rows[1]["seconds"] < rows[2]["seconds"]
        standings = api(spectator).get(f"/api/tournaments/{race.pk}/standings/").json()
        assert standings["final"] is True and standings["tournament"]["finished_at"] is not None
        assert [r["player"]["id"] for r in standings["results"]] == [u.pk for u in expected]
        assert [r["seconds"] for r in standings["results"]] == [row["seconds"] for row in rows]
        assert [(c["ends_at"]["from"], c["changed_by"]) for c in standings["window_changes"]] != []

        # the winner's finish, now that the deal is public: the last eight moves and the cards each took
        finish = finished[0]["finish"]
        assert finish["game"] == ids[0] and finish["status"] == "won" and finish["cards_left"] == 0
        assert [m["move"] for m in finish["moves"]] == winning_line[-8:]
        assert [m["ply"] for m in finish["moves"]] == list(range(len(winning_line) - 7, len(winning_line) + 1))
        dealt = deal.text.split()
        for step in finish["moves"]:
            values = [engine.card_value(engine.parse_card(card)) for card in step["cards"]]
            assert set(step["cards"]) <= set(dealt)
            assert values == [] if step["move"] in ("draw", "redeal") else sum(values) == 13
            for location, card in zip(step["move"].split("+"), step["cards"], strict=False):
                if location.isdigit():  # a pyramid card: the deal text lays the pyramid out first, row by row
                    assert dealt[int(location)] == card
        # and anyone may read the games and the deal from now on
        opened = api(spectator).get(f"/api/games/{ids[0]}/")
        assert opened.status_code == 200 and opened.json()["deal"]["number_text"] == str(deal.number)
        assert api(spectator).get(f"/api/deals/{deal.number}/", {"rules": "one-look"}).status_code == 200
        late_start = api(racers[0]).post(f"/api/tournaments/{race.pk}/games/", {}, format="json")
        assert late_start.status_code == 409 and late_start.json()["code"] == "tournament_over"
        assert Entry.objects.get(tournament=race, player=racers[0]).duration_ms == rows[0]["seconds"] * 1000


def test_the_last_two_games_ending_at_once_end_the_race_once(users, club):
    race = race_created(users[0], club)
    racers = users[1:6]
    for racer in racers:
        join(racer, race)
    with clock_at(race.starts_at + SECOND):
        ids = [start(racer, race)["id"] for racer in racers]
        for racer, game_id in zip(racers[:3], ids[:3], strict=True):
            resign(racer, game_id)
        assert not events(race.pk, "race_finished")
        errors = at_once(
            *(
                (lambda racer=racer, game_id=game_id: game_services.game_resign(game_id=game_id, player=racer))
                for racer, game_id in zip(racers[3:], ids[3:], strict=True)
            )
        )
    assert errors == []
    assert len(events(race.pk, "race_finished")) == 1
    race.refresh_from_db()
    assert race.finished_at is not None
    assert services.race_end(tournament_id=race.pk) is None  # run again: nothing more told
    assert len(events(race.pk, "race_finished")) == 1


def test_at_its_end_a_race_closes_its_games_and_a_held_result_never_shows(users, club, winning_line):
    race = race_created(users[0], club)
    cheat, player, absent, slow = users[1], users[2], users[3], users[4]
    for racer in (cheat, player, absent, slow):
        join(racer, race)
    Void.objects.create(player=cheat, reason="tested")  # fair play holds the player's results off every board
    with clock_at(race.starts_at + SECOND):
        # all started before anyone finished: a game of the deal started after one from the same address had
        # finished would be held by fair play's scouting rule (the test's clients share one address)
        cheat_game, playing, _ = (start(racer, race)["id"] for racer in (cheat, player, slow))
        for ply, notation in enumerate(winning_line, start=1):
            move(cheat, cheat_game, ply, notation)
        move(player, playing, 1, winning_line[0])
    assert not events(race.pk, "race_finished")  # one still plays, one never started
    with clock_at(race.ends_at + SECOND):
        assert services.races_end_due() == 1
        assert services.races_end_due() == 0
    race.refresh_from_db()
    assert race.finished_at == race.ends_at
    assert set(Game.objects.filter(player__in=[player, slow]).values_list("status", flat=True)) == {"closed"}
    progress = events(race.pk, "race_progress")
    assert {(e["player"]["id"], e["state"]) for e in progress[-2:]} == {(player.pk, "closed"), (slow.pk, "closed")}
    (finished,) = events(race.pk, "race_finished")
    rows = finished["standings"]
    assert rows[0]["player"]["id"] == player.pk and rows[0]["games"] == 1
    held = next(row for row in rows if row["player"]["id"] == cheat.pk)
    assert held["games"] == 0 and held["cards_left"] > rows[0]["cards_left"]  # counted as never played
    assert finished["finish"]["game"] == playing and finished["finish"]["status"] == "closed"


def test_a_race_is_followed_by_its_entrants_and_members_only(users, club):
    race = race_created(users[0], club)
    outsider = UserFactory()
    refused = api(outsider).get(f"/api/tournaments/{race.pk}/standings/")
    assert refused.status_code == 403 and refused.json()["code"] == "not_member"
    assert api(users[5]).get(f"/api/tournaments/{race.pk}/standings/").status_code == 200
