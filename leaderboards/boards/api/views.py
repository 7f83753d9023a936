"""Boards, player pages and share lines."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from pyramid_site.api.error_schema import errors
from pyramid_site.api.output import PRESET_CHOICES, DailyPresetField
from pyramid_site.api.pagination import page_parameters, page_schema, paged
from pyramid_site.api.params import choice_param, choice_value, date_value, int_param
from pyramid_site.api.visitors import VisitorReadable
from pyramid_site.clock import utc_today
from pyramid_site.errors import Code

from ..selectors import boards, statistics, stats
from .output import (
    DailyBoardOutput,
    PeriodRowOutput,
    PlayerCalendarOutput,
    PlayerPageOutput,
    PlayerStatisticsOutput,
    ShareOutput,
    calendar_output,
    daily_board_output,
    period_row,
    player_page_output,
    statistics_output,
)

DAILY_PRESETS = PRESET_CHOICES[:-1]  # a daily deal's preset is never custom
CLUB = OpenApiParameter("club", int, description="only the members of this club (members only if it is private)")
LIMIT = OpenApiParameter("limit", int, description="rows from the top (1-200, 50)")
PERIOD_PAGE = page_schema(
    PeriodRowOutput,
    name="PeriodBoardPage",
    first=serializers.DateField(allow_null=True, help_text="the period's first day; null for all time"),
    me=PeriodRowOutput(allow_null=True, help_text="my row, when I am on the board"),
    around=PeriodRowOutput(many=True, help_text="my row and the rows above and below it (`around`)"),
    last=serializers.DateField(allow_null=True, help_text="the period's last day; null for all time"),
    preset=DailyPresetField(help_text="the preset asked for"),
)
AROUND = OpenApiParameter("around", int, description="rows above and below my own (0-25, 5)")
PRESET = OpenApiParameter("preset", str, enum=PRESET_CHOICES[:-1], description="daily preset (classic)")
DATE = OpenApiParameter("date", OpenApiTypes.DATE, OpenApiParameter.PATH, description="the daily deal's UTC day")
DAILY_PRESET = OpenApiParameter(
    "preset", str, OpenApiParameter.PATH, enum=PRESET_CHOICES[:-1], description="the daily deal's preset"
)


def _club_id(request) -> int | None:
    return int_param(request, "club", 0, 0, 2**62) or None


class DailyBoardView(VisitorReadable, APIView):
    """The board of one daily deal: its finished ranked games ranked by cards left, then moves, then time;
    the top rows, my row and the rows around it, with par. `club` narrows it to a club's members."""

    @extend_schema(
        parameters=[DATE, DAILY_PRESET, CLUB, LIMIT, AROUND],
        responses={200: DailyBoardOutput, **errors(Code.BAD_DATE, Code.CLUB_NOT_FOUND, Code.DAILY_NOT_FOUND)},
        summary="The board of one daily deal: finished ranked games ranked by cards left, moves, time",
    )
    def get(self, request, date: str, preset: str):
        board = boards.daily_board_for(
            date=date_value(date),
            preset=choice_value(preset, "preset", DAILY_PRESETS),
            viewer=request.user,
            limit=int_param(request, "limit", 50, 1, 200),
            around=int_param(request, "around", 5, 0, 25),
            club_id=_club_id(request),
        )
        return Response(daily_board_output(board))


def _period_response(request, week):
    preset = choice_param(request, "preset", DAILY_PRESETS) or "classic"
    page = stats.period_board_for(
        preset=preset,
        week=week,
        club_id=_club_id(request),
        viewer=request.user,
        around=int_param(request, "around", 5, 0, 25),
    )
    return paged(
        request,
        page.board,
        period_row,
        decorate=page.shown_rows,
        preset=preset,
        first=page.first and page.first.isoformat(),
        last=page.last and page.last.isoformat(),
        me=page.me and period_row(page.me),
        around=[period_row(row) for row in page.around],
    )


class WeeklyBoardView(VisitorReadable, APIView):
    """Players ranked over the daily deals of one ISO week (Monday to Sunday, UTC), by the formulas of the
    docs/leaderboards.md ("Board formulas"), in pages."""

    @extend_schema(
        parameters=[
            PRESET,
            CLUB,
            AROUND,
            *page_parameters(),
            OpenApiParameter("week", str, description="any day of the ISO week, YYYY-MM-DD (this week)"),
        ],
        responses={200: PERIOD_PAGE, **errors(Code.BAD_DATE, Code.CLUB_NOT_FOUND)},
        summary="Weekly board over the daily deals of one ISO week (Monday to Sunday, UTC)",
    )
    def get(self, request):
        week = request.query_params.get("week")
        return _period_response(request, date_value(week, "week") if week else utc_today())


class AllTimeBoardView(VisitorReadable, APIView):
    """Players ranked over every daily deal so far, by the formulas of the docs/leaderboards.md ("Board formulas"), in
    pages."""

    @extend_schema(
        parameters=[PRESET, CLUB, AROUND, *page_parameters()],
        responses={200: PERIOD_PAGE, **errors(Code.CLUB_NOT_FOUND)},
        summary="All-time board over every daily deal",
    )
    def get(self, request):
        return _period_response(request, None)


class PlayerView(VisitorReadable, APIView):
    """A player's page: their daily results (the latest first), statistics, streaks, and the clubs of theirs
    that I may see."""

    @extend_schema(
        responses={200: PlayerPageOutput, **errors(Code.PLAYER_NOT_FOUND)},
        summary="A player's page: daily results, stats, streaks and clubs",
    )
    def get(self, request, username: str):
        return Response(player_page_output(stats.player_page_of(username=username, viewer=request.user)))


class PlayerStatisticsView(VisitorReadable, APIView):
    """A player's statistics by mode and preset: games played, won, win rate, pyramids cleared, the fewest
    moves and shortest time of a win; and daily streaks. Ranked figures count what the boards count (finished
    daily and tournament games, none void); practice figures are the player's alone (`null` to anyone else)."""

    @extend_schema(
        responses={200: PlayerStatisticsOutput, **errors(Code.PLAYER_NOT_FOUND)},
        summary="A player's statistics by mode (ranked, practice) and preset, and streaks",
    )
    def get(self, request, username: str):
        return Response(statistics_output(statistics.player_statistics_of(username=username, viewer=request.user)))


MONTHS = OpenApiParameter(
    "months", int, description=f"this month and the ones before it (1-{statistics.MAX_MONTHS}, 3)"
)


class PlayerCalendarView(VisitorReadable, APIView):
    """A player's daily results day by day, from the 1st of the month `months - 1` months back to today: each
    day's daily deals by preset, and for each whether the player won it, lost it or did not play it, with the
    result's cards left, moves and time."""

    @extend_schema(
        parameters=[MONTHS],
        responses={200: PlayerCalendarOutput, **errors(Code.PLAYER_NOT_FOUND)},
        summary="A player's calendar of daily results (won, lost, not played) over the last months",
    )
    def get(self, request, username: str):
        months = int_param(request, "months", 3, 1, statistics.MAX_MONTHS)
        calendar = statistics.player_calendar_of(username=username, months=months)
        return Response(calendar_output(calendar, months))


class ShareView(APIView):
    """A line to share a finished daily game of mine: its day, preset, outcome and moves, no card and no
    move of it."""

    @extend_schema(
        responses={200: ShareOutput, **errors(Code.GAME_NOT_FOUND, Code.NOT_SHAREABLE)},
        summary="A spoiler-free share line for a finished daily game of yours",
    )
    def get(self, request, game_id: int):
        return Response({"game": game_id, "share": stats.share_of_game(game_id=game_id, player=request.user)})
