"""Views of the games API: parse the input, call a service or selector, shape the output."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

import engine
from pyramid_site.api.errors import Invalid
from pyramid_site.api.inputs import json_object, valid_input
from pyramid_site.api.pagination import page_parameters, page_schema, paged
from pyramid_site.api.params import date_value
from pyramid_site.api.schema import ERROR
from pyramid_site.api.throttles import AccountThrottle
from pyramid_site.clock import utc_today

from .. import selectors, services
from ..daily import commitment
from ..engine_glue import game_position
from ..models import Deal
from ..tasks import solve_deal_soon
from .serializers import (DailyOutput, DealOutput, GameStartInput, MoveInput, MoveOutput, daily_commitment_output,
                          game_output, move_input, unsolved_deal_output)

GAME = OpenApiResponse(OpenApiTypes.OBJECT, description="the game with the player's view of its position")
DAILY_PAGE = page_schema()


def _dailies(request, day):
    """A page of the day's daily deals: only their commitments before the day."""
    shape = daily_commitment_output if day > utc_today() else (lambda daily: DailyOutput(daily).data)
    return paged(request, selectors.daily_deals_on(date=day, user=request.user), shape)


class DailyTodayView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(parameters=page_parameters(), responses={200: DAILY_PAGE, 400: ERROR},
                   summary="Today's daily deals (UTC)")
    def get(self, request):
        return _dailies(request, utc_today())


class DailyOnDateView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(parameters=page_parameters(), responses={200: DAILY_PAGE, 400: ERROR},
                   summary="The daily deals of a day; only commitments before it", operation_id="daily_on_date")
    def get(self, request, date: str):
        return _dailies(request, date_value(date))


class DailyVerifyView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT, 400: ERROR, 404: ERROR},
                   summary="Check a daily deal against its commitment (the salt and the deal once the day is over)")
    def get(self, request, date: str, preset: str):
        daily = selectors.daily_deal(date=date_value(date), preset=preset)
        body = {"date": daily.date.isoformat(), "preset": daily.preset, "commitment": daily.commitment,
                "revealed": selectors.daily_is_over(daily)}
        if not body["revealed"]:
            return Response(body | {"message": "the salt and the deal are shown when the day is over (UTC)"})
        deal_text = daily.deal.text
        return Response(body | {
            "salt": daily.salt, "number": daily.deal.number, "deal_text": deal_text,
            "commitment_matches": commitment(deal_text, daily.salt) == daily.commitment,
            "number_gives_text": engine.deal_from_number(daily.deal.number).text == deal_text,
            "check": f"printf '%s' '{deal_text}|{daily.salt}' | sha256sum",
        })


class GameListView(APIView):
    @extend_schema(request=GameStartInput, responses={201: GAME, 400: ERROR, 404: ERROR, 409: ERROR},
                   summary="Start a game: a daily deal (ranked), or a practice deal by number or at random")
    def post(self, request):
        data = valid_input(GameStartInput, request)
        game = services.game_start(player=request.user, daily_id=data.get("daily"), number=data.get("number"),
                                   rules=data.get("rules"))
        return Response(game_output(game, game_position(game)), status=status.HTTP_201_CREATED,
                        headers={"Location": f"/api/games/{game.pk}/"})


class GameDetailView(APIView):
    @extend_schema(responses={200: GAME, 404: ERROR},
                   summary="A game: yours, or anyone's ranked game once its day or tournament is over")
    def get(self, request, game_id: int):
        game = selectors.game_for_viewer(game_id=game_id, user=request.user)
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
    throttle_classes = [AccountThrottle]
    throttle_scope = "hint"

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
                   summary="A game's move log: yours, or anyone's ranked game once its day or tournament is over")
    def get(self, request, game_id: int):
        game, log = selectors.game_log(game_id=game_id, user=request.user)
        return Response({"game": game.pk, "status": game.status, "moves": MoveOutput(log, many=True).data,
                         "log": " ".join(m.notation for m in log)})


def _deal_request(request, number: str) -> tuple[int, engine.Rules]:
    try:
        value = int(number)
    except ValueError:
        raise Invalid(f"{number[:40]!r} is not a deal number", code="bad_deal_number") from None
    if not 0 <= value < 2**64:
        raise Invalid("deal numbers run from 0 to 2**64 - 1", code="bad_deal_number")
    try:
        rules = engine.Rules.parse(request.query_params.get("rules", "classic"))
    except engine.RulesError as exc:
        raise Invalid(str(exc), code="bad_rules") from None
    return value, rules


RULES = OpenApiParameter("rules", str, description="preset name or rule-set text (classic)")


class DealView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(parameters=[RULES], responses={200: DealOutput, 400: ERROR, 404: ERROR},
                   summary="A practice deal: its text and what the solver found (status unsolved until a player "
                           "asks for a solve)")
    def get(self, request, number: str):
        value, rules = _deal_request(request, number)
        deal = selectors.practice_deal(number=value, rules=rules)
        return Response(DealOutput(deal).data if deal else unsolved_deal_output(value, rules))


class DealSolveView(APIView):
    throttle_classes = [AccountThrottle]
    throttle_scope = "solve"

    @extend_schema(request=None, parameters=[RULES], responses={202: DealOutput, 400: ERROR, 401: ERROR, 404: ERROR,
                                                                429: ERROR},
                   summary="Ask for a practice deal to be solved (logged-in players; throttled)")
    def post(self, request, number: str):
        value, rules = _deal_request(request, number)
        deal = services.deal_solve_request(number=value, rules=rules)
        if deal.status == Deal.Status.PENDING:
            solve_deal_soon(deal.pk)
            deal.refresh_from_db()
        return Response(DealOutput(deal).data, status=status.HTTP_202_ACCEPTED,
                        headers={"Location": f"/api/deals/{value}?rules={rules.name}"})
