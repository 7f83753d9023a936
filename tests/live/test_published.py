"""What the services publish, once their change is committed, and only what each stream's readers may see: a
game's moves, undo and end to its player; joins and standings to a tournament's members; results to a daily board,
never one held off it; names and counts, never a card."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace

import pytest
from django.utils import timezone

from games import services as game_services
from games.live import game_channel
from leaderboards.boards.live import board_channel
from leaderboards.clubs import services as clubs
from leaderboards.fair_play.models import Void
from leaderboards.models import Tournament, TournamentDeal
from leaderboards.tournaments import services
from leaderboards.tournaments.live import tournament_channel
from leaderboards.tournaments.services import tournaments
from pyramid_site.errors import DomainError
from pyramid_site.live.bus import bus
from tests.support import UserFactory, client_for, daily_game, make_daily, winnable_deal

from .conftest import collect

# committed at once: what is published after commit is published in the test's own time
pytestmark = pytest.mark.django_db(transaction=True)
HOUR = dt.timedelta(hours=1)


def events(channel: str) -> list[dict]:
    return [d.event for d in collect(bus(), channel) if d.event is not None]


def test_a_games_moves_undo_and_end_are_published_and_a_refused_move_is_not(player, winning_line):
    game = game_services.game_start(player=player, number=5, rules="classic")
    position = game_services.move_submit(game_id=game.pk, player=player, ply=1, move="draw").position
    with pytest.raises(DomainError):
        game_services.move_submit(game_id=game.pk, player=player, ply=2, move="1+2")  # illegal: nothing written
    game_services.move_submit(game_id=game.pk, player=player, ply=1, move="draw")  # a retry: nothing new
    game_services.game_undo(game_id=game.pk, player=player)
    game_services.game_resign(game_id=game.pk, player=player)
    got = events(game_channel(game.pk))
    assert [(e["type"], e["moves"], e["game_version"]) for e in got] == [("move", 1, 1), ("undo", 0, 2), ("over", 0, 3)]
    assert got[0]["move"] == "draw" and got[0]["ply"] == 1 and got[0]["cards_left"] == position.cards_left
    assert got[-1]["status"] == "resigned"


@pytest.fixture
def cup(users, monkeypatch):
    """A match of one deal, running, its deal fixed as the preparation job would (not run here)."""
    monkeypatch.setattr(tournaments, "settle_sequence", SimpleNamespace(delay=lambda *args: None))
    club = clubs.club_create(user=users[0], name="Live Club")
    for user in users[1:4]:
        clubs.club_join(user=user, invite_code=club.invite_code)
    now = timezone.now()
    cup = services.tournament_create(
        actor=users[0],
        club_id=club.pk,
        name="Live Cup",
        rules="one-look",
        format="match",
        starts_at=now - HOUR,
        ends_at=now + HOUR,
    )
    TournamentDeal.objects.create(tournament=cup, index=0, deal=winnable_deal())
    Tournament.objects.filter(pk=cup.pk).update(status=Tournament.Status.READY, deal_count=1)
    return cup


def test_joins_and_standings_are_published_with_counts_and_names_only(cup, users, winning_line):
    services.tournament_join(user=users[1], tournament_id=cup.pk)
    services.tournament_join(user=users[2], tournament_id=cup.pk)
    game = services.tournament_game_start(user=users[1], tournament_id=cup.pk)
    for ply, move in enumerate(winning_line, start=1):
        game_services.move_submit(game_id=game.pk, player=users[1], ply=ply, move=move)
    got = events(tournament_channel(cup.pk))
    assert [(e["type"], e["player"]["username"]) for e in got] == [
        ("joined", users[1].username),
        ("standing", users[1].username),
        ("joined", users[2].username),
        ("standing", users[2].username),
        ("standing", users[1].username),
    ]
    last = got[-1]
    assert (last["games"], last["cleared"], last["cards_left"], last["moves"]) == (1, 1, 0, len(winning_line))
    # what the standings show, nothing of the deal: the keys are the standing's
    assert set(last) == {
        "type",
        "version",
        "tournament",
        "player",
        "score",
        "games",
        "cleared",
        "cards_left",
        "moves",
        "seconds",
        "streak",
    }
    assert standing_row(users[3], cup, users[1])["cards_left"] == last["cards_left"]


def standing_row(viewer, cup, player) -> dict:
    rows = client_for(viewer).get(f"/api/tournaments/{cup.pk}/standings/").json()["results"]
    return next(row for row in rows if row["player"]["id"] == player.pk)


def test_results_land_on_the_board_stream_and_one_held_off_the_board_does_not(users, winning_line):
    daily = make_daily()
    daily_game(users[0], daily)
    Void.objects.create(player=users[1], reason="tested")
    daily_game(users[1], daily)
    daily_game(users[2], daily, moves=3)
    got = events(board_channel(daily.date, "one-look"))
    assert [(e["player"]["username"], e["won"]) for e in got] == [(users[0].username, True), (users[2].username, False)]
    assert set(got[0]) == {"type", "version", "date", "preset", "player", "cards_left", "moves", "seconds", "won"}


def test_the_streams_refuse_as_the_reads_they_follow(cup, users):
    outsider = UserFactory()
    refused = client_for(outsider).get(f"/api/tournaments/{cup.pk}/events/")
    assert refused.status_code == 403 and refused.json()["code"] == "not_member"
    future = (timezone.now() + 3 * 24 * HOUR).date().isoformat()
    missing = client_for(None).get(f"/api/boards/daily/{future}/one-look/events/")
    assert missing.status_code == 404 and missing.json()["code"] == "daily_not_found"
    posted = client_for(users[1]).post(f"/api/tournaments/{cup.pk}/events/")
    assert posted.status_code == 405 and posted.json()["code"] == "method_not_allowed"


def test_a_wsgi_server_refuses_a_stream_it_could_never_end(cup, users):
    """Django's test client is a WSGI request, as gunicorn's: the stream is for the ASGI process."""
    answer = client_for(users[1]).get(f"/api/tournaments/{cup.pk}/events/")
    assert answer.status_code == 503 and answer.json()["code"] == "live_unavailable"
