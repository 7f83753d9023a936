"""Object permissions, endpoint by endpoint: nobody reaches another player's game (its log included: a
practice game's ever, a daily game's before its day is over), a private club, or a club's
administration without the role for it."""

import datetime as dt

import pytest
from django.utils import timezone

from games import services as game_services
from games.models import Game
from leaderboards.clubs import services
from leaderboards.models import Membership, Tournament, TournamentDeal, Void
from leaderboards.tournaments import services as tournament_services
from pyramid_site.clock import day_end, utc_today
from tests.support import client_for, clock_at, daily_game, logged, make_daily, winnable_deal

pytestmark = pytest.mark.django_db
HOUR = dt.timedelta(hours=1)


def code_of(response) -> tuple[int, str]:
    return response.status_code, response.json().get("code") if response.content else ""


def test_another_players_game_is_out_of_reach(users, winning_line):
    owner, stranger = users[0], client_for(users[1])
    practice = game_services.game_start(player=owner, number=5, rules="one-look")
    ranked = game_services.game_start(player=owner, daily_id=make_daily().pk)
    for game in (practice, ranked):
        before = Game.objects.values().get(pk=game.pk)
        answers = [
            stranger.get(f"/api/games/{game.pk}/"),
            stranger.post(f"/api/games/{game.pk}/moves/", {"ply": 1, "move": "draw"}, format="json"),
            stranger.post(f"/api/games/{game.pk}/resign/"),
            stranger.post(f"/api/games/{game.pk}/undo/"),
            stranger.get(f"/api/games/{game.pk}/hint/"),
            stranger.get(f"/api/games/{game.pk}/share/"),
        ]
        # answered exactly as a game that does not exist, and nothing written
        assert {code_of(a) for a in answers} == {(404, "game_not_found")}
        assert Game.objects.values().get(pk=game.pk) == before and logged(game) == []
    # logs too: a practice game's is its player's alone, a ranked game's waits for the end of its day
    assert code_of(stranger.get(f"/api/games/{practice.pk}/log/")) == (404, "game_not_found")
    assert code_of(stranger.get(f"/api/games/{ranked.pk}/log/")) == (404, "game_not_found")
    assert code_of(client_for(None).get(f"/api/games/{practice.pk}/"))[0] == 401


def test_a_daily_log_opens_only_when_its_day_is_over(users, winning_line):
    today = daily_game(users[0], make_daily(), 10)
    yesterday = daily_game(users[2], make_daily(date=utc_today() - dt.timedelta(days=1)), 10)  # the same deal
    stranger = client_for(users[1])
    assert code_of(stranger.get(f"/api/games/{today.pk}/log/")) == (404, "game_not_found")
    assert client_for(users[0]).get(f"/api/games/{today.pk}/log/").json()["log"] == " ".join(winning_line[:10])
    # yesterday's day is over, but its deal is today's too: its games wait for every window of the deal to end
    assert code_of(stranger.get(f"/api/games/{yesterday.pk}/log/")) == (404, "game_not_found")
    with clock_at(day_end(utc_today()) + dt.timedelta(seconds=1)):
        for game in (yesterday, today):
            assert stranger.get(f"/api/games/{game.pk}/log/").json()["log"] == " ".join(winning_line[:10])


@pytest.fixture
def private_club(users):
    """users[0] owns it, users[1] is an admin, users[2] a member; users[3] is outside."""
    club = services.club_create(user=users[0], name="Inner Circle", is_private=True)
    for user in users[1:3]:
        services.club_join(user=user, invite_code=club.invite_code)
    services.member_role_set(actor=users[0], club_id=club.pk, user_id=users[1].pk, role="admin")
    now = timezone.now()
    cup = tournament_services.tournament_create(
        actor=users[0],
        club_id=club.pk,
        name="Cup",
        rules="one-look",
        format="match",
        starts_at=now - HOUR,
        ends_at=now + HOUR,
    )
    TournamentDeal.objects.get_or_create(tournament=cup, index=0, defaults={"deal": winnable_deal()})
    Tournament.objects.filter(pk=cup.pk).update(status=Tournament.Status.READY, deal_count=1)
    club.cup = cup
    return club


def test_a_private_club_is_invisible_from_outside(users, private_club):
    outsider = client_for(users[3])
    club, cup = private_club.pk, private_club.cup.pk
    daily = make_daily()
    answers = {
        "club": outsider.get(f"/api/clubs/{club}/"),
        "rename": outsider.patch(f"/api/clubs/{club}/", {"name": "Mine"}, format="json"),
        "members": outsider.get(f"/api/clubs/{club}/members/"),
        "invite": outsider.post(f"/api/clubs/{club}/invite/"),
        "leave": outsider.post(f"/api/clubs/{club}/leave/"),
        "role": outsider.patch(f"/api/clubs/{club}/members/{users[2].pk}/", {"role": "admin"}, format="json"),
        "remove": outsider.delete(f"/api/clubs/{club}/members/{users[2].pk}/"),
        "tournaments": outsider.get(f"/api/clubs/{club}/tournaments/"),
        "board": outsider.get(f"/api/boards/daily/{daily.date}/{daily.preset}/?club={club}"),
        "weekly": outsider.get(f"/api/boards/weekly/?club={club}"),
        "changes": outsider.get(f"/api/clubs/{club}/changes/"),
    }
    assert {name: code_of(a) for name, a in answers.items()} == dict.fromkeys(answers, (404, "club_not_found"))
    cup_answers = {
        "cup": outsider.get(f"/api/tournaments/{cup}/"),
        "join": outsider.post(f"/api/tournaments/{cup}/join/"),
        "game": outsider.post(f"/api/tournaments/{cup}/games/", {}, format="json"),
        "standings": outsider.get(f"/api/tournaments/{cup}/standings/"),
        "change": outsider.patch(f"/api/tournaments/{cup}/", {"name": "X"}, format="json"),
        "delete": outsider.delete(f"/api/tournaments/{cup}/"),
    }
    assert {n: code_of(a)[0] for n, a in cup_answers.items()} == dict.fromkeys(cup_answers, 404)
    assert private_club.pk not in [c["id"] for c in outsider.get("/api/clubs/").json()["results"]]
    assert Membership.objects.filter(club_id=club).count() == 3 and Tournament.objects.get(pk=cup).name == "Cup"
    assert client_for(users[2]).get(f"/api/tournaments/{cup}/").status_code == 200


def test_only_the_owner_and_admins_run_the_club_and_its_tournaments(users, private_club):
    member, admin = client_for(users[2]), client_for(users[1])
    club, cup = private_club.pk, private_club.cup.pk
    assert "invite_code" not in member.get(f"/api/clubs/{club}/").json()
    now = timezone.now()
    body = {
        "name": "Open",
        "rules": "one-look",
        "format": "match",
        "starts_at": (now + HOUR).isoformat(),
        "ends_at": (now + 2 * HOUR).isoformat(),
    }
    refused = {
        "rename": member.patch(f"/api/clubs/{club}/", {"name": "Ours"}, format="json"),
        "invite": member.post(f"/api/clubs/{club}/invite/"),
        "promote": member.patch(f"/api/clubs/{club}/members/{users[2].pk}/", {"role": "admin"}, format="json"),
        "remove": member.delete(f"/api/clubs/{club}/members/{users[1].pk}/"),
        "create": member.post(f"/api/clubs/{club}/tournaments/", body, format="json"),
        "change": member.patch(f"/api/tournaments/{cup}/", {"name": "Ours"}, format="json"),
        "delete": member.delete(f"/api/tournaments/{cup}/"),
        "changes": member.get(f"/api/clubs/{club}/changes/"),
        # an admin may not touch the owner
        "demote owner": admin.patch(f"/api/clubs/{club}/members/{users[0].pk}/", {"role": "member"}, format="json"),
        "remove owner": admin.delete(f"/api/clubs/{club}/members/{users[0].pk}/"),
    }
    assert {n: code_of(a)[0] for n, a in refused.items()} == dict.fromkeys(refused, 403)
    roles = dict(Membership.objects.filter(club_id=club).values_list("user_id", "role"))
    assert roles == {users[0].pk: "owner", users[1].pk: "admin", users[2].pk: "member"}
    assert Tournament.objects.filter(club_id=club).count() == 1 and Tournament.objects.get(pk=cup).name == "Cup"
    assert admin.patch(f"/api/tournaments/{cup}/", {"name": "Spring Cup"}, format="json").status_code == 200


def test_an_entrant_removed_from_a_private_club_keeps_its_tournament_and_nothing_else(users, private_club):
    """An entrant plays and reads the tournament they joined whatever becomes of their membership; the club,
    its other tournaments and its administration close to them as to any outsider."""
    club, cup = private_club.pk, private_club.cup.pk
    tournament_services.tournament_join(user=users[2], tournament_id=cup)
    other = tournament_services.tournament_create(
        actor=users[0],
        club_id=club,
        name="Other",
        rules="one-look",
        format="match",
        starts_at=timezone.now() - HOUR,
        ends_at=timezone.now() + HOUR,
    )
    services.member_remove(actor=users[1], club_id=club, user_id=users[2].pk)
    removed = client_for(users[2])
    kept = {
        "cup": removed.get(f"/api/tournaments/{cup}/"),
        "standings": removed.get(f"/api/tournaments/{cup}/standings/"),
        "game": removed.post(f"/api/tournaments/{cup}/games/", {}, format="json"),
    }
    assert {n: code_of(a)[0] for n, a in kept.items()} == {"cup": 200, "standings": 200, "game": 201}
    closed = {
        "club": removed.get(f"/api/clubs/{club}/"),
        "members": removed.get(f"/api/clubs/{club}/members/"),
        "changes": removed.get(f"/api/clubs/{club}/changes/"),
        "tournaments": removed.get(f"/api/clubs/{club}/tournaments/"),
        "other": removed.get(f"/api/tournaments/{other.pk}/"),
    }
    assert {n: code_of(a)[0] for n, a in closed.items()} == dict.fromkeys(closed, 404)
    refused = {
        "change": removed.patch(f"/api/tournaments/{cup}/", {"name": "Mine"}, format="json"),
        "delete": removed.delete(f"/api/tournaments/{cup}/"),
        "join again": removed.post(f"/api/tournaments/{cup}/join/"),
    }
    assert {n: code_of(a) for n, a in refused.items()} == {
        "change": (403, "not_club_manager"),
        "delete": (403, "not_club_manager"),
        "join again": (403, "not_member"),
    }
    assert Tournament.objects.get(pk=cup).name == "Cup"


def test_fair_play_records_are_for_staff_only(users, winning_line):
    game = daily_game(users[0], make_daily(), 5)
    player = client_for(users[1])
    answers = [
        player.get("/api/fair-play/voids/"),
        player.post("/api/fair-play/voids/", {"game": game.pk, "reason": "mine"}, format="json"),
        player.post("/api/fair-play/voids/1/lift/", {"reason": "x"}, format="json"),
        player.get("/api/fair-play/flags/"),
        player.post("/api/fair-play/flags/1/review/", {"note": "x"}, format="json"),
    ]
    assert {code_of(a) for a in answers} == {(403, "forbidden")} and not Void.objects.exists()


def test_the_record_of_failed_tasks_is_for_staff_only(users, staff):
    """Failed tasks' arguments and tracebacks are the operators' (tests/operations has the rest)."""
    answers = [
        client.get(url)
        for client in (client_for(users[0]), client_for(None))
        for url in ("/api/operations/task-failures/", "/api/operations/task-failures/1/")
    ]
    assert [code_of(a) for a in answers] == [(403, "forbidden")] * 2 + [(401, "not_authenticated")] * 2
    assert client_for(staff).get("/api/operations/task-failures/").status_code == 200


def test_nobody_walks_the_game_ids_to_read_others_practice_games(users):
    """Old hole: any logged-in player could read every practice game's log by walking the ids (the
    deal, every move and when it was played). Another's practice game now answers exactly as an id
    that does not exist, on the game and on its log."""
    games = [game_services.game_start(player=users[0], number=n, rules="one-look") for n in (5, 6, 7)]
    for game in games:
        game_services.move_submit(game_id=game.pk, player=users[0], ply=1, move="draw")
    stranger = client_for(users[1])
    last = max(g.pk for g in games)
    answers = {
        (path, game_id): code_of(stranger.get(f"/api/games/{game_id}/{path}"))
        for game_id in range(last - 5, last + 3)
        for path in ("", "log/")
    }
    assert set(answers.values()) == {(404, "game_not_found")}
    assert client_for(users[0]).get(f"/api/games/{games[0].pk}/log/").json()["log"] == "draw"


def test_anothers_ranked_game_opens_once_its_day_is_over(users, winning_line):
    """``GET /api/games/{id}/`` follows the log's rule: anyone's ranked game once its window is over."""
    daily = make_daily()
    game = game_services.game_start(player=users[0], daily_id=daily.pk)
    game_services.move_submit(game_id=game.pk, player=users[0], ply=1, move=winning_line[0])
    stranger = client_for(users[1])
    assert code_of(stranger.get(f"/api/games/{game.pk}/")) == (404, "game_not_found")
    with clock_at(day_end(daily.date) + dt.timedelta(seconds=1)):
        seen = stranger.get(f"/api/games/{game.pk}/")
        moved = stranger.post(f"/api/games/{game.pk}/moves/", {"ply": 2, "move": winning_line[1]}, format="json")
    assert seen.status_code == 200 and seen.json()["id"] == game.pk and seen.json()["moves"] == 1
    assert code_of(moved) == (404, "game_not_found")  # seen, never played by anyone else
    assert Game.objects.get(pk=game.pk).moves == 1
