"""Boards, player pages and share lines."""

from __future__ import annotations

from functools import partial

from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from games.selectors import daily_deal, game_of_player
from pyramid_site.api.output import PRESET_CHOICES
from pyramid_site.api.pagination import page_parameters, page_schema, paged
from pyramid_site.api.params import date_value, int_param
from pyramid_site.api.schema import ERROR
from pyramid_site.api.visitors import VisitorReadable
from pyramid_site.clock import utc_today
from pyramid_site.errors import Code, DomainError

from ..selectors import boards, stats, statistics
from ..selectors.clubs import club_for_viewer
from .output import (DailyBoardOutput, PeriodRowOutput, PlayerCalendarOutput, PlayerPageOutput, PlayerStatisticsOutput,
                     ShareOutput, calendar_output, club_output, daily_board_output, period_row, result_row,
                     statistics_output, streak_output)

CLUB = OpenApiParameter("club", int, description="only the members of this club (members only if it is private)")
LIMIT = OpenApiParameter("limit", int, description="rows from the top (1-200, 50)")
PERIOD_PAGE = page_schema(
    PeriodRowOutput, name="PeriodBoardPage",
    first=serializers.DateField(allow_null=True, help_text="the period's first day; null for all time"),
    me=PeriodRowOutput(allow_null=True, help_text="my row, when I am on the board"),
    around=PeriodRowOutput(many=True, help_text="my row and the rows above and below it (`around`)"),
    last=serializers.DateField(allow_null=True, help_text="the period's last day; null for all time"),
    preset=serializers.CharField(help_text="the preset asked for"))
AROUND = OpenApiParameter("around", int, description="rows above and below my own (0-25, 5)")
PRESET = OpenApiParameter("preset", str, enum=PRESET_CHOICES[:-1], description="daily preset (classic)")
DATE = OpenApiParameter("date", OpenApiTypes.DATE, OpenApiParameter.PATH, description="the daily deal's UTC day")
DAILY_PRESET = OpenApiParameter("preset", str, OpenApiParameter.PATH, enum=PRESET_CHOICES[:-1],
                                description="the daily deal's preset")


def _club_id(request) -> int | None:
    club_id = int_param(request, "club", 0, 0, 2**62) or None
    if club_id is not None:
        club_for_viewer(club_id=club_id, viewer=request.user)  # hides private clubs from outsiders
    return club_id


class DailyBoardView(VisitorReadable, APIView):
    """The board of one daily deal: its finished ranked games ranked by cards left, then moves, then time;
    the top rows, my row and the rows around it, with par. `club` narrows it to a club's members."""

    @extend_schema(parameters=[DATE, DAILY_PRESET, CLUB, LIMIT, AROUND],
                   responses={200: DailyBoardOutput, 400: ERROR, 404: ERROR},
                   summary="The board of one daily deal: finished ranked games ranked by cards left, moves, time")
    def get(self, request, date: str, preset: str):
        day = date_value(date)
        if day > utc_today():
            raise DomainError(Code.DAILY_NOT_FOUND,
                              gettext("there is no %(preset)s daily deal on %(date)s")
                              % {"preset": preset, "date": date})
        daily = daily_deal(date=day, preset=preset)
        board = boards.daily_board(daily=daily, player=request.user, limit=int_param(request, "limit", 50, 1, 200),
                                   around=int_param(request, "around", 5, 0, 25), club_id=_club_id(request))
        return Response(daily_board_output(board))


def _period_response(request, first, last, preset):
    board = stats.period_board_of(preset=preset, first=first, club_id=_club_id(request))
    me, around = stats.my_period_rows(board, player=request.user, around=int_param(request, "around", 5, 0, 25))
    return paged(request, board, period_row, decorate=partial(stats.shown_rows, board),
                 preset=preset, first=first and first.isoformat(), last=last and last.isoformat(),
                 me=me and period_row(me), around=[period_row(row) for row in around])


class WeeklyBoardView(VisitorReadable, APIView):
    """Players ranked over the daily deals of one ISO week (Monday to Sunday, UTC), by the formulas of the
    docs/leaderboards.md ("Board formulas"), in pages."""

    @extend_schema(parameters=[PRESET, CLUB, AROUND, *page_parameters(),
                               OpenApiParameter("week", str,
                                                description="any day of the ISO week, YYYY-MM-DD (this week)")],
                   responses={200: PERIOD_PAGE, 400: ERROR, 404: ERROR},
                   summary="Weekly board over the daily deals of one ISO week (Monday to Sunday, UTC)")
    def get(self, request):
        week = request.query_params.get("week")
        first, last = stats.week_of(date_value(week, "week") if week else utc_today())
        return _period_response(request, first, last, request.query_params.get("preset", "classic"))


class AllTimeBoardView(VisitorReadable, APIView):
    """Players ranked over every daily deal so far, by the formulas of the docs/leaderboards.md ("Board formulas"), in
    pages."""

    @extend_schema(parameters=[PRESET, CLUB, AROUND, *page_parameters()],
                   responses={200: PERIOD_PAGE, 400: ERROR, 404: ERROR},
                   summary="All-time board over every daily deal")
    def get(self, request):
        return _period_response(request, None, None, request.query_params.get("preset", "classic"))


class PlayerView(VisitorReadable, APIView):
    """A player's page: their daily results (the latest first), statistics, streaks, and the clubs of theirs
    that I may see."""

    @extend_schema(responses={200: PlayerPageOutput, 404: ERROR},
                   summary="A player's page: daily results, stats, streaks and clubs")
    def get(self, request, username: str):
        page = stats.player_page(player=stats.player_named(username), viewer=request.user)
        player = page.player
        totals = page.stats
        return Response({
            "player": {"id": player.pk, "username": player.username},
            "stats": {"played": totals["played"], "cleared": totals["cleared_count"], "won": totals["won_count"],
                      "cards_left_total": totals["cards_total"] or 0,
                      "cards_left_average": round(totals["cards_average"] or 0, 2), "at_par": totals["at_par"],
                      "best": {"cards_left": totals["best_cards_left"], "moves_when_won": totals["best_moves_won"]}},
            "streak": streak_output(page.streak),
            "cleared_streak": streak_output(page.cleared_streak),
            "history": [{"date": r.date.isoformat(), "preset": r.preset, **result_row(None, r)} for r in page.history],
            "clubs": [club_output(m.club, None) | {"role": m.role} for m in page.clubs],
        })


class PlayerStatisticsView(VisitorReadable, APIView):
    """A player's statistics by mode and preset: games played, won, win rate, pyramids cleared, the fewest
    moves and shortest time of a win; and daily streaks. Ranked figures count what the boards count (finished
    daily and tournament games, none void); practice figures are the player's alone (`null` to anyone else)."""

    @extend_schema(responses={200: PlayerStatisticsOutput, 404: ERROR},
                   summary="A player's statistics by mode (ranked, practice) and preset, and streaks")
    def get(self, request, username: str):
        return Response(statistics_output(statistics.player_statistics(player=stats.player_named(username),
                                                                       viewer=request.user)))


MONTHS = OpenApiParameter("months", int,
                          description=f"this month and the ones before it (1-{statistics.MAX_MONTHS}, 3)")


class PlayerCalendarView(VisitorReadable, APIView):
    """A player's daily results day by day, from the 1st of the month `months - 1` months back to today: each
    day's daily deals by preset, and for each whether the player won it, lost it or did not play it, with the
    result's cards left, moves and time."""

    @extend_schema(parameters=[MONTHS], responses={200: PlayerCalendarOutput, 400: ERROR, 404: ERROR},
                   summary="A player's calendar of daily results (won, lost, not played) over the last months")
    def get(self, request, username: str):
        months = int_param(request, "months", 3, 1, statistics.MAX_MONTHS)
        calendar = statistics.player_calendar(player=stats.player_named(username), months=months)
        return Response(calendar_output(calendar, months))


class ShareView(APIView):
    """A line to share a finished daily game of mine: its day, preset, outcome and moves, no card and no
    move of it."""

    @extend_schema(responses={200: ShareOutput, 404: ERROR, 409: ERROR},
                   summary="A spoiler-free share line for a finished daily game of yours")
    def get(self, request, game_id: int):
        game = game_of_player(game_id=game_id, player=request.user)
        return Response({"game": game.pk, "share": stats.share_of(game=game)})
