"""Fair play, for operators (staff): void a game or a player with a reason; lift a void."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAdminUser
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.serializers import valid_input

from .. import services
from ..models import Void
from .boards import ERROR
from .inputs import LiftInput, VoidInput


def void_output(void: Void) -> dict:
    return {"id": void.pk, "game": void.game_id, "player": void.player_id, "reason": void.reason,
            "voided_by": void.voided_by_id, "created_at": void.created_at, "lifted_at": void.lifted_at,
            "lifted_by": void.lifted_by_id, "lift_reason": void.lift_reason}


class VoidListView(APIView):
    permission_classes = [IsAdminUser]

    @extend_schema(responses={200: OpenApiTypes.OBJECT, 403: ERROR}, summary="The fair-play audit record")
    def get(self, request):
        return Response([void_output(v) for v in Void.objects.all()[:500]])

    @extend_schema(request=VoidInput, responses={201: OpenApiTypes.OBJECT, 400: ERROR, 403: ERROR, 404: ERROR,
                                                 409: ERROR},
                   summary="Void a game or a player: every board and standing is recomputed without it")
    def post(self, request):
        data = valid_input(VoidInput, request)
        if "game" in data:
            void = services.game_void(game_id=data["game"], reason=data["reason"], by=request.user)
        else:
            void = services.player_void(player_id=data["player"], reason=data["reason"], by=request.user)
        return Response(void_output(void), status=status.HTTP_201_CREATED)


class VoidLiftView(APIView):
    permission_classes = [IsAdminUser]

    @extend_schema(request=LiftInput, responses={200: OpenApiTypes.OBJECT, 400: ERROR, 403: ERROR, 404: ERROR,
                                                 409: ERROR},
                   summary="Lift a void: what it took off the boards comes back")
    def post(self, request, void_id: int):
        void = services.void_lift(void_id=void_id, reason=valid_input(LiftInput, request)["reason"], by=request.user)
        return Response(void_output(void))
