"""The OpenAPI schema lists every leaderboards endpoint with its errors; the operators' board command
(the ``void`` command is tested with the voids, in tests/fair_play/)."""

import io

import pytest
from django.core.management import call_command

from leaderboards.models import Result
from tests.support import client_for, daily_game, make_daily

pytestmark = pytest.mark.django_db


def test_schema_lists_the_leaderboards_api(player):
    schema = client_for(player).get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    paths = schema["paths"]
    for path, method in [
        ("/api/boards/daily/{date}/{preset}/", "get"),
        ("/api/boards/weekly/", "get"),
        ("/api/boards/all-time/", "get"),
        ("/api/players/{username}/", "get"),
        ("/api/games/{game_id}/share/", "get"),
        ("/api/clubs/", "post"),
        ("/api/clubs/join/", "post"),
        ("/api/clubs/{club_id}/members/{user_id}/", "delete"),
        ("/api/clubs/{club_id}/tournaments/", "post"),
        ("/api/tournaments/{tournament_id}/standings/", "get"),
        ("/api/tournaments/{tournament_id}/games/", "post"),
        ("/api/fair-play/voids/", "post"),
    ]:
        operation = paths[path][method]
        assert any(code.startswith("4") for code in operation["responses"]), f"{method} {path} lists no error"
    ids = [op["operationId"] for ops in paths.values() for op in ops.values() if isinstance(op, dict)]
    assert len(ids) == len(set(ids))


def test_rebuild_command_restores_lost_results(player, winning_line):
    game = daily_game(player, make_daily(), 6)
    Result.objects.all().delete()
    out = io.StringIO()
    call_command("rebuild_boards", stdout=out)
    assert "results written: 1" in out.getvalue() and Result.objects.get().game == game
