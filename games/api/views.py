"""Views of the games API: parse the input, call a service or selector, shape the output."""

from __future__ import annotations

import datetime as dt

import engine
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import selectors, services
from ..daily import utc_today
from ..engine_glue import game_position
from ..errors import Invalid, NotFound
from ..models import Deal
from ..tasks import solve_deal_soon
from .serializers import (DailyOutput, DealOutput, GameStartInput, MoveInput, MoveOutput, game_output, json_object,
                          move_input, valid_input)

GAME = OpenApiResponse(OpenApiTypes.OBJECT, description="the game with the player's view of its position")
ERROR = OpenApiResponse(OpenApiTypes.OBJECT, description='{"code": "...", "message": "..."}')


class DailyTodayView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=DailyOutput(many=True), summary="Today's daily deals (UTC)")
    def get(self, request):
        return Response(DailyOutput(selectors.daily_deals_on(date=utc_today(), user=request.user), many=True).data)


class DailyOnDateView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=DailyOutput(many=True), summary="The daily deals of a day; only commitments before it",
                   operation_id="daily_on_date")
    def get(self, request, date: str):
        try:
            day = dt.date.fromisoformat(date)
        except ValueError:
            raise Invalid(f"{date!r} is not a date: write YYYY-MM-DD", code="bad_date") from None
        dailies = selectors.daily_deals_on(date=day, user=request.user)
        if day > utc_today():
            return Response([{"date": d.date.isoformat(), "preset": d.preset, "commitment": d.commitment}
                             for d in dailies])
        return Response(DailyOutput(dailies, many=True).data)


class GameListView(APIView):
    @extend_schema(request=GameStartInput, responses={201: GAME, 400: ERROR, 404: ERROR, 409: ERROR},
                   summary="Start a game: a daily deal (ranked), or a practice deal by number or at random")
    def post(self, request):
        data = valid_input(GameStartInput, request)
        game = services.game_start(player=request.user, daily_id=data.get("daily"), number=data.get("number"),
                                   rules=data.get("rules"))
        return Response(game_output(game, game_position(game)), status=status.HTTP_201_CREATED)


class GameDetailView(APIView):
    @extend_schema(responses={200: GAME, 404: ERROR}, summary="A game of yours")
    def get(self, request, game_id: int):
        game = selectors.game_of_player(game_id=game_id, player=request.user)
        return Response(game_output(game, game_position(game)))


class GameMoveView(APIView):
    @extend_schema(request=MoveInput, responses={200: GAME, 201: GAME, 400: ERROR, 404: ERROR, 409: ERROR,
                                                 422: ERROR},
                   summary="Play move number `ply`; resending a move already played returns the game")
    def post(self, request, game_id: int):
        data = move_input(json_object(request))
        outcome = services.move_submit(game_id=game_id, player=request.user, ply=data["ply"], move=data["move"])
        body = game_output(outcome.game, outcome.position) | {"applied": outcome.applied}
        return Response(body, status=status.HTTP_201_CREATED if outcome.applied else status.HTTP_200_OK)


class GameResignView(APIView):
    @extend_schema(request=None, responses={200: GAME, 404: ERROR, 409: ERROR}, summary="Resign a game")
    def post(self, request, game_id: int):
        game = services.game_resign(game_id=game_id, player=request.user)
        return Response(game_output(game, game_position(game)))


class GameUndoView(APIView):
    @extend_schema(request=None, responses={200: GAME, 403: ERROR, 404: ERROR, 409: ERROR},
                   summary="Take back the last move (practice games only)")
    def post(self, request, game_id: int):
        game = services.game_undo(game_id=game_id, player=request.user)
        return Response(game_output(game, game_position(game)))


class GameHintView(APIView):
    @extend_schema(responses={200: OpenApiTypes.OBJECT, 403: ERROR, 404: ERROR, 409: ERROR},
                   summary="The solver's hint, and whether the position can still be won (practice only)")
    def get(self, request, game_id: int):
        advice = services.game_hint(game_id=game_id, player=request.user)
        can_win = {"winnable": True, "unwinnable": False}.get(advice.verdict)
        return Response({
            "move": advice.move, "explanation": advice.explanation, "locations": advice.locations,
            "verdict": advice.verdict, "can_win": can_win, "moves_to_win": advice.moves_to_win,
            "best_cards_left": advice.best_cards_left,
        })


class GameLogView(APIView):
    @extend_schema(responses={200: OpenApiTypes.OBJECT, 404: ERROR},
                   summary="A game's move log (a daily game's only to its player until the day is over)")
    def get(self, request, game_id: int):
        game, log = selectors.game_log(game_id=game_id, user=request.user)
        return Response({"game": game.pk, "status": game.status, "moves": MoveOutput(log, many=True).data,
                         "log": " ".join(m.notation for m in log)})


class DealView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(parameters=[OpenApiParameter("rules", str, description="preset name or rule-set text (classic)")],
                   responses={200: DealOutput, 400: ERROR, 404: ERROR},
                   summary="A practice deal: its text and the solver's results (solving starts on first request)")
    def get(self, request, number: str):
        try:
            value = int(number)
            rules = engine.Rules.parse(request.query_params.get("rules", "classic"))
        except ValueError as exc:
            raise Invalid(str(exc) if isinstance(exc, engine.RulesError) else f"{number!r} is not a deal number",
                          code="bad_rules" if isinstance(exc, engine.RulesError) else "bad_deal_number") from None
        if not 0 <= value < 2**64:
            raise Invalid("deal numbers run from 0 to 2**64 - 1", code="bad_deal_number")
        deal = services.deal_get_or_create(number=value, rules=rules)
        if not selectors.deal_is_public(deal):
            raise NotFound(f"there is no practice deal {value}", code="deal_not_found")
        if deal.status == Deal.Status.PENDING:
            solve_deal_soon(deal.pk)
            deal.refresh_from_db()
        return Response(DealOutput(deal).data)
