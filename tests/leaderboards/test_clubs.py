"""Clubs: roles, invite codes, privacy and the club boards."""

import threading

import pytest
from django.db import connection

from leaderboards.clubs import services
from leaderboards.models import Club, Membership
from tests.support import UserFactory, client_for, daily_game, make_daily

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(users):
    """users[0] owns it, users[1] is an admin, users[2] and users[3] members."""
    club = services.club_create(user=users[0], name="Tut's Tomb Society", description="weekly fun")
    for user in users[1:4]:
        services.club_join(user=user, invite_code=club.invite_code)
    services.member_role_set(actor=users[0], club_id=club.pk, user_id=users[1].pk, role="admin")
    return club


def roles(club):
    return dict(Membership.objects.filter(club=club).values_list("user_id", "role"))


def test_create_join_and_roles_over_the_api(users):
    owner = client_for(users[0])
    created = owner.post("/api/clubs/", {"name": "Pharaohs", "description": "d", "is_private": True}, format="json")
    assert created.status_code == 201
    club = created.json()
    assert club["my_role"] == "owner" and club["invite_code"] and club["members"] == 1
    joined = client_for(users[1]).post("/api/clubs/join/", {"invite_code": club["invite_code"]}, format="json")
    assert joined.status_code == 201 and joined.json()["my_role"] == "member" and "invite_code" not in joined.json()
    members = owner.get(f"/api/clubs/{club['id']}/members/").json()["results"]
    assert [(m["user"]["id"], m["role"]) for m in members] == [(users[0].pk, "owner"), (users[1].pk, "member")]
    promoted = owner.patch(f"/api/clubs/{club['id']}/members/{users[1].pk}/", {"role": "admin"}, format="json")
    assert promoted.json()["role"] == "admin"
    assert client_for(users[1]).get(f"/api/clubs/{club['id']}/").json()["invite_code"] == club["invite_code"]


@pytest.mark.parametrize(
    "body, status, code",
    [
        ({"name": ""}, 400, "invalid"),
        ({"name": "x" * 61}, 400, "invalid"),
        ({"name": "Tut's Tomb Society"}, 409, "club_name_taken"),
    ],
)
def test_create_errors(club, users, body, status, code):
    response = client_for(users[5]).post("/api/clubs/", body, format="json")
    assert response.status_code == status and response.json()["code"] == code
    assert Club.objects.count() == 1


def test_a_club_name_taken_in_another_case_or_width_is_taken(club, users):
    """Old hole: ``TUT'S TOMB SOCIETY`` (or its fullwidth twin) was a second club beside ``Tut's Tomb
    Society``, one name to the eye. Names are NFKC-normalised and unique whatever their case, by the
    service and by the database's constraint."""
    api = client_for(users[5])
    for lookalike in (
        "TUT'S TOMB SOCIETY",
        "tut's tomb society",
        "Ｔｕｔ'ｓ Ｔｏｍｂ Ｓｏｃｉｅｔｙ",
        "  Tut's   Tomb Society ",
    ):
        taken = api.post("/api/clubs/", {"name": lookalike}, format="json")
        assert taken.status_code == 409 and taken.json()["code"] == "club_name_taken", lookalike
    other = services.club_create(user=users[5], name="Other")
    renamed = client_for(users[5]).patch(f"/api/clubs/{other.pk}/", {"name": "TUT'S TOMB SOCIETY"}, format="json")
    assert renamed.status_code == 409 and renamed.json()["code"] == "club_name_taken"
    assert sorted(Club.objects.values_list("name", flat=True)) == ["Other", "Tut's Tomb Society"]
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError, match="club_name_unique_whatever_case"), transaction.atomic():
        Club.objects.create(name="tut's TOMB society", invite_code="behind-the-service")


@pytest.mark.parametrize(
    "name, character",
    [("Owls\u202e", "U+202E"), ("Ow\u200bls", "U+200B"), ("Owls\nClub", "U+000A"), ("Owls\x07", "U+0007")],
)
def test_a_club_name_with_control_or_invisible_characters_is_refused(users, name, character):
    """Old: a name was only stripped, so a right-to-left override or a zero-width space was kept."""
    refused = client_for(users[0]).post("/api/clubs/", {"name": name}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "bad_club_name"
    assert character in refused.json()["message"] and not Club.objects.exists()


def test_a_club_name_is_kept_normalised_and_where_it_is_said(users):
    created = client_for(users[0]).post("/api/clubs/", {"name": "  Ｎｉｇｈｔ   Owls "}, format="json")
    assert created.status_code == 201 and created.json()["name"] == "Night Owls"
    assert created["Location"] == f"/api/clubs/{created.json()['id']}/"
    joined = client_for(users[1]).post(
        "/api/clubs/join/", {"invite_code": created.json()["invite_code"]}, format="json"
    )
    assert joined.status_code == 201 and joined["Location"] == created["Location"]
    assert client_for(users[1]).get(joined["Location"]).json()["my_role"] == "member"


def test_join_errors(club, users):
    api = client_for(users[2])
    assert (
        api.post("/api/clubs/join/", {"invite_code": club.invite_code}, format="json").json()["code"]
        == "already_member"
    )
    assert (
        client_for(users[5]).post("/api/clubs/join/", {"invite_code": "nope"}, format="json").json()["code"]
        == "bad_invite_code"
    )
    assert client_for(users[5]).post("/api/clubs/join/", {}, format="json").status_code == 400


def test_renewed_invite_code_stops_the_old_one(club, users):
    old = club.invite_code
    assert client_for(users[2]).post(f"/api/clubs/{club.pk}/invite/").json()["code"] == "not_club_manager"
    renewed = client_for(users[1]).post(f"/api/clubs/{club.pk}/invite/").json()["invite_code"]
    assert renewed != old
    assert client_for(users[5]).post("/api/clubs/join/", {"invite_code": old}, format="json").status_code == 404
    assert client_for(users[5]).post("/api/clubs/join/", {"invite_code": renewed}, format="json").status_code == 201


def test_who_may_remove_whom(club, users):
    def remove(actor, target):
        return client_for(actor).delete(f"/api/clubs/{club.pk}/members/{target.pk}/")

    assert remove(users[2], users[3]).json()["code"] == "not_club_manager"
    assert remove(users[1], users[0]).json()["code"] == "rank_too_low"
    assert remove(users[1], users[1]).json()["code"] == "remove_self"
    assert remove(users[1], users[5]).json()["code"] == "member_not_found"
    assert remove(users[1], users[3]).status_code == 204
    services.club_join(user=users[4], invite_code=club.invite_code)
    services.member_role_set(actor=users[0], club_id=club.pk, user_id=users[4].pk, role="admin")
    assert remove(users[1], users[4]).json()["code"] == "rank_too_low"  # an admin cannot remove an admin
    assert remove(users[0], users[4]).status_code == 204
    assert set(roles(club)) == {users[0].pk, users[1].pk, users[2].pk}


def test_roles_are_the_owners_and_ownership_moves(club, users):
    url = f"/api/clubs/{club.pk}/members/{users[2].pk}/"
    assert client_for(users[1]).patch(url, {"role": "admin"}, format="json").json()["code"] == "not_club_manager"
    assert client_for(users[0]).patch(url, {"role": "king"}, format="json").status_code == 400
    own = f"/api/clubs/{club.pk}/members/{users[0].pk}/"
    assert client_for(users[0]).patch(own, {"role": "member"}, format="json").json()["code"] == "owner_role_change"
    assert client_for(users[0]).patch(url, {"role": "owner"}, format="json").status_code == 200
    assert roles(club)[users[2].pk] == "owner" and roles(club)[users[0].pk] == "admin"


def test_leaving(club, users):
    assert client_for(users[0]).post(f"/api/clubs/{club.pk}/leave/").json()["code"] == "owner_must_hand_over"
    assert client_for(users[3]).post(f"/api/clubs/{club.pk}/leave/").status_code == 204
    # leaving a public club one is not (or no longer) a member of: 403 `not_member`, as the registry says
    for outsider in (users[3], users[5]):
        again = client_for(outsider).post(f"/api/clubs/{club.pk}/leave/")
        assert (again.status_code, again.json()["code"]) == (403, "not_member")
    solo = services.club_create(user=users[6], name="Solo")
    assert client_for(users[6]).post(f"/api/clubs/{solo.pk}/leave/").status_code == 204
    assert not Club.objects.filter(pk=solo.pk).exists()  # its last member closed it


def test_private_club_is_hidden_from_outsiders(club, users, winning_line):
    services.club_update(actor=users[0], club_id=club.pk, is_private=True)
    outsider = client_for(users[6])
    assert outsider.get(f"/api/clubs/{club.pk}/").json()["code"] == "club_not_found"
    assert club.pk not in [c["id"] for c in outsider.get("/api/clubs/").json()["results"]]
    daily = make_daily()
    url = f"/api/boards/daily/{daily.date}/{daily.preset}/?club={club.pk}"
    assert outsider.get(url).json()["code"] == "club_not_found"
    assert outsider.get(f"/api/boards/weekly/?club={club.pk}").status_code == 404
    assert client_for(users[2]).get(url).status_code == 200
    assert [c["id"] for c in client_for(users[2]).get("/api/clubs/?mine=true").json()["results"]] == [club.pk]
    public = services.club_create(user=users[6], name="Open")
    assert client_for(users[2]).get(f"/api/clubs/{public.pk}/members/").json()["code"] == "not_member"
    assert client_for(users[2]).patch(f"/api/clubs/{club.pk}/", {"name": "X"}, format="json").status_code == 403
    assert client_for(users[1]).patch(f"/api/clubs/{club.pk}/", {"name": "Open"}, format="json").status_code == 409


def test_club_boards_show_only_members(club, users, winning_line):
    daily = make_daily()
    for moves, user in zip([None, 10, 12, 14, 16], [users[5], users[0], users[2], users[6], users[3]], strict=True):
        daily_game(user, daily, moves)
    body = client_for(users[2]).get(f"/api/boards/daily/{daily.date}/{daily.preset}/?club={club.pk}").json()
    assert body["total"] == 3 and {r["player"]["id"] for r in body["top"]} == {users[0].pk, users[2].pk, users[3].pk}
    assert [r["rank"] for r in body["top"]] == [1, 2, 3] and body["me"]["player"]["id"] == users[2].pk
    week = client_for(users[2]).get(f"/api/boards/weekly/?preset=one-look&club={club.pk}").json()
    assert week["count"] == 3
    assert {r["player"]["id"] for r in week["results"]} == {users[0].pk, users[2].pk, users[3].pk}


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_simultaneous_joins_land_once_each():
    owner, *others = [UserFactory() for _ in range(6)]
    club = services.club_create(user=owner, name="Race")
    barrier = threading.Barrier(len(others))
    outcomes = []

    def join_and_grab(user):
        try:
            barrier.wait()
            services.club_join(user=user, invite_code=club.invite_code)
            services.club_join(user=user, invite_code=club.invite_code)
        except Exception as exc:  # noqa: BLE001
            outcomes.append(getattr(exc, "code", repr(exc)))
        finally:
            connection.close()

    threads = [threading.Thread(target=join_and_grab, args=(u,)) for u in others]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes == ["already_member"] * len(others)
    assert Membership.objects.filter(club=club).count() == 1 + len(others)
    assert Membership.objects.filter(club=club, role="owner").count() == 1
