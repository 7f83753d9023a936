"""The weekly and all-time boards read from standings kept as results land: after any mix of results and voids,
every standing is what the results sum to (docs/leaderboards.md, "Board formulas"), and every rank on the API's
pages, my row and the rows around it is one more than the players strictly ahead, counted here player by player."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Game
from leaderboards.boards.selectors.stats import week_of
from leaderboards.boards.services.period_standings import period_standings_follow
from leaderboards.fair_play.services import game_void, void_lift
from leaderboards.models import Club, Membership, Result
from pyramid_site.clock import utc_today
from tests.support import UserFactory, client_for, make_daily, standings_stored, standings_summed

pytestmark = pytest.mark.rows_edited_behind_the_services  # the games are rows made here, not played
NUMBERS = itertools.count(5_000_000)
RESULT = st.tuples(
    st.integers(0, 5),  # player
    st.integers(0, 9),  # days ago
    st.sampled_from([0, 0, 0, 1, 4, 12, 30]),  # cards left (0: won)
    st.integers(25, 45),  # moves
    st.booleans(),
)  # voided afterwards


def _result(player, daily, cards_left: int, moves: int) -> Result:
    now = timezone.now()
    game = Game.objects.create(
        player=player,
        deal=daily.deal,
        daily=daily,
        mode="ranked",
        status="won" if cards_left == 0 else "stuck",
        state="-",
        moves=moves,
        cards_left=cards_left,
        started_at=now,
        finished_at=now,
        move_log=b"\x01" * moves,
    )
    result = Result.objects.create(
        game=game,
        player=player,
        deal=daily.deal,
        daily=daily,
        date=daily.date,
        preset=daily.preset,
        cards_left=cards_left,
        pyramid_left=min(cards_left, 28) if cards_left > 2 else 0,
        moves=moves,
        duration_ms=60_000,
        cleared=cards_left <= 2,
        won=cards_left == 0,
        match_score=0,
        par_moves=33,
        started_at=now,
        finished_at=now,
    )
    period_standings_follow(None, result)  # as the result service does for a new result
    return result


def _reference_ranks(figures: dict, kind: str, starts: dt.date, preset: str) -> dict[int, int]:
    """Each player's rank on one board: 1 + the players strictly ahead by the order of docs/leaderboards.md."""
    board = {key[3]: f for key, f in figures.items() if key[:3] == (kind, starts, preset)}
    order = {player: (-f[1], -f[3], f[4], -f[0]) for player, f in board.items()}
    return {player: 1 + sum(other < mine for other in order.values()) for player, mine in order.items()}


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(results=st.lists(RESULT, min_size=1, max_size=25), limit=st.integers(1, 4), around=st.integers(0, 2))
def test_boards_from_standings_agree_with_counting(db, staff, results, limit, around):
    with transaction.atomic():  # each example from an empty board
        _check_boards(staff, results, limit, around)
        transaction.set_rollback(True)


def _check_boards(staff, results, limit: int, around: int) -> None:
    players = [UserFactory() for _ in range(6)]
    today = utc_today()
    dailies = {}
    made = []
    for player, days_ago, cards_left, moves, voided in results:
        if days_ago not in dailies:
            dailies[days_ago] = make_daily(date=today - dt.timedelta(days=days_ago), number=next(NUMBERS))
        daily = dailies[days_ago]
        if Result.objects.filter(player=players[player], daily=daily).exists():
            continue  # one ranked game a player and deal
        made.append((_result(players[player], daily, cards_left, moves), voided))
    voids = [game_void(game_id=result.game_id, reason="checked", by=staff) for result, voided in made if voided]
    for void in voids[::2]:
        void_lift(void_id=void.pk, reason="cleared", by=staff)
    figures = standings_summed()
    assert standings_stored() == figures

    monday = week_of(today)[0]
    for path, kind, starts in [
        ("/api/boards/weekly/", "week", monday),
        ("/api/boards/all-time/", "all", dt.date(1970, 1, 1)),
    ]:
        truth = _reference_ranks(figures, kind, starts, "one-look")
        for player in players[:3]:
            body = client_for(player).get(f"{path}?preset=one-look&limit={limit}&offset=1&around={around}").json()
            assert body["count"] == len(truth)
            assert all(row["rank"] == truth[row["player"]["id"]] for row in body["results"])
            ranked = sorted(truth.values())
            assert [row["rank"] for row in body["results"]] == ranked[1 : 1 + limit]
            if player.pk in truth:
                assert body["me"]["rank"] == truth[player.pk] and body["me"]["player"]["id"] == player.pk
                assert all(row["rank"] == truth[row["player"]["id"]] for row in body["around"])
                assert len(body["around"]) == min(len(truth), 1 + 2 * around) or len(body["around"]) > around
            else:
                assert body["me"] is None and body["around"] == []

    # a club of every other player: its part of each board, ranked among its members
    club = Club.objects.create(name=f"Club {players[0].pk}", invite_code=f"code{players[0].pk}")
    Membership.objects.bulk_create(Membership(club=club, user=player) for player in players[::2])
    members = {player.pk for player in players[::2]}
    for path, kind, starts in [
        ("/api/boards/weekly/", "week", monday),
        ("/api/boards/all-time/", "all", dt.date(1970, 1, 1)),
    ]:
        among = _reference_ranks({k: f for k, f in figures.items() if k[3] in members}, kind, starts, "one-look")
        body = client_for(players[0]).get(f"{path}?preset=one-look&club={club.pk}&around={around}").json()
        assert body["count"] == len(among)
        assert [(row["player"]["id"], row["rank"]) for row in body["results"]] == sorted(
            among.items(), key=lambda item: (item[1], item[0])
        )[:50] or body["count"] == 0
        if players[0].pk in among:
            assert body["me"]["rank"] == among[players[0].pk]
            assert all(row["rank"] == among[row["player"]["id"]] for row in body["around"])
