"""Property: on any board, with any ties, every player's rank and neighbourhood (from the board's
counts) and the top (from the index) agree with ranks counted the plain way."""

import datetime as dt
import itertools

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Game
from leaderboards.boards.selectors.boards import daily_board
from leaderboards.boards.services import board_counts_rebuild, period_standings_rebuild
from leaderboards.models import Club, Membership, Result
from pyramid_site.clock import utc_today
from tests.support import UserFactory, make_daily

pytestmark = pytest.mark.django_db
DAY = itertools.count(1)

# few distinct values, so that ties of every kind (whole key, cards and moves only) are common
results_strategy = st.lists(
    st.tuples(st.integers(0, 3), st.integers(30, 32), st.integers(1000, 1002)), min_size=1, max_size=14
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(keys=results_strategy, limit=st.integers(1, 6), around=st.integers(0, 3))
def test_ranks_agree_with_counting(db, keys, limit, around):
    daily = make_daily(date=utc_today() - dt.timedelta(days=next(DAY)), number=next(DAY) + 10**6)
    now = timezone.now()
    rows = []
    for cards_left, moves, ms in keys:
        player = UserFactory()
        game = Game.objects.create(
            player=player,
            deal=daily.deal,
            daily=daily,
            mode="ranked",
            status="stuck",
            state="-",
            moves=moves,
            cards_left=cards_left,
            started_at=now,
            finished_at=now,
            move_log=b"\x01" * moves,
        )  # the board reads no move, only the count
        rows.append(
            Result.objects.create(
                game=game,
                player=player,
                deal=daily.deal,
                daily=daily,
                date=daily.date,
                preset=daily.preset,
                cards_left=cards_left,
                pyramid_left=cards_left,
                moves=moves,
                duration_ms=ms,
                cleared=cards_left == 0,
                won=False,
                match_score=0,
                started_at=now,
                finished_at=now,
            )
        )
    board_counts_rebuild(daily_id=daily.pk)
    period_standings_rebuild()
    truth = {
        r.player_id: 1
        + sum((o.cards_left, o.moves, o.duration_ms) < (r.cards_left, r.moves, r.duration_ms) for o in rows)
        for r in rows
    }
    top = daily_board(daily=daily, limit=limit, use_cache=False)
    assert top.total == len(rows)
    assert [row.rank for row in top.top] == sorted(truth.values())[:limit]
    assert all(truth[row.result.player_id] == row.rank for row in top.top)
    for result in rows:
        board = daily_board(daily=daily, player=result.player, limit=limit, around=around, use_cache=False)
        assert board.me.rank == truth[result.player_id]
        assert all(truth[row.result.player_id] == row.rank for row in board.around)
        position = [row.result for row in board.around].index(board.me.result)
        assert position == min(
            around,
            sum(
                1
                for r in rows
                if (r.cards_left, r.moves, r.duration_ms, r.pk)
                < (result.cards_left, result.moves, result.duration_ms, result.pk)
            ),
        )
    # a club of every other player: its board ranks its members among themselves
    club = Club.objects.create(name=f"Club {daily.pk}", invite_code=f"code{daily.pk}")
    members = rows[::2]
    Membership.objects.bulk_create(Membership(club=club, user_id=r.player_id) for r in members)
    among = {
        r.player_id: 1
        + sum((o.cards_left, o.moves, o.duration_ms) < (r.cards_left, r.moves, r.duration_ms) for o in members)
        for r in members
    }
    for result in rows[:4]:
        board = daily_board(daily=daily, player=result.player, limit=limit, around=around, club_id=club.pk)
        assert board.total == len(members)
        assert [row.rank for row in board.top] == sorted(among.values())[:limit]
        assert all(among[row.result.player_id] == row.rank for row in [*board.top, *board.around])
        assert (board.me.rank == among[result.player_id]) if result in members else board.me is None
