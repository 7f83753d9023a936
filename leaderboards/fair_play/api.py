"""Fair play in the API, for operators (staff): void a game or a player with a reason, lift a void,
list the re-check's flags and record their review."""

from __future__ import annotations

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAdminUser
from rest_framework.response import Response
from rest_framework.views import APIView

from pyramid_site.api.error_schema import errors
from pyramid_site.api.idempotency import idempotent
from pyramid_site.api.inputs import valid_input
from pyramid_site.api.pagination import cursor_page_parameters, cursor_paged, page_schema
from pyramid_site.errors import Code

from . import selectors, services
from .models import Flag, Void


class VoidInput(serializers.Serializer):
    game = serializers.IntegerField(required=False)
    player = serializers.IntegerField(required=False)
    reason = serializers.CharField(max_length=2000)

    def validate(self, data):
        if ("game" in data) == ("player" in data):
            raise serializers.ValidationError(gettext("give either game or player"))
        return data


class LiftInput(serializers.Serializer):
    reason = serializers.CharField(max_length=2000)


class ReviewInput(serializers.Serializer):
    note = serializers.CharField(max_length=2000)
    void = serializers.BooleanField(
        required=False, default=False, help_text="void the game too (the note is the reason): it stays off the boards"
    )


class VoidOutput(serializers.Serializer):
    """A void of a game or of a player, and its lifting (``void_output``)."""

    id = serializers.IntegerField()
    game = serializers.IntegerField(allow_null=True, help_text="the game made void (or null)")
    player = serializers.IntegerField(allow_null=True, help_text="the player made void (or null)")
    reason = serializers.CharField()
    voided_by = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()
    lifted_at = serializers.DateTimeField(allow_null=True)
    lifted_by = serializers.IntegerField(allow_null=True)
    lift_reason = serializers.CharField(allow_blank=True)

    class Meta:
        ref_name = "Void"


class FlagOutput(serializers.Serializer):
    """A game a fair-play rule flagged, and its review (``flag_output``). Until the review the game's result is
    held off every board."""

    id = serializers.IntegerField()
    game = serializers.IntegerField()
    kind = serializers.ChoiceField(
        choices=Flag.Kind.values,
        help_text="result_mismatch: the replay disagrees with the stored result; "
        "suspicious, accuracy, scouted, too_fast: the fair-play rule of "
        'that name (docs/fair-play.md, "Fair play")',
    )
    detail = serializers.CharField()
    created_at = serializers.DateTimeField()
    reviewed_at = serializers.DateTimeField(allow_null=True)
    reviewed_by = serializers.IntegerField(allow_null=True)
    review_note = serializers.CharField(allow_blank=True)

    class Meta:
        ref_name = "Flag"


def void_output(void: Void) -> dict:
    return {
        "id": void.pk,
        "game": void.game_id,
        "player": void.player_id,
        "reason": void.reason,
        "voided_by": void.voided_by_id,
        "created_at": void.created_at,
        "lifted_at": void.lifted_at,
        "lifted_by": void.lifted_by_id,
        "lift_reason": void.lift_reason,
    }


def flag_output(flag: Flag) -> dict:
    return {
        "id": flag.pk,
        "game": flag.game_id,
        "kind": flag.kind,
        "detail": flag.detail,
        "created_at": flag.created_at,
        "reviewed_at": flag.reviewed_at,
        "reviewed_by": flag.reviewed_by_id,
        "review_note": flag.review_note,
    }


class VoidListView(APIView):
    """The fair-play audit record (staff only): every void of a game or a player, and its lifting, newest first,
    in pages. POST voids a game or a player."""

    permission_classes = [IsAdminUser]

    @extend_schema(
        parameters=cursor_page_parameters(),
        responses={200: page_schema(VoidOutput)},
        summary="The fair-play audit record, newest first",
    )
    def get(self, request):
        return cursor_paged(request, selectors.voids(), void_output, key=selectors.NEWEST_FIRST)

    @extend_schema(
        request=VoidInput,
        responses={
            201: VoidOutput,
            **errors(
                Code.REASON_REQUIRED, Code.GAME_NOT_FOUND, Code.PLAYER_NOT_FOUND, Code.NOT_RANKED, Code.ALREADY_VOID
            ),
        },
        summary="Void a game or a player: every board and standing is recomputed without it",
        description="Void a ranked game or a player, with a reason: every board and standing is "
        "recomputed without it. Staff only.",
    )
    @idempotent
    def post(self, request):
        data = valid_input(VoidInput, request)
        if "game" in data:
            void = services.game_void(game_id=data["game"], reason=data["reason"], by=request.user)
        else:
            void = services.player_void(player_id=data["player"], reason=data["reason"], by=request.user)
        return Response(void_output(void), status=status.HTTP_201_CREATED)


class VoidLiftView(APIView):
    """Lift a void, with a reason: what it took off the boards comes back. Staff only."""

    permission_classes = [IsAdminUser]

    @extend_schema(
        request=LiftInput,
        responses={200: VoidOutput, **errors(Code.REASON_REQUIRED, Code.VOID_NOT_FOUND, Code.ALREADY_LIFTED)},
        summary="Lift a void: what it took off the boards comes back",
    )
    def post(self, request, void_id: int):
        void = services.void_lift(void_id=void_id, reason=valid_input(LiftInput, request)["reason"], by=request.user)
        return Response(void_output(void))


class FlagListView(APIView):
    """Games the fair-play rules flagged for review, newest first, in pages (`open=true` for those not yet
    reviewed: their results are held off the boards). Staff only."""

    permission_classes = [IsAdminUser]

    @extend_schema(
        parameters=[
            *cursor_page_parameters(),
            OpenApiParameter("open", bool, description="only flags not yet reviewed"),
        ],
        responses={200: page_schema(FlagOutput)},
        summary="Games the fair-play rules flagged for review, newest first",
    )
    def get(self, request):
        open_only = request.query_params.get("open") in ("1", "true")
        return cursor_paged(request, selectors.flags(open_only=open_only), flag_output, key=selectors.NEWEST_FIRST)


class FlagReviewView(APIView):
    """Record the review of a flag with a note: the result held off the boards goes back on them, unless the
    game is voided (`void: true` here, or a void of the game or its player). Staff only."""

    permission_classes = [IsAdminUser]

    @extend_schema(
        request=ReviewInput,
        responses={
            200: FlagOutput,
            **errors(
                Code.REASON_REQUIRED,
                Code.NOTE_REQUIRED,
                Code.FLAG_NOT_FOUND,
                Code.GAME_NOT_FOUND,
                Code.NOT_RANKED,
                Code.ALREADY_VOID,
                Code.ALREADY_REVIEWED,
            ),
        },
        summary="Review a flag: the result goes back on the boards, or with void stays off them",
    )
    def post(self, request, flag_id: int):
        data = valid_input(ReviewInput, request)
        flag = services.flag_review(flag_id=flag_id, note=data["note"], by=request.user, void=data["void"])
        return Response(flag_output(flag))
