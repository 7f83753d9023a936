"""A visitor with no account reads the boards, player pages, public clubs and their tournaments as any signed-in
outsider does (private clubs and their tournaments stay 404); every write still needs an account (401), and a
visitor's reads are throttled per client address."""

import datetime as dt

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from benchmarks.common import clock_at
from games.models import Game
from leaderboards.clubs import services
from leaderboards.models import Tournament, TournamentDeal
from leaderboards.tournaments import services as tournament_services
from tests.support import UserFactory, client_for, daily_game, make_daily, winnable_deal

pytestmark = pytest.mark.django_db
HOUR = dt.timedelta(hours=1)


@pytest.fixture
def world(users):
    """A public club with a tournament under way, a private club with one, a daily deal played by two members."""
    owner, member, hidden_owner, outsider = users[0], users[1], users[2], users[5]
    public = services.club_create(user=owner, name="Open Club")
    services.club_join(user=member, invite_code=public.invite_code)
    private = services.club_create(user=hidden_owner, name="Hidden Club", is_private=True)
    services.club_join(user=member, invite_code=private.invite_code)
    now = timezone.now()
    cups = {}
    for name, club, actor in (("cup", public, owner), ("secret_cup", private, hidden_owner)):
        cup = tournament_services.tournament_create(
            actor=actor,
            club_id=club.pk,
            name=name,
            rules="one-look",
            format="match",
            starts_at=now - HOUR,
            ends_at=now + HOUR,
        )
        TournamentDeal.objects.create(tournament=cup, index=0, deal=winnable_deal())
        Tournament.objects.filter(pk=cup.pk).update(status=Tournament.Status.READY, deal_count=1)
        tournament_services.tournament_join(user=member, tournament_id=cup.pk)
        cups[name] = cup
    daily = make_daily()
    daily_game(owner, daily, 5)
    daily_game(member, daily, 3)
    return {
        "public": public,
        "private": private,
        "daily": daily,
        "outsider": outsider,
        "member": member,
        "hidden_owner": hidden_owner,
        **cups,
    }


def reads(w) -> list[str]:
    date, owner = w["daily"].date, w["public"].memberships.get(role="owner").user.username
    public, cup = w["public"].pk, w["cup"].pk
    return [
        f"/api/boards/daily/{date}/one-look/",
        f"/api/boards/daily/{date}/one-look/?club={public}",
        "/api/boards/weekly/?preset=one-look",
        "/api/boards/all-time/?preset=one-look",
        f"/api/players/{owner}/",
        f"/api/players/{owner}/stats/",
        f"/api/players/{owner}/calendar/",
        f"/api/players/{w['hidden_owner'].username}/",
        "/api/clubs/",
        "/api/clubs/?mine=1",
        f"/api/clubs/{public}/",
        f"/api/clubs/{public}/members/",
        f"/api/clubs/{public}/tournaments/",
        f"/api/tournaments/{cup}/",
        f"/api/tournaments/{cup}/standings/",
    ]


def test_a_visitor_reads_what_a_signed_in_outsider_reads(world):
    visitor, outsider = APIClient(), client_for(world["outsider"])
    for path in reads(world):
        seen, theirs = visitor.get(path), outsider.get(path)
        assert seen.status_code == theirs.status_code, path
        assert seen.json() == theirs.json(), path  # the outsider has no row, no membership, no entry: no "me"
    ok = {path for path in reads(world) if visitor.get(path).status_code == 200}
    # members and live standings are for members (403 `not_member`) to both; everything else answers
    assert len(ok) == len(reads(world)) - 2
    assert visitor.get(f"/api/clubs/{world['public'].pk}/members/").json()["code"] == "not_member"
    assert [c["name"] for c in visitor.get("/api/clubs/").json()["results"]] == ["Open Club"]
    assert visitor.get("/api/clubs/?mine=1").json()["count"] == 0
    board = visitor.get(f"/api/boards/daily/{world['daily'].date}/one-look/").json()
    assert board["total"] == 2 and board["me"] is None and board["around"] == []
    cup = visitor.get(f"/api/tournaments/{world['cup'].pk}/").json()
    assert cup["me"] is None and cup["can_manage"] is False
    # the hidden club's owner's page names no club of theirs to a visitor
    assert visitor.get(f"/api/players/{world['hidden_owner'].username}/").json()["clubs"] == []
    assert visitor.get(f"/api/players/{world['outsider'].username}/stats/").json()["practice"] is None
    # once the tournament is over, its final standings are everyone's
    with clock_at(world["cup"].ends_at + dt.timedelta(seconds=1)):
        final = visitor.get(f"/api/tournaments/{world['cup'].pk}/standings/")
        assert final.status_code == 200 and final.json()["final"] is True
        assert final.json() == outsider.get(f"/api/tournaments/{world['cup'].pk}/standings/").json()
        assert [row["player"]["username"] for row in final.json()["results"]] == [world["member"].username]


def test_private_clubs_and_their_tournaments_stay_hidden_from_visitors(world):
    visitor = APIClient()
    private, secret = world["private"].pk, world["secret_cup"].pk
    for path, code in (
        (f"/api/clubs/{private}/", "club_not_found"),
        (f"/api/clubs/{private}/members/", "club_not_found"),
        (f"/api/clubs/{private}/tournaments/", "club_not_found"),
        (f"/api/boards/daily/{world['daily'].date}/one-look/?club={private}", "club_not_found"),
        (f"/api/tournaments/{secret}/", "tournament_not_found"),
        (f"/api/tournaments/{secret}/standings/", "tournament_not_found"),
    ):
        answer = visitor.get(path)
        assert answer.status_code == 404 and answer.json()["code"] == code and answer.json()["message"], path
        assert client_for(world["outsider"]).get(path).json() == answer.json(), path
    with clock_at(world["secret_cup"].ends_at + dt.timedelta(seconds=1)):
        assert visitor.get(f"/api/tournaments/{secret}/standings/").status_code == 404


def test_a_visitor_writes_nothing(world):
    visitor = APIClient()
    public, cup = world["public"].pk, world["cup"].pk
    game = Game.objects.get(player=world["member"], daily=world["daily"])
    writes = [
        ("post", "/api/clubs/", {"name": "Mine"}),
        ("post", "/api/clubs/join/", {"invite_code": "x" * 10}),
        ("patch", f"/api/clubs/{public}/", {"name": "Taken"}),
        ("post", f"/api/clubs/{public}/leave/", None),
        ("post", f"/api/clubs/{public}/tournaments/", {"name": "Cup 2"}),
        ("patch", f"/api/tournaments/{cup}/", {"name": "Renamed"}),
        ("delete", f"/api/tournaments/{cup}/", None),
        ("post", f"/api/tournaments/{cup}/join/", None),
        ("post", f"/api/tournaments/{cup}/leave/", None),
        ("post", f"/api/tournaments/{cup}/games/", {}),
        # and what is a player's own stays theirs
        ("get", f"/api/games/{game.pk}/share/", None),
        ("get", "/api/games/", None),
        ("get", f"/api/clubs/{public}/changes/", None),
    ]
    for method, path, body in writes:
        send = getattr(visitor, method)
        answer = send(path, body, format="json") if body is not None else send(path)
        assert answer.status_code == 401, (method, path)
        assert answer.json()["code"] == "not_authenticated" and answer.json()["message"], (method, path)
    world["cup"].refresh_from_db()
    assert world["cup"].name == "cup" and world["public"].memberships.count() == 2


def test_a_visitors_read_flood_is_throttled_per_address(world, settings):
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = settings.REST_FRAMEWORK | {"DEFAULT_THROTTLE_RATES": rates | {"visitor_read": "5/min"}}
    path = f"/api/boards/daily/{world['daily'].date}/one-look/"
    flooder = APIClient(REMOTE_ADDR="2001:db8:1:2::10")
    answers = [flooder.get(path if i % 2 else "/api/clubs/").status_code for i in range(5)]
    assert answers == [200] * 5
    refused = flooder.get(path)
    assert refused.status_code == 429 and refused.json()["code"] == "throttled" and refused.json()["message"]
    assert refused.json()["retry_after_seconds"] >= 1 and int(refused["Retry-After"]) >= 1
    # one /64 is one address (a device rotating its private addresses), another address is not counted with it
    assert APIClient(REMOTE_ADDR="2001:db8:1:2::99").get(path).status_code == 429
    assert APIClient(REMOTE_ADDR="198.51.100.7").get(path).status_code == 200
    # a signed-in reader from the same address is not a visitor
    signed_in = APIClient(REMOTE_ADDR="2001:db8:1:2::10")
    signed_in.force_authenticate(UserFactory())
    assert signed_in.get(path).status_code == 200
    # and a visitor's write is 401 however much they read
    assert flooder.post("/api/clubs/", {"name": "x"}, format="json").status_code == 401
