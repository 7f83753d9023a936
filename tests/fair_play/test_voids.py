"""Fair play: voiding a game or a player takes it off every board and standing, with an audit
record; lifting the void brings it back. Over the API (staff only) and the operators' ``void`` command."""

import io

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from games import services as game_services
from leaderboards.boards.selectors.boards import daily_board
from leaderboards.boards.selectors.stats import period_board
from leaderboards.fair_play import services
from leaderboards.fair_play.models import Void
from leaderboards.models import Result
from pyramid_site.errors import Code, DomainError
from tests.support import UserFactory, at_once, client_for, daily_game, make_daily

pytestmark = pytest.mark.django_db


def board_players(daily):
    return [row.result.player_id for row in daily_board(daily=daily, use_cache=False).top]


def test_void_game_then_lift(users, staff, winning_line):
    daily = make_daily()
    cheat = daily_game(users[0], daily)
    daily_game(users[1], daily, 10)
    assert board_players(daily)[0] == users[0].pk
    void = services.game_void(game_id=cheat.pk, reason="solver-assisted", by=staff)
    assert board_players(daily) == [users[1].pk]
    assert daily_board(daily=daily, use_cache=False).top[0].rank == 1
    assert Void.objects.get().reason == "solver-assisted" and void.voided_by == staff
    services.void_lift(void_id=void.pk, reason="appeal upheld", by=staff)
    assert board_players(daily) == [users[0].pk, users[1].pk]
    void.refresh_from_db()
    assert void.lifted_by == staff and void.lift_reason == "appeal upheld" and void.lifted_at


def test_void_player_covers_past_and_future_games(users, staff, winning_line):
    daily, other_daily = make_daily(), make_daily(preset="strict", number=99)
    daily_game(users[0], daily)
    services.player_void(player_id=users[0].pk, reason="multiple accounts", by=staff)
    later = game_services.game_start(player=users[0], daily_id=other_daily.pk)
    game_services.game_resign(game_id=later.pk, player=users[0])
    assert Result.objects.filter(player=users[0], voided=False).count() == 0
    assert period_board(preset=daily.preset, first=None)[0] == period_board(preset="strict", first=None)[0] == 0
    # a game void lifted while the player's void stands keeps the game off the boards
    game_void = services.game_void(game_id=later.pk, reason="also this one")
    services.void_lift(void_id=game_void.pk, reason="covered by the player void")
    assert Result.objects.get(game=later).voided


def test_void_errors(users, winning_line):
    game = daily_game(users[0], make_daily(), 3)
    with pytest.raises(DomainError) as info:
        services.game_void(game_id=game.pk, reason="  ")
    assert info.value.code is Code.REASON_REQUIRED
    services.game_void(game_id=game.pk, reason="x")
    with pytest.raises(DomainError) as info:
        services.game_void(game_id=game.pk, reason="again")
    assert info.value.code is Code.ALREADY_VOID
    with pytest.raises(DomainError) as info:
        services.player_void(player_id=10**9, reason="x")
    assert info.value.code is Code.PLAYER_NOT_FOUND
    assert Void.objects.count() == 1


def test_fair_play_api(users, staff, winning_line):
    game = daily_game(users[0], make_daily(), 3)
    assert (
        client_for(users[1]).post("/api/fair-play/voids/", {"game": game.pk, "reason": "x"}, format="json").status_code
        == 403
    )
    api = client_for(staff)
    assert api.post("/api/fair-play/voids/", {"reason": "x"}, format="json").json()["code"] == "invalid"
    assert api.post("/api/fair-play/voids/", {"game": game.pk}, format="json").status_code == 400
    assert (
        api.post("/api/fair-play/voids/", {"game": 10**9, "reason": "x"}, format="json").json()["code"]
        == "game_not_found"
    )
    created = api.post("/api/fair-play/voids/", {"game": game.pk, "reason": "bot"}, format="json")
    assert created.status_code == 201 and created.json()["voided_by"] == staff.pk
    assert api.post("/api/fair-play/voids/", {"game": game.pk, "reason": "bot"}, format="json").status_code == 409
    listed = api.get("/api/fair-play/voids/").json()
    assert listed["count"] == 1 and [v["reason"] for v in listed["results"]] == ["bot"]
    lift = f"/api/fair-play/voids/{created.json()['id']}/lift/"
    assert api.post(lift, {}, format="json").status_code == 400
    assert api.post(lift, {"reason": "ok"}, format="json").json()["lifted_by"] == staff.pk
    assert api.post(lift, {"reason": "ok"}, format="json").json()["code"] == "already_lifted"
    assert (
        api.post("/api/fair-play/voids/999999/lift/", {"reason": "ok"}, format="json").json()["code"]
        == "void_not_found"
    )


def test_a_practice_game_cannot_be_voided(users, staff):
    """Old: voiding a practice game wrote a void record for a game on no board (and listed it with the
    real voids). Now it is refused as ``not_ranked``, over the API and by the service."""
    practice = game_services.game_start(player=users[0], number=5, rules="one-look")
    answer = client_for(staff).post("/api/fair-play/voids/", {"game": practice.pk, "reason": "x"}, format="json")
    assert answer.status_code == 409 and answer.json()["code"] == "not_ranked"
    with pytest.raises(DomainError) as refused:
        services.game_void(game_id=practice.pk, reason="x", by=staff)
    assert refused.value.code is Code.NOT_RANKED and not Void.objects.exists()


def test_void_command(player, winning_line):
    game = daily_game(player, make_daily(), 4)
    out = io.StringIO()
    call_command("void", "--game", str(game.pk), "--reason", "shared account", stdout=out)
    assert "recorded" in out.getvalue() and Result.objects.get(game=game).voided
    with pytest.raises(CommandError, match="already_void"):
        call_command("void", "--game", str(game.pk), "--reason", "again")
    call_command("void", "--lift", str(Void.objects.get().pk), "--reason", "cleared up", stdout=out)
    assert not Result.objects.get(game=game).voided
    call_command("void", "--player", str(UserFactory().pk), "--reason", "bot", stdout=out)
    assert Void.objects.filter(player__isnull=False).count() == 1


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_void_player_racing_finishing_games_leaves_nothing_on_the_board(winning_line):
    """A player's games finishing while the operator voids the player: whichever commits first,
    no result of theirs stays on the board."""
    cheat = UserFactory()
    dailies = [make_daily(), make_daily(preset="strict", number=99), make_daily(preset="classic", number=98)]
    games = [game_services.game_start(player=cheat, daily_id=d.pk) for d in dailies]
    errors = at_once(
        *[lambda g=g: game_services.game_resign(game_id=g.pk, player=cheat) for g in games],
        lambda: services.player_void(player_id=cheat.pk, reason="race"),
    )
    assert errors == []
    assert Result.objects.filter(player=cheat).count() == 3
    assert not Result.objects.filter(player=cheat, voided=False).exists()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_void_of_a_game_racing_its_resignation_neither_deadlocks_nor_leaves_it_on_the_board():
    """The game's end locks its row, then its player's; the void takes them in the same order, so whichever
    commits first the other waits, and the result ends up off the board (a deadlock would be an error here)."""
    daily = make_daily()
    for _ in range(5):
        cheat = UserFactory()
        game = game_services.game_start(player=cheat, daily_id=daily.pk)
        errors = at_once(
            lambda game=game, cheat=cheat: game_services.game_resign(game_id=game.pk, player=cheat),
            lambda game=game: services.game_void(game_id=game.pk, reason="race"),
        )
        assert errors == []
        assert Result.objects.filter(game=game, voided=True).count() == 1
