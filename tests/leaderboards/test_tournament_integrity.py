"""Tournaments nobody can bend (issue 23): an entrant keeps playing and reading a tournament whatever
happens to their club membership, a club with a started tournament is archived instead of erased, a
tournament counts only games started after joining, and every change made while it runs is on record."""

import datetime as dt
import threading

import pytest
from django.contrib.admin.sites import site
from django.db import IntegrityError, connection, transaction
from django.db.models import ProtectedError
from django.test import Client
from django.utils import timezone

from games import services as game_services
from leaderboards.clubs import services
from leaderboards.models import Club, ClubChange, Entry, Membership, Tournament
from leaderboards.tournaments import services as tournament_services
from pyramid_site.errors import Code, DomainError
from tests.support import WINNABLE_ONE_LOOK, UserFactory, client_for, clock_at, make_daily, play

from .test_tournaments import HOUR, PYRAMID_CARDS, SECOND, create, entry, ready

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(users):
    """A public club: users[0] owns it, users[1] is an admin, users[2] to users[5] are members."""
    club = services.club_create(user=users[0], name="Open Table")
    for user in users[1:6]:
        services.club_join(user=user, invite_code=club.invite_code)
    services.member_role_set(actor=users[0], club_id=club.pk, user_id=users[1].pk, role="admin")
    return club


def kinds(changes) -> list[str]:
    return [change["kind"] for change in changes]


def test_an_entrant_removed_from_a_club_made_private_keeps_playing_and_reading(club, users, winning_line):
    """Old hole: the owner made the club private and removed a rival mid-tournament; the rival could no
    longer open the tournament or start a game, so each unplayed deal counted 28 cards, and nothing
    recorded the removal."""
    cup = ready(create(users[0], club), [WINNABLE_ONE_LOOK, 11])
    rival, friend = users[2], users[3]
    for user in (rival, friend):
        tournament_services.tournament_join(user=user, tournament_id=cup.pk)
    client_for(users[0]).patch(f"/api/clubs/{club.pk}/", {"is_private": True}, format="json")
    assert client_for(users[0]).delete(f"/api/clubs/{club.pk}/members/{rival.pk}/").status_code == 204
    assert not Membership.objects.filter(club=club, user=rival).exists()

    api = client_for(rival)
    seen = api.get(f"/api/tournaments/{cup.pk}/")
    assert seen.status_code == 200 and seen.json()["me"]["games_counted"] == 0
    started = api.post(f"/api/tournaments/{cup.pk}/games/", {"index": 0}, format="json")
    assert started.status_code == 201, started.json()
    for ply, move in enumerate(winning_line, start=1):
        assert (
            api.post(f"/api/games/{started.json()['id']}/moves/", {"ply": ply, "move": move}, format="json").status_code
            == 201
        )
    standings = api.get(f"/api/tournaments/{cup.pk}/standings/")
    assert standings.status_code == 200 and standings.json()["final"] is False
    top = standings.json()["results"][0]
    assert top["player"]["id"] == rival.pk and top["cleared"] == 1 and top["cards_left"] == PYRAMID_CARDS
    # the removal is on record, and shown with the standings to everyone who reads them
    removal = ClubChange.objects.get(club=club, kind="member_removed")
    assert (removal.changed_by_id, removal.member_id, removal.before) == (users[0].pk, rival.pk, "member")
    shown = [c for c in standings.json()["changes"] if c["kind"] == "member_removed"]
    assert [(c["changed_by"]["id"], c["member"]["id"]) for c in shown] == [(users[0].pk, rival.pk)]
    assert "club_privacy" in kinds(client_for(friend).get(f"/api/tournaments/{cup.pk}/").json()["changes"])
    # the club itself stays closed to the removed player, and a new tournament of it too
    assert api.get(f"/api/clubs/{club.pk}/").json()["code"] == "club_not_found"
    later = ready(create(users[0], club), [12])
    assert api.post(f"/api/tournaments/{later.pk}/join/").json()["code"] == "tournament_not_found"


def test_an_entrant_who_leaves_the_club_keeps_playing(club, users, winning_line):
    cup = ready(create(users[0], club), [WINNABLE_ONE_LOOK])
    tournament_services.tournament_join(user=users[4], tournament_id=cup.pk)
    services.club_update(actor=users[0], club_id=club.pk, is_private=True)
    assert client_for(users[4]).post(f"/api/clubs/{club.pk}/leave/").status_code == 204
    started = client_for(users[4]).post(f"/api/tournaments/{cup.pk}/games/", {}, format="json")
    assert started.status_code == 201
    assert client_for(users[4]).get(f"/api/tournaments/{cup.pk}/standings/").status_code == 200
    left = ClubChange.objects.get(club=club, kind="member_left")
    assert (left.changed_by_id, left.member_id) == (users[4].pk, users[4].pk)


def test_removals_are_shown_to_the_clubs_managers_alone(club, users):
    services.member_remove(actor=users[1], club_id=club.pk, user_id=users[5].pk)
    changes = client_for(users[0]).get(f"/api/clubs/{club.pk}/changes/")
    assert changes.status_code == 200
    [removal] = [c for c in changes.json()["results"] if c["kind"] == "member_removed"]
    assert removal["changed_by"]["id"] == users[1].pk and removal["member"]["id"] == users[5].pk
    assert removal["changed_at"] and removal["before"] == "member"
    assert client_for(users[1]).get(f"/api/clubs/{club.pk}/changes/").status_code == 200
    assert client_for(users[2]).get(f"/api/clubs/{club.pk}/changes/").json()["code"] == "not_club_manager"
    assert client_for(users[5]).get(f"/api/clubs/{club.pk}/changes/").json()["code"] == "not_club_manager"


def test_a_removal_record_names_two_different_people(club, users):
    """The database refuses a removal of oneself, a member change without its member, a name change without its
    tournament, a change that changes nothing, and a kind it does not know."""
    for fields in (
        {"kind": "member_removed", "changed_by": users[2], "member": users[2]},
        {"kind": "member_removed", "changed_by": users[0]},
        {"kind": "tournament_name", "changed_by": users[0], "before": "A", "after": "B"},
        {"kind": "club_name", "changed_by": users[0], "before": "A", "after": "A"},
        {"kind": "nonsense", "changed_by": users[0]},
    ):
        with pytest.raises(IntegrityError), transaction.atomic():
            ClubChange.objects.create(club=club, **fields)


def test_a_club_with_a_finished_tournament_is_archived_not_erased(club, users, winning_line):
    """Old hole: the owner removed the winner, everybody else, then left: the club closed and took the
    tournament and its standings with it."""
    services.club_update(actor=users[0], club_id=club.pk, is_private=True)
    cup = ready(create(users[0], club), [WINNABLE_ONE_LOOK])
    winner = users[2]
    tournament_services.tournament_join(user=winner, tournament_id=cup.pk)
    play(tournament_services.tournament_game_start(user=winner, tournament_id=cup.pk), winning_line)
    unstarted = create(users[0], club, starts_at=timezone.now() + 3 * HOUR, ends_at=timezone.now() + 4 * HOUR)
    with clock_at(cup.ends_at + SECOND):
        for user in users[1:6]:
            services.member_remove(actor=users[0], club_id=club.pk, user_id=user.pk)
        assert client_for(users[0]).post(f"/api/clubs/{club.pk}/leave/").status_code == 204
        club.refresh_from_db()
        assert club.archived_at is not None and not Membership.objects.filter(club=club).exists()
        assert Tournament.objects.filter(pk=cup.pk).exists() and entry(cup, winner).cleared == 1
        assert not Tournament.objects.filter(pk=unstarted.pk).exists()  # nothing was played in it
        final = client_for(winner).get(f"/api/tournaments/{cup.pk}/standings/")
        assert final.status_code == 200 and final.json()["final"] is True
        assert final.json()["results"][0]["player"]["id"] == winner.pk
        assert "club_archived" in kinds(final.json()["changes"])
        # read-only: no new members, tournaments or changes
        joining = client_for(users[6]).post("/api/clubs/join/", {"invite_code": club.invite_code}, format="json")
        assert joining.status_code == 409 and joining.json()["code"] == "club_archived"
        with pytest.raises(DomainError) as refused:
            tournament_services.tournament_create(
                actor=users[0],
                club_id=club.pk,
                name="Again",
                rules="one-look",
                format="match",
                starts_at=timezone.now() + HOUR,
                ends_at=timezone.now() + 2 * HOUR,
            )
        # the ex-owner no longer sees the private club: the service refuses it as missing, as the API always did
        assert refused.value.code is Code.CLUB_NOT_FOUND
        Club.objects.filter(pk=club.pk).update(is_private=False)  # seen again, the club is still closed
        with pytest.raises(DomainError) as refused:
            tournament_services.tournament_create(
                actor=users[0],
                club_id=club.pk,
                name="Again",
                rules="one-look",
                format="match",
                starts_at=timezone.now() + HOUR,
                ends_at=timezone.now() + 2 * HOUR,
            )
        assert refused.value.code is Code.CLUB_ARCHIVED
    with pytest.raises(ProtectedError):  # nor does the admin (or anything else) delete it with its tournaments
        Club.objects.filter(pk=club.pk).delete()


def test_a_public_archived_club_shows_its_tournaments_to_everyone(users, winning_line):
    club = services.club_create(user=users[0], name="Short Lived")
    services.club_join(user=users[2], invite_code=club.invite_code)
    cup = ready(create(users[0], club), [WINNABLE_ONE_LOOK])
    tournament_services.tournament_join(user=users[2], tournament_id=cup.pk)
    services.member_remove(actor=users[0], club_id=club.pk, user_id=users[2].pk)
    services.club_leave(user=users[0], club_id=club.pk)  # mid-tournament: archived, the tournament runs on
    shown = client_for(users[7]).get(f"/api/clubs/{club.pk}/").json()
    assert shown["archived_at"] is not None and shown["members"] == 0
    game = client_for(users[2]).post(f"/api/tournaments/{cup.pk}/games/", {}, format="json")
    assert game.status_code == 201
    with clock_at(cup.ends_at + SECOND):
        final = client_for(users[7]).get(f"/api/tournaments/{cup.pk}/standings/").json()
    assert final["final"] is True and [r["player"]["id"] for r in final["results"]] == [users[2].pk]


def test_a_club_without_started_tournaments_still_closes_with_its_last_member(users):
    club = services.club_create(user=users[0], name="Never Played")
    later = create(users[0], club, starts_at=timezone.now() + HOUR, ends_at=timezone.now() + 2 * HOUR)
    services.club_leave(user=users[0], club_id=club.pk)
    assert not Club.objects.filter(pk=club.pk).exists() and not Tournament.objects.filter(pk=later.pk).exists()


def test_a_daily_tournament_counts_only_games_started_after_joining(users, winning_line):
    """Old hole: play the daily deal first, and join its tournament only if the game went well."""
    club = services.club_create(user=users[0], name="Daily Club")
    for user in users[1:4]:
        services.club_join(user=user, invite_code=club.invite_code)
    daily = make_daily()
    midnight = dt.datetime.combine(daily.date, dt.time(), tzinfo=dt.UTC)
    cup = create(users[0], club, source="daily", starts_at=midnight, ends_at=midnight + dt.timedelta(days=1))
    early = play(game_services.game_start(player=users[1], daily_id=daily.pk), winning_line)
    still_playing = play(game_services.game_start(player=users[2], daily_id=daily.pk), winning_line[:4], resign=False)
    joined = client_for(users[1]).post(f"/api/tournaments/{cup.pk}/join/")
    assert joined.status_code == 201
    assert (entry(cup, users[1]).games, entry(cup, users[1]).cleared) == (0, 0)
    assert joined.json()["games_not_counted"] == [{"index": 0, "game": early.pk}]
    assert client_for(users[1]).post(f"/api/tournaments/{cup.pk}/games/").json()["code"] == "already_played"
    tournament_services.tournament_join(user=users[2], tournament_id=cup.pk)
    play(still_playing, winning_line[4:])  # started before joining, finished after: does not count either
    tournament_services.tournament_join(user=users[3], tournament_id=cup.pk)
    fair = play(tournament_services.tournament_game_start(user=users[3], tournament_id=cup.pk), winning_line)
    assert (entry(cup, users[1]).games, entry(cup, users[1]).cards_left) == (0, PYRAMID_CARDS)
    assert (entry(cup, users[2]).games, entry(cup, users[2]).cleared) == (0, 0)
    assert (entry(cup, users[3]).games, entry(cup, users[3]).cleared) == (1, 1)
    assert tournament_services.standings_rebuild(tournament_id=cup.pk) == 3  # the rebuild counts the same way
    assert [entry(cup, u).games for u in users[1:4]] == [0, 0, 1]
    me = client_for(users[1]).get(f"/api/tournaments/{cup.pk}/").json()["me"]
    assert me["deals"] == [{"index": 0, "game": me["deals"][0]["game"], "counted": False}]
    assert me["deals"][0]["game"]["id"] == early.pk
    fair_me = client_for(users[3]).get(f"/api/tournaments/{cup.pk}/").json()["me"]
    assert fair_me["deals"][0]["counted"] is True and fair_me["games_counted"] == 1
    assert me["games_counted"] == 0
    rows = client_for(users[3]).get(f"/api/tournaments/{cup.pk}/standings/").json()["results"]
    assert rows[0]["player"]["id"] == users[3].pk and fair.status == "won"
    assert all(row["joined_at"] for row in rows)


def test_every_change_while_a_tournament_runs_is_recorded_and_shown(club, users):
    cup = ready(create(users[0], club), [WINNABLE_ONE_LOOK])
    tournament_services.tournament_join(user=users[2], tournament_id=cup.pk)
    owner = client_for(users[0])
    owner.patch(f"/api/tournaments/{cup.pk}/", {"name": "Renamed Cup"}, format="json")
    owner.patch(f"/api/tournaments/{cup.pk}/", {"ends_at": (cup.ends_at + HOUR).isoformat()}, format="json")
    owner.patch(
        f"/api/clubs/{club.pk}/", {"name": "Closed Table", "description": "new", "is_private": True}, format="json"
    )
    owner.post(f"/api/clubs/{club.pk}/invite/")
    owner.patch(f"/api/clubs/{club.pk}/members/{users[2].pk}/", {"role": "admin"}, format="json")
    owner.delete(f"/api/clubs/{club.pk}/members/{users[4].pk}/")  # not an entrant: the club's business
    owner.delete(f"/api/clubs/{club.pk}/members/{users[2].pk}/")
    other = ready(create(users[0], club, name="Other"), [11])
    owner.patch(f"/api/tournaments/{other.pk}/", {"name": "Other Renamed"}, format="json")

    body = client_for(users[2]).get(f"/api/tournaments/{cup.pk}/standings/").json()
    changes = body["changes"]
    assert kinds(changes) == [
        "tournament_name",
        "club_name",
        "club_description",
        "club_privacy",
        "invite_renewed",
        "member_role",
        "member_removed",
    ]
    assert all(c["changed_by"]["id"] == users[0].pk and c["changed_at"] for c in changes)
    by_kind = {c["kind"]: c for c in changes}
    assert (by_kind["tournament_name"]["before"], by_kind["tournament_name"]["after"]) == ("Cup", "Renamed Cup")
    assert (by_kind["club_privacy"]["before"], by_kind["club_privacy"]["after"]) == ("public", "private")
    assert (by_kind["member_role"]["member"]["id"], by_kind["member_role"]["after"]) == (users[2].pk, "admin")
    assert by_kind["invite_renewed"]["before"] is None and by_kind["invite_renewed"]["after"] is None
    assert len(body["window_changes"]) == 1  # the window's moves, as before
    detail = client_for(users[2]).get(f"/api/tournaments/{cup.pk}/").json()
    assert detail["changes"] == changes
    everything = owner.get(f"/api/clubs/{club.pk}/changes/").json()
    # and, before the tournament, users[1] made admin; the other removal; the other tournament's name
    assert everything["count"] == len(changes) + 3
    assert [c["kind"] for c in everything["results"]][0] == "member_role"


def test_nothing_is_recorded_when_nothing_changes(club, users):
    cup = ready(create(users[0], club), [WINNABLE_ONE_LOOK])
    tournament_services.tournament_update(actor=users[0], tournament_id=cup.pk, name="Cup")
    services.club_update(actor=users[0], club_id=club.pk, name=club.name, is_private=False)
    services.member_role_set(actor=users[0], club_id=club.pk, user_id=users[1].pk, role="admin")
    assert (
        not ClubChange.objects.filter(club=club)
        .exclude(kind="member_role", member=users[1], changed_at__lt=cup.created_at)
        .exists()
    )


def race(*calls):
    """Run the calls at once, each in its own thread and connection; what each returned or raised."""
    barrier = threading.Barrier(len(calls))
    outcomes = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            outcomes[index] = call()
        except DomainError as exc:
            outcomes[index] = exc.code
        except Exception as exc:  # noqa: BLE001
            outcomes[index] = repr(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(4))
def test_archiving_and_joining_at_once_never_leave_a_member_in_an_archived_club(attempt, settings):
    settings.PYRAMID_DAILY_MAX_ATTEMPTS = 0  # the preparation job gives up at once; ``ready`` fixes the deals
    owner, newcomer = UserFactory(), UserFactory()
    club = services.club_create(user=owner, name=f"Race {attempt}")
    ready(create(owner, club), [WINNABLE_ONE_LOOK])
    leave, join = race(
        lambda: services.club_leave(user=owner, club_id=club.pk),
        lambda: services.club_join(user=newcomer, invite_code=club.invite_code),
    )
    club.refresh_from_db()
    members = set(Membership.objects.filter(club=club).values_list("user_id", flat=True))
    if club.archived_at is None:  # the newcomer came first: the owner has someone to hand over to
        assert (leave, members) == ("owner_must_hand_over", {owner.pk, newcomer.pk})
        assert isinstance(join, Membership)
    else:
        assert (leave, join, members) == (None, "club_archived", set())


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(10))  # without the join's lock, about one attempt in six fails
def test_a_removal_and_a_join_at_once_leave_no_entry_made_after_the_removal(attempt, settings):
    settings.PYRAMID_DAILY_MAX_ATTEMPTS = 0
    owner, member = UserFactory(), UserFactory()
    club = services.club_create(user=owner, name=f"Race {attempt}")
    services.club_join(user=member, invite_code=club.invite_code)
    cup = ready(create(owner, club), [WINNABLE_ONE_LOOK])
    remove, join = race(
        lambda: services.member_remove(actor=owner, club_id=club.pk, user_id=member.pk),
        lambda: tournament_services.tournament_join(user=member, tournament_id=cup.pk),
    )
    removal = ClubChange.objects.get(club=club, kind="member_removed", member=member)
    joined = Entry.objects.filter(tournament=cup, player=member).first()
    assert remove is None and not Membership.objects.filter(club=club, user=member).exists()
    if joined is None:
        assert join == "not_member"
    else:  # joined first, as a member: the entry stays, and it was made before the removal
        assert isinstance(join, Entry) and joined.joined_at <= removal.changed_at


def test_the_admin_shows_the_removals_and_keeps_a_club_with_tournaments(club, users):
    ready(create(users[0], club), [WINNABLE_ONE_LOOK])
    services.member_remove(actor=users[1], club_id=club.pk, user_id=users[4].pk)
    staff = UserFactory(is_staff=True, is_superuser=True)
    staff.save()  # the session checks the password's hash
    browser = Client()
    browser.force_login(staff)
    listed = browser.get("/admin/leaderboards/clubchange/", {"q": users[4].username}).content.decode()
    assert "member_removed" in listed and users[1].username in listed
    assert not site._registry[ClubChange].has_add_permission(None)
    assert not site._registry[ClubChange].has_delete_permission(None)
    deleting = browser.post(f"/admin/leaderboards/club/{club.pk}/delete/", {"post": "yes"})
    assert deleting.status_code == 200 and "Cannot delete" in deleting.content.decode()
    assert Club.objects.filter(pk=club.pk).exists()
