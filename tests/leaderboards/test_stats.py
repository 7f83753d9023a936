"""Weekly and all-time boards, streaks and the player's page."""

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from leaderboards.boards.selectors.stats import period_board, week_of
from leaderboards.boards.streaks import streak_of
from pyramid_site.clock import utc_today
from tests.support import PAR, UserFactory, client_for, daily_game, make_daily, result_of

TODAY = dt.date(2026, 6, 10)


def test_streaks_by_hand():
    d = lambda n: TODAY - dt.timedelta(days=n)  # noqa: E731
    assert streak_of([], today=TODAY) == (0, 0)
    assert streak_of([d(0), d(1), d(2), d(5)], today=TODAY) == (3, 3)
    assert streak_of([d(1), d(2)], today=TODAY) == (2, 2)  # today not played yet: still alive
    assert streak_of([d(2), d(3), d(4), d(9)], today=TODAY) == (0, 3)  # yesterday missed: broken
    assert streak_of([d(0), d(0), d(1)], today=TODAY) == (2, 2)


@given(st.sets(st.integers(min_value=0, max_value=60), max_size=40))
def test_streaks_match_a_day_by_day_count(offsets):
    days = [TODAY - dt.timedelta(days=n) for n in offsets]
    streak = streak_of(days, today=TODAY)
    # longest: the longest run of offsets n, n+1, ..., checked by walking every start
    longest = max((next(k for k in range(62) if n + k not in offsets) for n in offsets), default=0)
    start = 0 if 0 in offsets else 1
    current = next(k for k in range(62) if start + k not in offsets) if start in offsets else 0
    assert (streak.current, streak.longest) == (current, longest)


def test_week_is_monday_to_sunday():
    assert week_of(dt.date(2026, 11, 30)) == (dt.date(2026, 11, 30), dt.date(2026, 12, 6))
    assert week_of(dt.date(2026, 12, 6)) == (dt.date(2026, 11, 30), dt.date(2026, 12, 6))


@pytest.fixture
def week(db, winning_line):
    """Three players over three days of one-look daily deals."""
    today = utc_today()
    dailies = [
        make_daily(date=today - dt.timedelta(days=n))
        if n == 0
        else make_daily(date=today - dt.timedelta(days=n), number=1000 + n)
        for n in range(3)
    ]
    # the older dailies reuse the winnable deal's line only on the winnable deal itself, so they
    # are played a little and resigned
    ann, bob, cid = UserFactory(username="ann"), UserFactory(username="bob"), UserFactory(username="cid")
    daily_game(ann, dailies[0])  # a win at par
    daily_game(ann, dailies[1], 0)
    daily_game(ann, dailies[2], 0)
    daily_game(bob, dailies[0], 20)
    daily_game(bob, dailies[1], 0)
    daily_game(cid, dailies[0], 8)
    return dailies, (ann, bob, cid)


def test_all_time_board_formulas(week):
    _dailies, (ann, _bob, _cid) = week
    total, rows = period_board(preset="one-look", first=None)
    assert total == 3
    by_name = {row["username"]: row for row in rows}
    ann_results = [result_of(g) for g in ann.games.all()]
    assert by_name["ann"]["played"] == 3 and by_name["ann"]["cleared"] == 1 and by_name["ann"]["at_par"] == 1
    assert by_name["ann"]["cards_total"] == sum(r.cards_left for r in ann_results)
    assert by_name["ann"]["best_cards_left"] == 0 and by_name["ann"]["best_moves_won"] == PAR
    assert by_name["ann"]["rank"] == 1  # the only clear
    assert (by_name["ann"]["streak"].current, by_name["ann"]["streak"].longest) == (3, 3)
    assert (by_name["ann"]["cleared_streak"].current, by_name["bob"]["streak"].current) == (1, 2)
    # bob and cid cleared nothing and have no result at par: fewer cards left in total ranks first
    order = sorted(["bob", "cid"], key=lambda n: by_name[n]["cards_total"])
    assert [by_name[n]["rank"] for n in order] == [2, 3]


def test_weekly_board_api_and_its_window(week):
    dailies, (_ann, _bob, cid) = week
    today = utc_today()
    body = client_for(cid).get("/api/boards/weekly/?preset=one-look").json()
    first, last = week_of(today)
    assert body["first"] == first.isoformat() and body["last"] == last.isoformat()
    played_this_week = sum(1 for d in dailies if first <= d.date <= last)
    assert body["preset"] == "one-look" and body["count"] == 3
    assert body["results"][0]["player"]["username"] == "ann"
    assert body["results"][0]["played"] == played_this_week
    assert body["results"][0]["best"] == {"cards_left": 0, "moves_when_won": PAR}
    old = client_for(cid).get("/api/boards/weekly/?preset=one-look&week=2020-01-01").json()
    assert old["count"] == 0 and old["results"] == []
    assert client_for(cid).get("/api/boards/weekly/?week=soon").json()["code"] == "bad_date"
    second = client_for(cid).get("/api/boards/all-time/?preset=one-look&limit=1&offset=1").json()
    assert second["count"] == 3 and [row["rank"] for row in second["results"]] == [2]
    assert second["next"] is not None and second["previous"] is not None


def test_player_page(week):
    dailies, (_ann, bob, _cid) = week
    body = client_for(bob).get("/api/players/ann/").json()
    assert body["stats"]["played"] == 3 and body["stats"]["cleared"] == 1 and body["stats"]["at_par"] == 1
    assert body["streak"] == {"current": 3, "longest": 3}
    assert body["cleared_streak"] == {"current": 1, "longest": 1}
    assert [h["date"] for h in body["history"]] == [d.date.isoformat() for d in dailies]
    assert body["history"][0]["par_text"] == "par"
    assert client_for(bob).get("/api/players/nobody/").json()["code"] == "player_not_found"
