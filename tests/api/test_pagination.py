"""Every list of the API comes in pages the same way: ``?limit=&offset=`` in, ``{"count", "next",
"previous", "results"}`` out, with links to the neighbouring pages; a limit or offset out of range is a
400 ``bad_parameter``, never a silent default."""

import datetime as dt
from types import SimpleNamespace

import pytest
from django.utils import timezone

from leaderboards.clubs import services
from leaderboards.fair_play.models import Flag
from leaderboards.fair_play.services import game_void
from leaderboards.tournaments import services as tournament_services
from pyramid_site.operations.services import task_failure_record
from tests.support import client_for, daily_game, make_daily

pytestmark = pytest.mark.django_db


@pytest.fixture
def five_clubs(users):
    """Five public clubs, listed by name: A to E."""
    return [services.club_create(user=users[i], name=f"Club {name}") for i, name in enumerate("CAEBD")]


def names(body) -> list[str]:
    return [club["name"] for club in body["results"]]


def test_a_list_pages_with_links_to_its_neighbours(player, five_clubs):
    api = client_for(player)
    first = api.get("/api/clubs/?limit=2").json()
    assert first["count"] == 5 and names(first) == ["Club A", "Club B"]
    assert first["previous"] is None and first["next"].endswith("/api/clubs/?limit=2&offset=2")
    second = api.get(first["next"]).json()
    assert second["count"] == 5 and names(second) == ["Club C", "Club D"]
    assert second["previous"].endswith("/api/clubs/?limit=2")
    assert second["next"].endswith("/api/clubs/?limit=2&offset=4")
    last = api.get(second["next"]).json()
    assert names(last) == ["Club E"] and last["next"] is None
    assert names(api.get(last["previous"]).json()) == ["Club C", "Club D"]
    # past the end: an empty page, still counted
    beyond = api.get("/api/clubs/?limit=2&offset=40").json()
    assert beyond["count"] == 5 and beyond["results"] == [] and beyond["next"] is None
    # no parameters: the default page holds them all, with no links
    whole = api.get("/api/clubs/").json()
    assert names(whole) == [f"Club {n}" for n in "ABCDE"] and whole["next"] is None and whole["previous"] is None


@pytest.mark.parametrize("query", ["limit=0", "limit=-1", "limit=201", "limit=x", "limit=1.5", "offset=-1", "offset=y"])
def test_a_limit_or_offset_out_of_range_is_400(player, five_clubs, query):
    response = client_for(player).get(f"/api/clubs/?{query}")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "bad_parameter" and query.split("=")[0] in body["message"]


@pytest.fixture
def lists(users, staff, winning_line):
    """Something in every list the API pages: a daily deal with two results (one of them voided, and
    flagged), a club with a tournament that a member joined, a failed task."""
    club = services.club_create(user=users[0], name="Paged")
    daily = make_daily()
    daily_game(users[0], daily, 4)
    voided = daily_game(users[1], daily, 6)
    game_void(game_id=voided.pk, reason="paging", by=staff)
    Flag.objects.create(game=voided, kind=Flag.Kind.SUSPICIOUS, detail="for the list")
    task_failure_record(
        task_name="games.tasks.solve_deal",
        task_id="for-the-list",
        kind="error",
        args="(1,)",
        kwargs="{}",
        exception_type="ValueError",
        exception_message="for the list",
        traceback="",
        retries=0,
        worker="celery@here",
    )
    now = timezone.now()
    cup = tournament_services.tournament_create(
        actor=users[0],
        club_id=club.pk,
        name="Cup",
        rules="one-look",
        format="match",
        starts_at=now - dt.timedelta(hours=1),
        ends_at=now + dt.timedelta(hours=1),
    )
    tournament_services.tournament_join(user=users[0], tournament_id=cup.pk)
    return {"club": club, "daily": daily, "cup": cup}


@pytest.mark.parametrize(
    "url, query",
    [
        ("/api/daily/", {}),
        ("/api/daily/{date}/", {}),
        ("/api/clubs/", {}),
        ("/api/clubs/{club}/members/", {}),
        ("/api/clubs/{club}/tournaments/", {}),
        ("/api/fair-play/voids/", {}),
        ("/api/fair-play/flags/", {}),
        ("/api/operations/task-failures/", {}),
        ("/api/boards/weekly/", {"preset": "one-look"}),
        ("/api/boards/all-time/", {"preset": "one-look"}),
        ("/api/tournaments/{cup}/standings/", {}),
        ("/api/games/", {}),
    ],
)
def test_every_list_endpoint_pages_the_same_way(users, staff, lists, url, query):
    url = url.format(date=lists["daily"].date.isoformat(), club=lists["club"].pk, cup=lists["cup"].pk)
    api = client_for(staff if url.startswith(("/api/fair-play/", "/api/operations/")) else users[0])
    page = api.get(url, query)
    assert page.status_code == 200, page.json()
    body = page.json()
    assert {"count", "next", "previous", "results"} <= body.keys() and isinstance(body["results"], list)
    assert body["count"] >= 1 and len(body["results"]) == body["count"]  # fewer than a page's worth
    one = api.get(url, query | {"limit": 1}).json()
    assert one["count"] == body["count"] and one["results"] == body["results"][:1] and one["previous"] is None
    assert (one["next"] is None) == (body["count"] == 1)
    refused = api.get(url, query | {"limit": 0})
    assert refused.status_code == 400 and refused.json()["code"] == "bad_parameter"


def test_the_standings_take_up_to_a_thousand_rows_a_page(users, lists):
    api = client_for(users[0])
    url = f"/api/tournaments/{lists['cup'].pk}/standings/"
    assert api.get(url, {"limit": 1000}).status_code == 200
    assert api.get(url, {"limit": 1001}).json()["code"] == "bad_parameter"
    assert api.get("/api/clubs/", {"limit": 1000}).json()["code"] == "bad_parameter"  # other lists stop at 200


def test_the_daily_board_is_not_paged(users, lists):
    daily = lists["daily"]
    body = client_for(users[1]).get(f"/api/boards/daily/{daily.date}/{daily.preset}/").json()
    assert {"top", "me", "around"} <= body.keys() and "results" not in body


# --- lists that grow at the front: paged by cursor ---------------------------------------------------------------


def practice_games(player, count: int) -> list[int]:
    """``count`` practice games of the player's, started one after another: their ids, the latest first."""
    from games import services as game_services

    return [game_services.game_start(player=player, number=1000 + n, rules="classic").pk for n in range(count)][::-1]


def ids(body) -> list[int]:
    return [row["id"] for row in body["results"]]


def test_a_list_growing_at_the_front_pages_by_cursor_without_a_duplicate_or_a_gap(player):
    from django.db import connection

    assert connection.vendor == "postgresql"  # the order of rows started within a moment is PostgreSQL's here
    api = client_for(player)
    before = practice_games(player, 5)
    first = api.get("/api/games/?limit=2").json()
    assert ids(first) == before[:2] and first["count"] == 5 and first["previous"] is None
    assert "cursor=" in first["next"] and "offset" not in first["next"]
    offset_first = api.get("/api/games/?limit=2&offset=0").json()
    newer = practice_games(player, 2)  # two games started between the page reads, at the front
    seen, page = ids(first), first
    while page["next"]:
        page = api.get(page["next"]).json()
        seen += ids(page)
    assert seen == before  # every game there at the first read, once each, in order; the newer ones not shifted in
    assert page["count"] == 7
    # the same reads by offset: the second page starts two rows back, and shows the first page's games again
    offset_second = api.get("/api/games/?limit=2&offset=2").json()
    assert ids(offset_first) == before[:2] and ids(offset_second) == before[:2]
    # the newer games are at the front of the list read again from its start
    assert ids(api.get("/api/games/?limit=2").json()) == newer


def test_previous_goes_back_a_page_and_next_from_there_forwards_again(player):
    api = client_for(player)
    games = practice_games(player, 5)
    first = api.get("/api/games/?limit=2").json()
    second = api.get(first["next"]).json()
    third = api.get(second["next"]).json()
    assert ids(second) == games[2:4] and ids(third) == games[4:] and third["next"] is None
    back = api.get(third["previous"]).json()
    assert ids(back) == games[2:4] and ids(api.get(back["previous"]).json()) == games[:2]
    assert ids(api.get(back["next"]).json()) == games[4:]
    start = api.get(api.get(back["previous"]).json()["previous"] or "/api/games/?limit=2").json()
    assert ids(start) == games[:2]


def test_offset_pages_still_answer_with_a_deprecation_header(player):
    api = client_for(player)
    games = practice_games(player, 3)
    answer = api.get("/api/games/?limit=1&offset=1")
    assert answer.status_code == 200 and ids(answer.json()) == games[1:2] and answer.json()["count"] == 3
    assert answer["Deprecation"].startswith("@") and 'rel="deprecation"' in answer["Link"]
    assert answer.json()["next"].endswith("limit=1&offset=2")  # its links page by offset as before
    assert "Deprecation" not in api.get("/api/games/?limit=1")
    assert "Deprecation" not in api.get("/api/clubs/?offset=0")  # a list that stays put keeps its offset


@pytest.mark.parametrize("cursor", ["x", "bm90IGEgY3Vyc29y", "eyJwIjpbMV19:bad:sig"])
def test_a_cursor_this_list_did_not_give_is_400(player, cursor):
    answer = client_for(player).get("/api/games/", {"cursor": cursor})
    assert answer.status_code == 400 and answer.json()["code"] == "bad_parameter"
    assert "cursor" in answer.json()["message"]


def test_a_cursor_of_another_list_or_with_an_offset_is_400(player, other_player, staff):
    practice_games(player, 3)
    practice_games(other_player, 1)
    mine = client_for(player).get("/api/games/?limit=1").json()
    cursor = mine["next"].split("cursor=")[1]
    refused = client_for(staff).get("/api/fair-play/voids/", {"cursor": cursor})
    assert refused.status_code == 400 and refused.json()["code"] == "bad_parameter"
    both = client_for(player).get("/api/games/", {"cursor": cursor, "offset": 1})
    assert both.status_code == 400 and both.json()["code"] == "bad_parameter"


@pytest.mark.rows_edited_behind_the_services
def running_cup(users, *, club_name: str, starts_in: dt.timedelta = -dt.timedelta(hours=1), **options):
    """A one-look tournament running for the next hour in a club of all ``users`` (``options``: its format and
    scoring; a race, which takes entrants until its start, starts ``starts_in`` from now)."""
    club = services.club_create(user=users[0], name=club_name)
    for user in users[1:]:
        services.club_join(user=user, invite_code=club.invite_code)
    now = timezone.now()
    return tournament_services.tournament_create(
        actor=users[0],
        club_id=club.pk,
        name="Cup",
        rules="one-look",
        starts_at=now + starts_in,
        ends_at=now + dt.timedelta(hours=1),
        **options,
    )


@pytest.mark.parametrize("format", ["match", "arena", "race"])
def test_standings_by_cursor_rank_as_the_whole_table_does(users, format, monkeypatch):
    """Ties across a page's edge share their rank; every page's ranks are those of SQL's RANK over the whole
    table, worked out here again from the rows."""
    from leaderboards.models import Entry
    from leaderboards.tournaments.services import tournaments

    race = format == "race"
    if race:  # its one deal is not needed here: the solver's jobs are not run
        monkeypatch.setattr(tournaments, "settle_sequence", SimpleNamespace(delay=lambda *args: None))
    cup = running_cup(
        users, club_name="Ranked", format=format, **({"starts_in": dt.timedelta(minutes=5)} if race else {})
    )
    # standings with ties: (score, games, cards_left, seconds) per player (a race scores nothing: its score is 0)
    figures = [(3, 2, 10, 5), (5, 1, 4, 3), (3, 2, 10, 5), (3, 2, 10, 7), (0, 0, 52, 0), (5, 1, 4, 3), (3, 2, 7, 1)]
    figures.append((0, 0, 10, 0))  # a race: as many cards left as others, but no game that counts
    if race:
        figures = [(0, *rest) for _, *rest in figures]
    for user, (score, games, cards, seconds) in zip(users, figures, strict=True):
        tournament_services.tournament_join(user=user, tournament_id=cup.pk)
        Entry.objects.filter(tournament=cup, player=user).update(
            score=score, games=games, cards_left=cards, moves=0, duration_ms=seconds * 1000 if race else 0
        )

    # the standing as a tuple compared in Python: higher score, then (arena) a player with a game, then fewer cards;
    # a race: fewer cards, then a player with a game, then less time
    standing = {
        user.pk: (cards, games == 0, seconds) if race else (-score, format == "arena" and games == 0, cards)
        for user, (score, games, cards, seconds) in zip(users, figures, strict=True)
    }
    expected = {pk: 1 + sum(other < mine for other in standing.values()) for pk, mine in standing.items()}
    api = client_for(users[0])
    whole = api.get(f"/api/tournaments/{cup.pk}/standings/?limit=1000").json()["results"]
    assert len(whole) == len(users) and {row["player"]["id"]: row["rank"] for row in whole} == expected
    rows, page = [], api.get(f"/api/tournaments/{cup.pk}/standings/?limit=3").json()
    rows += page["results"]
    while page["next"]:
        page = api.get(page["next"]).json()
        rows += page["results"]
    assert [row["player"]["id"] for row in rows] == [row["player"]["id"] for row in whole]
    assert {row["player"]["id"]: row["rank"] for row in rows} == expected
    offset = api.get(f"/api/tournaments/{cup.pk}/standings/?limit=1000&offset=0").json()["results"]
    assert [(r["player"]["id"], r["rank"]) for r in offset] == [(r["player"]["id"], r["rank"]) for r in rows]
    # a page read backwards ranks the same
    back = api.get(page["previous"]).json()["results"]
    assert [(row["player"]["id"], row["rank"]) for row in back] == [(r["player"]["id"], r["rank"]) for r in rows[3:6]]


def test_a_page_past_the_end_links_back_to_the_page_that_ends_with_its_cursor(staff):
    """The rows after a cursor went between two reads (failures are pruned): an empty page, no next, and a
    previous link to the page that ends with the cursor's row."""
    from pyramid_site.operations.models import TaskFailure

    for n in range(3):
        task_failure_record(
            task_name="games.tasks.solve_deal",
            task_id=f"run-{n}",
            kind="error",
            args="(1,)",
            kwargs="{}",
            exception_type="ValueError",
            exception_message="",
            traceback="",
            retries=0,
            worker="celery@here",
        )
    api = client_for(staff)
    first = api.get("/api/operations/task-failures/?limit=2").json()
    assert [row["task_id"] for row in first["results"]] == ["run-2", "run-1"]
    TaskFailure.objects.filter(task_id="run-0").delete()
    empty = api.get(first["next"]).json()
    assert empty["results"] == [] and empty["next"] is None and empty["count"] == 2
    back = api.get(empty["previous"]).json()
    assert [row["task_id"] for row in back["results"]] == ["run-2", "run-1"] and back["previous"] is None


@pytest.mark.rows_edited_behind_the_services
def test_standings_read_while_a_player_moves_up_show_every_other_player_once(users):
    """While a tournament runs a finished game moves its player: the standings' cursor is the standing itself, so
    the players whose standing did not change are each on one page exactly (by offset, the one pushed down by the
    climber shows twice)."""
    from leaderboards.models import Entry

    cup = running_cup(users, club_name="Moving", format="match", scoring="par")
    for points, user in enumerate(users):
        tournament_services.tournament_join(user=user, tournament_id=cup.pk)
        Entry.objects.filter(tournament=cup, player=user).update(score=10 * points)
    url = f"/api/tournaments/{cup.pk}/standings/"
    api = client_for(users[0])
    first = api.get(url, {"limit": 3}).json()
    by_offset = api.get(url, {"limit": 3, "offset": 0}).json()
    climber = users[0]  # last, with 0 points; a game finished now puts it on top
    Entry.objects.filter(tournament=cup, player=climber).update(score=1000)
    seen, page = [row["player"]["id"] for row in first["results"]], first
    while page["next"]:
        page = api.get(page["next"]).json()
        seen += [row["player"]["id"] for row in page["results"]]
    others = [user.pk for user in reversed(users) if user != climber]
    assert [pk for pk in seen if pk != climber.pk] == others  # each once, in order
    assert climber.pk not in seen  # it moved into the page already read
    second_by_offset = api.get(url, {"limit": 3, "offset": 3}).json()
    assert second_by_offset["results"][0]["player"]["id"] == by_offset["results"][-1]["player"]["id"]
