"""The measurements of ``million_day.py measure``: every read a player makes, through the views themselves with
the player authenticated (median and p95 over random players of today), and the jobs, at the size ``fill`` wrote.
The daily boards' Redis copies go to Redis database 5 of ``--redis`` (nothing else is written there)."""

from __future__ import annotations

import os
import random
import statistics
import threading
import time


def _percentiles(samples: list[float]) -> dict:
    ordered = sorted(samples)
    return {
        "median_ms": round(statistics.median(ordered) * 1000, 2),
        "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 2),
        "n": len(ordered),
    }


def measure(args) -> dict:
    from django.contrib.auth import get_user_model
    from django.db import connection

    from games.models import DailyDeal
    from leaderboards.models import Tournament
    from pyramid_site.clock import utc_today

    rng = random.Random(args.seed)
    daily = DailyDeal.objects.get(date=utc_today(), preset="classic")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT player_id FROM leaderboards_result WHERE daily_id = %s ORDER BY random() LIMIT %s",
            [daily.pk, args.samples],
        )
        players = list(get_user_model().objects.filter(pk__in=[r[0] for r in cursor.fetchall()]))
    with connection.cursor() as cursor:  # club members who played today, of clubs big and small
        cursor.execute(
            """SELECT m.user_id, m.club_id FROM leaderboards_membership m
                          JOIN leaderboards_result r ON r.player_id = m.user_id AND r.daily_id = %s
                          ORDER BY random() LIMIT %s""",
            [daily.pk, args.samples // 2],
        )
        clubs_of = dict(cursor.fetchall())
    players += list(get_user_model().objects.filter(pk__in=list(clubs_of)))
    tournaments = list(Tournament.objects.values_list("pk", flat=True))
    jobs: dict = {}
    parts = set(args.only.split(","))
    reads: dict = {}
    if "reads" in parts:
        reads = measure_reads(args, daily, players, clubs_of, tournaments, jobs, rng)
    if "boards" in parts:  # the weekly and all-time boards alone
        reads = measure_reads(args, daily, players, clubs_of, [], jobs, rng, only_periods=True)
    if "jobs" in parts:
        measure_jobs(jobs)
    if "recheck" in parts:
        jobs.update(recheck(args, daily))
    if "finishers" in parts:
        jobs.update(finishing_moves(args, daily))
    return {"reads": reads, "jobs": jobs}


def measure_reads(args, daily, players, clubs_of, tournaments, jobs, rng, only_periods: bool = False) -> dict:
    from django.contrib.auth import get_user_model
    from rest_framework.test import APIRequestFactory, force_authenticate

    from leaderboards.boards.api import views as board_views
    from leaderboards.boards.selectors.boards import daily_board
    from leaderboards.boards.services import board_cache_rebuild
    from leaderboards.models import Membership
    from leaderboards.tournaments.api import views as tournament_views

    factory = APIRequestFactory()
    figures: dict = {}

    def read(name: str, view, path: str, user, **kwargs) -> None:
        request = factory.get(path, HTTP_ACCEPT="application/json")
        force_authenticate(request, user=user)
        started = time.perf_counter()
        response = view(request, **kwargs)
        response.render()
        elapsed = time.perf_counter() - started
        assert response.status_code == 200, (name, response.status_code, response.content[:300])
        figures.setdefault(name, []).append(elapsed)

    daily_view = board_views.DailyBoardView.as_view()
    weekly_view = board_views.WeeklyBoardView.as_view()
    all_time_view = board_views.AllTimeBoardView.as_view()
    player_view = board_views.PlayerView.as_view()
    stats_view = board_views.PlayerStatisticsView.as_view()
    calendar_view = board_views.PlayerCalendarView.as_view()
    standings_view = tournament_views.StandingsView.as_view()
    cached = False
    if not only_periods:
        started = time.perf_counter()
        cached = board_cache_rebuild(daily_id=daily.pk)
        jobs["board cache rebuild, today's board (the hourly job's work a board)"] = round(
            time.perf_counter() - started, 2
        )
    day = daily.date.isoformat()
    for round_ in ("warm", "timed"):
        for user in players:
            if only_periods:
                read("weekly board", weekly_view, "/api/boards/weekly/?preset=classic", user)
                read("all-time board", all_time_view, "/api/boards/all-time/?preset=classic", user)
                continue
            club = clubs_of.get(user.pk)
            read(
                "daily board (Redis copy)" if cached else "daily board",
                daily_view,
                f"/api/boards/daily/{day}/classic/",
                user,
                date=day,
                preset="classic",
            )
            read("weekly board", weekly_view, "/api/boards/weekly/?preset=classic", user)
            read("all-time board", all_time_view, "/api/boards/all-time/?preset=classic", user)
            if club is not None:
                read(
                    "club's daily board",
                    daily_view,
                    f"/api/boards/daily/{day}/classic/?club={club}",
                    user,
                    date=day,
                    preset="classic",
                )
                read("club's weekly board", weekly_view, f"/api/boards/weekly/?preset=classic&club={club}", user)
            read("player page", player_view, f"/api/players/{user.username}/", user, username=user.username)
            read("player statistics", stats_view, f"/api/players/{user.username}/stats/", user, username=user.username)
            read(
                "player calendar",
                calendar_view,
                f"/api/players/{user.username}/calendar/",
                user,
                username=user.username,
            )
        for _ in players[:50] if tournaments else []:
            tournament = rng.choice(tournaments)
            owner = (
                Membership.objects.filter(club__tournaments=tournament, role="owner")
                .values_list("user", flat=True)
                .first()
            )
            read(
                "tournament standings",
                standings_view,
                f"/api/tournaments/{tournament}/standings/",
                get_user_model().objects.get(pk=owner),
                tournament_id=tournament,
            )
        if round_ == "warm":
            figures.clear()
    for user in players[:100]:  # the same board from PostgreSQL alone (Redis gone)
        started = time.perf_counter()
        daily_board(daily=daily, player=user, use_cache=False)
        figures.setdefault("daily board (PostgreSQL, selector)", []).append(time.perf_counter() - started)
    if not only_periods:
        for user in players[:100]:  # the same board from PostgreSQL alone (Redis gone)
            started = time.perf_counter()
            daily_board(daily=daily, player=user, use_cache=False)
            figures.setdefault("daily board (PostgreSQL, selector)", []).append(time.perf_counter() - started)
    reads = {name: _percentiles(samples) for name, samples in figures.items()}
    for name, found in reads.items():
        print(f"{name:45} median {found['median_ms']:7.2f} ms   p95 {found['p95_ms']:7.2f} ms   ({found['n']})")
    return reads


def measure_jobs(jobs: dict) -> None:
    from leaderboards.boards.services import board_counts_rebuild, period_standings_rebuild, results_rebuild
    from leaderboards.models import Tournament
    from leaderboards.tournaments.services import standings_rebuild

    def timed(name: str, work) -> None:
        started = time.perf_counter()
        outcome = work()
        jobs[name] = round(time.perf_counter() - started, 2)
        print(f"{name:45} {jobs[name]:8.2f} s  ({outcome})")

    timed("results_rebuild (finds none missing)", results_rebuild)
    timed("board_counts_rebuild", board_counts_rebuild)
    timed("period_standings_rebuild", period_standings_rebuild)
    biggest = Tournament.objects.order_by("pk").values_list("pk", flat=True).first()
    timed("standings_rebuild, the biggest cup (5,000 entries)", lambda: standings_rebuild(tournament_id=biggest))


def recheck(args, daily) -> dict:
    """The daily re-check's pace in this process: the day cut into its chunks as the job cuts it, then the first
    chunks (``--recheck-games`` games) replayed as a worker replays them."""
    from django.conf import settings

    from games.models import Game
    from leaderboards.fair_play.recheck import recheck_chunk_run, recheck_day_plan

    started = time.perf_counter()
    chunks = recheck_day_plan(date=daily.date, size=settings.PYRAMID_RECHECK_CHUNK_GAMES)
    planned = time.perf_counter() - started
    total = Game.objects.filter(daily=daily).exclude(status=Game.Status.PLAYING).count()  # the fill's day: daily games
    started, checked = time.perf_counter(), 0
    for chunk in chunks:
        if checked >= args.recheck_games:
            break
        checked += recheck_chunk_run(chunk_id=chunk.pk).games
    seconds = time.perf_counter() - started
    print(
        f"re-check: the day's {len(chunks)} chunks planned in {planned:.1f} s; {checked} games in {seconds:.1f} s, "
        f"{checked / seconds:.0f} games/s in one process; {total:,} games would take "
        f"{total / (checked / seconds) / 60:.1f} min in one process"
    )
    return {
        "recheck_games": checked,
        "recheck_seconds": round(seconds, 1),
        "recheck_plan_seconds": round(planned, 1),
        "recheck_games_per_second": round(checked / seconds),
        "recheck_day_games": total,
    }


def finishing_moves(args, daily) -> dict:
    """``--finishers`` players play today's deal by the solver's line in step, each move made by all of them at
    once: every move but the last is timed as a plain move, the last as the finishing move (all of them land in
    one board bucket: the hot rows)."""
    from django.contrib.auth import get_user_model
    from django.db import connection

    from games import services as game_services
    from games import signals
    from games.tasks import analysis_on_game_finished

    line = daily.deal.solution.split()
    users = [
        get_user_model().objects.create_user(username=f"finisher-{os.getpid()}-{n}") for n in range(args.finishers)
    ]
    plain, finishing = [], []
    barrier = threading.Barrier(args.finishers)
    # the analysis job is queued to workers in production; it is not part of the finishing move
    signals.game_finished.disconnect(dispatch_uid="games.analysis")

    def player(user) -> None:
        try:
            game = game_services.game_start(player=user, daily_id=daily.pk)
            for ply, move in enumerate(line[:-1], start=1):
                barrier.wait()  # in step: every plain move, too, is made by all the players at once
                started = time.perf_counter()
                game_services.move_submit(game_id=game.pk, player=user, ply=ply, move=move)
                plain.append(time.perf_counter() - started)
            barrier.wait()
            started = time.perf_counter()
            game_services.move_submit(game_id=game.pk, player=user, ply=len(line), move=line[-1])
            finishing.append(time.perf_counter() - started)
        finally:
            connection.close()

    threads = [threading.Thread(target=player, args=(user,)) for user in users]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    signals.game_finished.connect(analysis_on_game_finished, dispatch_uid="games.analysis")
    found = {"plain move": _percentiles(plain), "finishing move": _percentiles(finishing)}
    print(
        f"{args.finishers} players at once: plain move median {found['plain move']['median_ms']} ms, "
        f"p95 {found['plain move']['p95_ms']} ms; finishing move median {found['finishing move']['median_ms']} ms, "
        f"p95 {found['finishing move']['p95_ms']} ms"
    )
    return {"moves_under_concurrent_finishers": found}
