"""Boards, player pages and share lines."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from games.daily import utc_today
from games.errors import Conflict, NotFound
from games.models import DailyDeal
from games.selectors import game_of_player

from ..models import Result
from ..selectors import boards, stats
from ..selectors.clubs import club_for_viewer
from .output import club_output, daily_board_output, period_row, result_row, streak_output
from .params import date_value, int_param

ERROR = OpenApiResponse(OpenApiTypes.OBJECT, description='{"code": "...", "message": "..."}')
BOARD = OpenApiResponse(OpenApiTypes.OBJECT, description="top rows, my row and the rows around it, ranks and par")
CLUB = OpenApiParameter("club", int, description="only the members of this club (members only if it is private)")
LIMIT = OpenApiParameter("limit", int, description="rows from the top (1-200, 50)")
AROUND = OpenApiParameter("around", int, description="rows above and below my own (0-25, 5)")
PRESET = OpenApiParameter("preset", str, description="daily preset (classic)")


def _club_id(request) -> int | None:
    club_id = int_param(request, "club", 0, 0, 2**62) or None
    if club_id is not None:
        club_for_viewer(club_id=club_id, viewer=request.user)  # hides private clubs from outsiders
    return club_id


class DailyBoardView(APIView):
    @extend_schema(parameters=[CLUB, LIMIT, AROUND], responses={200: BOARD, 400: ERROR, 404: ERROR},
                   summary="The board of one daily deal: finished ranked games ranked by cards left, moves, time")
    def get(self, request, date: str, preset: str):
        day = date_value(date)
        daily = DailyDeal.objects.select_related("deal").filter(date=day, preset=preset).first()
        if daily is None or day > utc_today():
            raise NotFound(f"there is no {preset} daily deal on {date}", code="daily_not_found")
        board = boards.daily_board(daily=daily, player=request.user, limit=int_param(request, "limit", 50, 1, 200),
                                   around=int_param(request, "around", 5, 0, 25), club_id=_club_id(request))
        return Response(daily_board_output(board))


def _period_response(request, first, last, preset):
    limit, offset = int_param(request, "limit", 50, 1, 200), int_param(request, "offset", 0, 0, 10**9)
    total, rows = stats.period_board(preset=preset, first=first, last=last, club_id=_club_id(request),
                                     limit=limit, offset=offset)
    return {"preset": preset, "first": first and first.isoformat(), "last": last and last.isoformat(),
            "total": total, "rows": [period_row(row) for row in rows]}


class WeeklyBoardView(APIView):
    @extend_schema(parameters=[PRESET, CLUB, LIMIT, OpenApiParameter("week", str, description="any day of the ISO "
                   "week, YYYY-MM-DD (this week)"), OpenApiParameter("offset", int)],
                   responses={200: OpenApiTypes.OBJECT, 400: ERROR, 404: ERROR},
                   summary="Weekly board over the daily deals of one ISO week (Monday to Sunday, UTC)")
    def get(self, request):
        week = request.query_params.get("week")
        first, last = stats.week_of(date_value(week, "week") if week else utc_today())
        return Response(_period_response(request, first, last, request.query_params.get("preset", "classic")))


class AllTimeBoardView(APIView):
    @extend_schema(parameters=[PRESET, CLUB, LIMIT, OpenApiParameter("offset", int)],
                   responses={200: OpenApiTypes.OBJECT, 400: ERROR, 404: ERROR},
                   summary="All-time board over every daily deal")
    def get(self, request):
        return Response(_period_response(request, None, None, request.query_params.get("preset", "classic")))


class PlayerView(APIView):
    @extend_schema(responses={200: OpenApiTypes.OBJECT, 404: ERROR},
                   summary="A player's page: daily results, stats, streaks and clubs")
    def get(self, request, username: str):
        player = get_user_model().objects.filter(username=username).first()
        if player is None:
            raise NotFound(f"there is no player {username!r}", code="player_not_found")
        page = stats.player_page(player=player, viewer=request.user)
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


class ShareView(APIView):
    @extend_schema(responses={200: OpenApiTypes.OBJECT, 404: ERROR, 409: ERROR},
                   summary="A spoiler-free share line for a finished daily game of yours")
    def get(self, request, game_id: int):
        game = game_of_player(game_id=game_id, player=request.user)
        result = Result.objects.filter(game=game, daily__isnull=False).first()
        if result is None:
            raise Conflict("only a finished daily game has a share line", code="not_shareable")
        return Response({"game": game.pk, "share": stats.share_line(result)})
