"""A player's statistics (by mode and preset) and calendar of daily results.

The expected figures are worked out here from the games the test plays, by replaying each game's log through
the engine (won, pyramid cleared) and reading its clock, not from the results the service stores."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

import engine
from games import services as game_services
from games.engine_glue import engine_deal, engine_rules
from games.models import Game
from leaderboards.boards.selectors.statistics import calendar_start, player_statistics
from leaderboards.fair_play import services as fair_play
from pyramid_site.clock import day_end, utc_today
from tests.support import (
    PAR,
    WINNABLE_ONE_LOOK,
    WINNING_LINE,
    UserFactory,
    client_for,
    clock_at,
    daily_game,
    during,
    logged,
    make_daily,
    play,
)

# winning lines the solver found (each proved by the engine in ``lines`` before a test relies on it)
CLASSIC_1 = (
    "draw draw draw draw 25+W W draw draw draw draw draw draw 24+W draw draw draw draw draw 23+W W 17+W "
    "draw draw W draw draw draw draw draw draw 22+W 16+18 12+26 draw redeal draw draw draw 11+W 7+19 13+27 "
    "8+21 15+20 10+14 draw draw 9+W 4+5 2+6 3+W draw draw draw 1+W draw draw draw 0+W"
).split()
CLASSIC_3 = (
    "24 22+25 draw 18+W draw draw draw draw draw draw draw draw draw draw 23+W W draw draw draw draw 26+W "
    "draw draw draw 17+W 12 16+19 11+21 7+27 15+20 10+14 6+W draw draw draw draw draw 3+W draw redeal draw "
    "draw draw draw draw draw 13+W 8+W draw draw 4+W 1+9 5+W draw 2+W 0+W"
).split()
# wins deal 9 under relaxed (goal: pyramid); under par (goal: all) it clears the pyramid with 4 cards to go
RELAXED_9 = (
    "21 24 26+S 23+S draw draw draw draw 22+S draw 16+S 17+S S+W 11+S 27+S 20 draw 15+S draw draw draw S "
    "25+S S+W draw draw 18+S redeal draw 12+S 7+19 14+W 10+13 9+S 6+8 5+S 3+4 1+2 draw 0+S"
).split()


@pytest.fixture(scope="module")
def lines():
    for number, preset, line in ((1, "classic", CLASSIC_1), (3, "classic", CLASSIC_3), (9, "relaxed", RELAXED_9)):
        replayed = engine.replay(engine.deal_from_number(number), engine.preset(preset), line)
        assert replayed.ok and replayed.position.status == engine.WON, (number, preset)
    in_par = engine.replay(engine.deal_from_number(9), engine.preset("par"), RELAXED_9).position
    assert in_par.status == engine.PLAYING and in_par.pyramid_left == 0 and in_par.cards_left == 4
    # the one-look line under goal: all clears the pyramid and then sticks with cards left
    custom = engine.replay(
        engine.deal_from_number(WINNABLE_ONE_LOOK), engine.Rules.parse("one-look;goal=all"), WINNING_LINE
    ).position
    assert custom.status == engine.STUCK and custom.pyramid_left == 0 and custom.cards_left > 0
    return True


def day(n: int) -> dt.date:
    return utc_today() - dt.timedelta(days=n)


def closed_game(player, daily, moves: list[str]) -> Game:
    """A daily game still being played when its day ended, closed by the server as it stood."""
    with clock_at(during(daily.date)):
        game = game_services.ranked_game_start(
            player=player, deal=daily.deal, daily=daily, closes_at=day_end(daily.date)
        )
        play(game, moves, resign=False)
    assert game_services.games_close_expired() == 1
    game.refresh_from_db()
    assert game.status == Game.Status.CLOSED
    return game


def practice_game(
    player, number: int, rules: str, moves: list[str], *, resign: bool = True, seconds: float | None = None
) -> Game:
    game = play(game_services.game_start(player=player, number=number, rules=rules), moves, resign=resign)
    if seconds is not None:
        Game.objects.filter(pk=game.pk).update(started_at=game.finished_at - dt.timedelta(seconds=seconds))
        game.refresh_from_db()
    return game


def replayed(game: Game) -> engine.Position:
    log = [move.notation for move in logged(game)]
    return engine.replay(engine_deal(game.deal.text), engine_rules(game.deal.rules), log).position


def expected_figures(games: list[Game]) -> dict:
    """Per preset, from the games themselves: played, won, cleared (the replayed pyramid empty), the fewest
    moves and the shortest time of a win; and the total."""
    by_preset: dict = defaultdict(list)
    for game in games:
        by_preset[game.deal.preset].append(game)
    figures = {}
    for preset, group in by_preset.items():
        wins = [g for g in group if g.status == Game.Status.WON]
        figures[preset] = {
            "preset": preset,
            "played": len(group),
            "won": len(wins),
            "win_rate": round(len(wins) / len(group), 4),
            "cleared": sum(replayed(g).pyramid_left == 0 for g in group),
            "best_moves": min((g.moves for g in wins), default=None),
            "best_seconds": min(((g.finished_at - g.started_at).total_seconds() for g in wins), default=None),
        }
    played = sum(f["played"] for f in figures.values())
    won = sum(f["won"] for f in figures.values())
    total = {
        "played": played,
        "won": won,
        "win_rate": round(won / played, 4) if played else None,
        "cleared": sum(f["cleared"] for f in figures.values()),
    }
    return {"total": total, "presets": figures}


def as_compared(mode: dict) -> dict:
    """The answer's mode in the shape of ``expected_figures`` (seconds to the millisecond, as results keep
    them)."""
    presets = {}
    for row in mode["presets"]:
        presets[row["preset"]] = row | {"best_seconds": row["best_seconds"] and round(row["best_seconds"], 3)}
    return {"total": mode["total"], "presets": presets}


def rounded(expected: dict) -> dict:
    return {
        "total": expected["total"],
        "presets": {
            preset: f | {"best_seconds": f["best_seconds"] and round(f["best_seconds"], 3)}
            for preset, f in expected["presets"].items()
        },
    }


@pytest.fixture
def season(db, lines, winning_line, staff):
    """ann's daily games over eleven days and her practice games; bob's games beside them.

    day  deals                          ann
    10   classic #1                     won (300 s)
     9   classic #3                     won (200 s)
     8   classic #5                     lost: 10 moves, resigned
     7   one-look (winnable), classic #6  one-look won in par (400 s); classic closed at the day's end
     6   par #9                         pyramid cleared, 4 cards left: lost
     5   classic #10                    not played (the streak breaks)
     4   classic #11                    not played
     3   (none)
     2   classic #12                    resigned at once, then void
     1   classic #13                    resigned at once
     0   classic #14, one-look #15      classic resigned after a draw; one-look not played (today is open)
    """
    ann, bob = UserFactory(username="ann"), UserFactory(username="bob")
    dailies = {
        10: [make_daily(date=day(10), preset="classic", number=1)],
        9: [make_daily(date=day(9), preset="classic", number=3)],
        8: [make_daily(date=day(8), preset="classic", number=5)],
        7: [make_daily(date=day(7)), make_daily(date=day(7), preset="classic", number=6)],
        6: [make_daily(date=day(6), preset="par", number=9)],
        5: [make_daily(date=day(5), preset="classic", number=10)],
        4: [make_daily(date=day(4), preset="classic", number=11)],
        2: [make_daily(date=day(2), preset="classic", number=12)],
        1: [make_daily(date=day(1), preset="classic", number=13)],
        0: [make_daily(date=day(0), preset="classic", number=14), make_daily(date=day(0), number=15)],
    }
    ranked = [
        daily_game(ann, dailies[10][0], line=CLASSIC_1, seconds=300),
        daily_game(ann, dailies[9][0], line=CLASSIC_3, seconds=200),
        daily_game(ann, dailies[8][0], line=["draw"] * 10),
        daily_game(ann, dailies[7][0], seconds=400),
        closed_game(ann, dailies[7][1], ["draw", "draw"]),
        daily_game(ann, dailies[6][0], line=RELAXED_9),
        daily_game(ann, dailies[1][0], 0),
        daily_game(ann, dailies[0][0], 1, line=["draw"]),
    ]
    voided = daily_game(ann, dailies[2][0], 0)
    fair_play.game_void(game_id=voided.pk, reason="a test of voids", by=staff)
    practice = [
        practice_game(ann, 3, "classic", CLASSIC_3, seconds=90),
        practice_game(ann, 1, "classic", CLASSIC_1, seconds=75.5),
        practice_game(ann, 5, "classic", ["draw", "draw", "draw"]),
        practice_game(ann, 9, "relaxed", RELAXED_9, seconds=120),
        practice_game(ann, WINNABLE_ONE_LOOK, "one-look;goal=all", WINNING_LINE),  # custom: cleared, stuck
    ]
    practice_game(ann, 5, "classic", ["draw", "draw"], resign=False)  # still being played: not counted
    # bob: a daily win of his own, a loss, and practice; none of it is ann's
    daily_game(bob, dailies[7][0], seconds=50)
    daily_game(bob, dailies[10][0], 3, line=CLASSIC_1)
    practice_game(bob, 3, "classic", CLASSIC_3, seconds=10)
    return {"ann": ann, "bob": bob, "dailies": dailies, "ranked": ranked, "voided": voided, "practice": practice}


def test_statistics_by_mode_and_preset_are_what_the_games_add_up_to(season):
    ann = season["ann"]
    body = client_for(ann).get("/api/players/ann/stats/").json()
    assert body["player"] == {"id": ann.pk, "username": "ann"}
    for game in season["ranked"] + season["practice"]:
        game.refresh_from_db()
    assert as_compared(body["ranked"]) == rounded(expected_figures(season["ranked"]))
    assert as_compared(body["practice"]) == rounded(expected_figures(season["practice"]))
    # the same figures, by hand, for what the replays above might both get wrong
    ranked = {row["preset"]: row for row in body["ranked"]["presets"]}
    assert list(ranked) == ["classic", "one-look", "par"]  # the rule book's order
    assert (ranked["classic"]["played"], ranked["classic"]["won"], ranked["classic"]["cleared"]) == (6, 2, 2)
    assert ranked["classic"]["win_rate"] == round(2 / 6, 4)
    assert ranked["classic"]["best_moves"] == len(CLASSIC_3) and ranked["classic"]["best_seconds"] == 200
    assert ranked["one-look"] == {
        "preset": "one-look",
        "played": 1,
        "won": 1,
        "win_rate": 1.0,
        "cleared": 1,
        "best_moves": PAR,
        "best_seconds": 400,
    }
    assert ranked["par"] == {
        "preset": "par",
        "played": 1,
        "won": 0,
        "win_rate": 0.0,
        "cleared": 1,
        "best_moves": None,
        "best_seconds": None,
    }
    assert body["ranked"]["total"] == {"played": 8, "won": 3, "win_rate": 0.375, "cleared": 4}
    practice = {row["preset"]: row for row in body["practice"]["presets"]}
    assert list(practice) == ["classic", "relaxed", "custom"]
    assert (
        practice["classic"]["played"],
        practice["classic"]["won"],
        practice["classic"]["best_moves"],
        practice["classic"]["best_seconds"],
    ) == (3, 2, len(CLASSIC_3), 75.5)
    assert (practice["custom"]["won"], practice["custom"]["cleared"]) == (0, 1)
    assert body["practice"]["total"] == {"played": 5, "won": 3, "win_rate": 0.6, "cleared": 4}
    # daily streaks: days 10 to 6 (five), broken on day 5 (and day 2's void does not count), days 1 and 0
    assert body["streak"] == {"current": 2, "longest": 5}
    assert body["cleared_streak"] == {"current": 0, "longest": 2}  # days 10-9 and 7-6


def test_practice_figures_are_the_players_alone(season):
    ann = season["ann"]
    mine = client_for(ann).get("/api/players/ann/stats/").json()
    theirs = client_for(season["bob"]).get("/api/players/ann/stats/").json()
    assert mine["practice"] is not None and theirs["practice"] is None
    assert theirs["ranked"] == mine["ranked"] and theirs["streak"] == mine["streak"]
    # bob's own page has his practice, one game of his, none of ann's
    bob_own = client_for(season["bob"]).get("/api/players/bob/stats/").json()
    assert bob_own["practice"]["total"]["played"] == 1
    assert bob_own["ranked"]["total"] == {"played": 2, "won": 1, "win_rate": 0.5, "cleared": 1}


def test_a_player_without_games_has_empty_statistics(player, other_player):
    body = client_for(player).get(f"/api/players/{player.username}/stats/").json()
    empty = {"total": {"played": 0, "won": 0, "win_rate": None, "cleared": 0}, "presets": []}
    assert body["ranked"] == empty and body["practice"] == empty
    assert body["streak"] == {"current": 0, "longest": 0}


def test_statistics_and_calendar_errors(season):
    api = client_for(season["bob"])
    for path in ("/api/players/nobody/stats/", "/api/players/nobody/calendar/"):
        answer = api.get(path)
        assert answer.status_code == 404 and answer.json()["code"] == "player_not_found"
    for months in ("0", "13", "three", "-1"):
        answer = api.get(f"/api/players/ann/calendar/?months={months}")
        assert answer.status_code == 400 and answer.json()["code"] == "bad_parameter", months
    for path in ("/api/players/ann/stats/", "/api/players/ann/calendar/"):  # a visitor reads them (no practice)
        answer = client_for(None).get(path)
        assert answer.status_code == 200 and answer.json() == client_for(season["bob"]).get(path).json()


def test_the_calendar_has_every_day_and_each_daily_deal_with_its_result(season):
    ann, dailies = season["ann"], season["dailies"]
    body = client_for(season["bob"]).get("/api/players/ann/calendar/?months=3").json()
    today = utc_today()
    first = calendar_start(today, 3)
    assert (body["months"], body["first"], body["last"]) == (3, first.isoformat(), today.isoformat())
    dates = [d["date"] for d in body["days"]]
    assert dates == [(first + dt.timedelta(days=n)).isoformat() for n in range((today - first).days + 1)]
    by_date = {d["date"]: {deal["preset"]: deal for deal in d["deals"]} for d in body["days"]}
    # every day but the eleven of the season has no daily deal (those before day 10 of them, if in range)
    assert all(deals == {} for date, deals in by_date.items() if dt.date.fromisoformat(date) < day(10))
    expected = {
        10: {"classic": "won"},
        9: {"classic": "won"},
        8: {"classic": "lost"},
        7: {"classic": "lost", "one-look": "won"},
        6: {"par": "lost"},
        5: {"classic": "not_played"},
        4: {"classic": "not_played"},
        3: {},
        2: {"classic": "not_played"},
        1: {"classic": "lost"},
        0: {"classic": "lost", "one-look": "not_played"},
    }
    assert {n: {p: deal["outcome"] for p, deal in by_date[day(n).isoformat()].items()} for n in expected} == expected
    assert list(by_date[day(7).isoformat()]) == ["classic", "one-look"]  # presets in the rule book's order
    # a result's figures are its game's
    games = {g.daily_id: g for g in Game.objects.filter(player=ann, mode=Game.Mode.RANKED)}
    for n in expected:
        for preset, deal in by_date[day(n).isoformat()].items():
            daily = next(d for d in dailies[n] if d.preset == preset)
            game = games.get(daily.pk)
            if deal["outcome"] == "not_played":
                assert deal == {
                    "preset": preset,
                    "outcome": "not_played",
                    "game": None,
                    "cleared": None,
                    "cards_left": None,
                    "moves": None,
                    "seconds": None,
                }
                continue
            position = replayed(game)
            assert deal["outcome"] == ("won" if game.status == Game.Status.WON else "lost")
            assert deal == {
                "preset": preset,
                "outcome": deal["outcome"],
                "game": game.pk,
                "cleared": position.pyramid_left == 0,
                "cards_left": position.cards_left,
                "moves": game.moves,
                "seconds": deal["seconds"],
            }
            assert deal["seconds"] == pytest.approx((game.finished_at - game.started_at).total_seconds(), abs=0.001)
    assert by_date[day(6).isoformat()]["par"]["cleared"] is True  # cleared, not won
    assert by_date[day(6).isoformat()]["par"]["cards_left"] == 4


def test_the_calendar_months(season):
    api = client_for(season["ann"])
    today = utc_today()
    one = api.get("/api/players/ann/calendar/?months=1").json()
    assert one["first"] == today.replace(day=1).isoformat() and len(one["days"]) == today.day
    default = api.get("/api/players/ann/calendar/").json()
    assert default["months"] == 3 and default["first"] == calendar_start(today, 3).isoformat()
    assert len(api.get("/api/players/ann/calendar/?months=12").json()["days"]) > 300


@pytest.mark.parametrize(
    ("today", "months", "first"),
    [
        (dt.date(2026, 6, 10), 1, dt.date(2026, 6, 1)),
        (dt.date(2026, 6, 10), 3, dt.date(2026, 4, 1)),
        (dt.date(2026, 2, 28), 2, dt.date(2026, 1, 1)),
        (dt.date(2026, 2, 28), 3, dt.date(2025, 12, 1)),
        (dt.date(2026, 1, 31), 12, dt.date(2025, 2, 1)),
        (dt.date(2026, 12, 31), 12, dt.date(2026, 1, 1)),
    ],
)
def test_calendar_start(today, months, first):
    assert calendar_start(today, months) == first


def test_statistics_take_the_same_few_queries_however_many_games(season):
    """Each mode is one grouped query and the calendar one join, whatever the number of games."""
    ann = season["ann"]

    def queries(call) -> int:
        with CaptureQueriesContext(connection) as seen:
            call()
        return len(seen)

    stats = lambda: player_statistics(player=ann, viewer=ann)  # noqa: E731
    calendar = lambda: client_for(ann).get("/api/players/ann/calendar/?months=12")  # noqa: E731
    before = (queries(stats), queries(calendar))
    assert before[0] == 3  # ranked, practice, streaks
    for number in range(20, 30):
        practice_game(ann, number, "relaxed", [], resign=True)
    for n in range(11, 21):
        daily_game(ann, make_daily(date=day(n), preset="classic", number=100 + n), 0)
    assert (queries(stats), queries(calendar)) == before
    assert player_statistics(player=ann, viewer=ann).practice.total.played == 15
