"""Pollers' reads answer with an ETag and 304 while nothing changed; any change gives a new ETag; Cache-Control keeps
a signed-in reader's answer private and lets a visitor's board be shared for a few seconds."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games import services as game_services
from tests.support import client_for, daily_game, make_daily

pytestmark = pytest.mark.django_db


def polled(client: APIClient, path: str, etag: str | None = None):
    return client.get(path, HTTP_IF_NONE_MATCH=etag) if etag else client.get(path)


def test_a_game_is_answered_304_until_it_changes(player):
    game = game_services.game_start(player=player, number=5, rules="classic")
    client, path = client_for(player), f"/api/games/{game.pk}/"
    first = polled(client, path)
    etag = first["ETag"]
    assert first.status_code == 200 and etag.startswith('"')
    assert first["Cache-Control"] == "private, no-cache" and "Authorization" in first["Vary"]
    again = polled(client, path, etag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == etag
    game_services.move_submit(game_id=game.pk, player=player, ply=1, move="draw")
    changed = polled(client, path, etag)
    assert changed.status_code == 200 and changed["ETag"] != etag and changed.json()["moves"] == 1
    assert polled(client, path, changed["ETag"]).status_code == 304


def test_a_board_is_public_for_a_few_seconds_to_visitors_and_private_to_players(users, settings):
    settings.PYRAMID_PUBLIC_READ_SECONDS = 7
    daily = make_daily()
    daily_game(users[0], daily)
    path = f"/api/boards/daily/{daily.date.isoformat()}/one-look/"
    visitor = polled(APIClient(), path)
    assert visitor.status_code == 200 and visitor["Cache-Control"] == "public, max-age=0, s-maxage=7"
    assert {"Authorization", "Cookie"} <= {v.strip() for v in visitor["Vary"].split(",")}
    mine = polled(client_for(users[0]), path)
    assert mine["Cache-Control"] == "private, no-cache"
    assert polled(APIClient(), path, visitor["ETag"]).status_code == 304
    daily_game(users[1], daily)  # a result lands: a new board, a new ETag
    fresh = polled(APIClient(), path, visitor["ETag"])
    assert fresh.status_code == 200 and fresh["ETag"] != visitor["ETag"] and fresh.json()["total"] == 2


def test_the_daily_list_and_errors(player):
    listed = polled(APIClient(), "/api/daily/")
    assert listed.status_code == 200 and "ETag" in listed
    assert polled(APIClient(), "/api/daily/", listed["ETag"]).status_code == 304
    missing = client_for(player).get("/api/games/999999/")
    assert missing.status_code == 404 and not missing.has_header("ETag")


def test_a_write_is_never_answered_304(player):
    game = game_services.game_start(player=player, number=5, rules="classic")
    etag = client_for(player).get(f"/api/games/{game.pk}/")["ETag"]
    answer = client_for(player).post(
        f"/api/games/{game.pk}/moves/", {"ply": 1, "move": "draw"}, format="json", HTTP_IF_NONE_MATCH=etag
    )
    assert answer.status_code == 201 and not answer.has_header("ETag")
