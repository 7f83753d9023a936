"""Most leaderboards answers are produced by the serializers that declare them (a club, a member, a tournament
with my entry and its changes, a change, statistics, a joined entry, a window change). The ones still built by
hand for speed, being long lists (board rows, standings rows, a player's page with its history, a calendar),
are held equal to their serializers here: each answer as its view hands it to the JSON encoder prints the same
JSON once its serializer has serialized it again, key order included."""

import json

import pytest
from rest_framework.utils.encoders import JSONEncoder

from leaderboards.boards.api.output import (
    DailyBoardOutput,
    PeriodRowOutput,
    PlayerCalendarOutput,
    PlayerPageOutput,
    PlayerStatisticsOutput,
)
from leaderboards.clubs import services
from leaderboards.clubs.api.output import ClubOutput, MemberOutput
from leaderboards.tournaments import services as tournament_services
from leaderboards.tournaments.api.output import StandingOutput, TournamentDetailOutput, WindowChangeOutput
from tests.leaderboards.test_tournaments import create, ready, tournament_game
from tests.support import WINNABLE_ONE_LOOK, client_for, daily_game, make_daily

pytestmark = pytest.mark.django_db


def wire(data) -> str:
    return json.dumps(data, cls=JSONEncoder)


def assert_declared(output, data) -> None:
    assert wire(data) == wire(output(data).data)


def test_the_hand_built_leaderboards_answers_are_the_declared_ones(users, winning_line):
    daily = make_daily()
    for user, (moves, seconds) in zip(users, [(None, 100), (20, 30), (5, 10), (0, 10)], strict=False):
        daily_game(user, daily, moves, seconds=seconds)
    me = client_for(users[1])
    board = me.get(f"/api/boards/daily/{daily.date.isoformat()}/{daily.preset}/").data
    assert board["total"] == 4 and board["me"]["rank"] == 2 and board["top"][0]["par_text"] is not None
    assert_declared(DailyBoardOutput, board)
    for kind in ("all-time", "weekly"):
        page = me.get(f"/api/boards/{kind}/?preset={daily.preset}").data
        assert len(page["results"]) == 4 and page["me"]["player"]["id"] == users[1].pk
        for row in [*page["results"], page["me"], *page["around"]]:
            assert_declared(PeriodRowOutput, row)

    club = services.club_create(user=users[0], name="Declared Club")
    for user in users[1:3]:
        services.club_join(user=user, invite_code=club.invite_code)
    owner = client_for(users[0])
    assert "invite_code" in owner.get(f"/api/clubs/{club.pk}/").data
    assert "invite_code" not in me.get(f"/api/clubs/{club.pk}/").data
    for answer in (owner.get(f"/api/clubs/{club.pk}/").data, me.get(f"/api/clubs/{club.pk}/").data):
        assert_declared(ClubOutput, answer)
    for member in owner.get(f"/api/clubs/{club.pk}/members/").data["results"]:
        assert_declared(MemberOutput, member)

    player = me.get(f"/api/players/{users[1].username}/").data
    assert player["history"] and player["clubs"][0]["role"] == "member"
    assert_declared(PlayerPageOutput, player)
    assert_declared(PlayerStatisticsOutput, me.get(f"/api/players/{users[1].username}/stats/").data)
    calendar = me.get(f"/api/players/{users[1].username}/calendar/?months=1").data
    assert any(deal["outcome"] == "lost" for day in calendar["days"] for deal in day["deals"])
    assert_declared(PlayerCalendarOutput, calendar)

    cup = ready(create(users[0], club), [WINNABLE_ONE_LOOK, 11])
    for user in users[1:3]:
        tournament_services.tournament_join(user=user, tournament_id=cup.pk)
    tournament_game(users[1], cup, 0, winning_line)
    tournament_game(users[2], cup, 0, winning_line)
    services.member_role_set(actor=users[0], club_id=club.pk, user_id=users[2].pk, role="admin")  # a change
    detail = me.get(f"/api/tournaments/{cup.pk}/").data
    assert any(deal["game"] for deal in detail["me"]["deals"]) and detail["changes"]
    assert_declared(TournamentDetailOutput, detail)
    standings = me.get(f"/api/tournaments/{cup.pk}/standings/").data
    assert sorted(row["player"]["id"] for row in standings["results"]) == [users[1].pk, users[2].pk]
    for row in standings["results"]:
        assert_declared(StandingOutput, row)
    for change in standings["window_changes"]:
        assert_declared(WindowChangeOutput, change)
