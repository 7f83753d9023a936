"""Every list of the API comes in pages the same way: ``?limit=&offset=`` in, ``{"count", "next",
"previous", "results"}`` out, with links to the neighbouring pages; a limit or offset out of range is a
400 ``bad_parameter``, never a silent default."""

import datetime as dt

import pytest
from django.utils import timezone

from leaderboards.clubs import services
from leaderboards.tournaments import services as tournament_services
from leaderboards.fair_play.models import Flag
from leaderboards.fair_play.services import game_void
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


@pytest.mark.parametrize("query", ["limit=0", "limit=-1", "limit=201", "limit=x", "limit=1.5", "offset=-1",
                                   "offset=y"])
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
    task_failure_record(task_name="games.tasks.solve_deal", task_id="for-the-list", kind="error", args="(1,)",
                        kwargs="{}", exception_type="ValueError", exception_message="for the list", traceback="",
                        retries=0, worker="celery@here")
    now = timezone.now()
    cup = tournament_services.tournament_create(actor=users[0], club_id=club.pk, name="Cup",
                                                rules="one-look", format="match", starts_at=now - dt.timedelta(hours=1),
                                                ends_at=now + dt.timedelta(hours=1))
    tournament_services.tournament_join(user=users[0], tournament_id=cup.pk)
    return {"club": club, "daily": daily, "cup": cup}


@pytest.mark.parametrize("url, query", [
    ("/api/daily/", {}), ("/api/daily/{date}/", {}), ("/api/clubs/", {}), ("/api/clubs/{club}/members/", {}),
    ("/api/clubs/{club}/tournaments/", {}), ("/api/fair-play/voids/", {}), ("/api/fair-play/flags/", {}),
    ("/api/operations/task-failures/", {}),
    ("/api/boards/weekly/", {"preset": "one-look"}), ("/api/boards/all-time/", {"preset": "one-look"}),
    ("/api/tournaments/{cup}/standings/", {}), ("/api/games/", {}),
])
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

