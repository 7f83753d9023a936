"""Fair play in the API: anyone checks a daily deal against its commitment; staff review the flags
of the daily re-check (the voids are in ``leaderboards.api.fair_play``)."""

from __future__ import annotations

import datetime as dt

import engine
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny, IsAdminUser
from rest_framework.response import Response
from rest_framework.views import APIView

from leaderboards.models import Flag

from .. import services
from ..daily import commitment
from ..errors import Invalid, NotFound
from ..models import DailyDeal
from ..selectors import daily_is_over
from .serializers import valid_input
from .views import ERROR


class DailyVerifyView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT, 400: ERROR, 404: ERROR},
                   summary="Check a daily deal against its commitment (the salt and the deal once the day is over)")
    def get(self, request, date: str, preset: str):
        try:
            day = dt.date.fromisoformat(date)
        except ValueError:
            raise Invalid(f"{date!r} is not a date: write YYYY-MM-DD", code="bad_date") from None
        daily = DailyDeal.objects.select_related("deal").filter(date=day, preset=preset).first()
        if daily is None:
            raise NotFound(f"there is no {preset} daily deal on {day}", code="daily_not_found")
        body = {"date": day.isoformat(), "preset": daily.preset, "commitment": daily.commitment,
                "revealed": daily_is_over(daily)}
        if not body["revealed"]:
            return Response(body | {"message": "the salt and the deal are shown when the day is over (UTC)"})
        deal_text = daily.deal.text
        return Response(body | {
            "salt": daily.salt, "number": daily.deal.number, "deal_text": deal_text,
            "commitment_matches": commitment(deal_text, daily.salt) == daily.commitment,
            "number_gives_text": engine.deal_from_number(daily.deal.number).text == deal_text,
            "check": f"printf '%s' '{deal_text}|{daily.salt}' | sha256sum",
        })


class ReviewInput(serializers.Serializer):
    note = serializers.CharField(max_length=2000)


def flag_output(flag: Flag) -> dict:
    return {"id": flag.pk, "game": flag.game_id, "kind": flag.kind, "detail": flag.detail,
            "created_at": flag.created_at, "reviewed_at": flag.reviewed_at, "reviewed_by": flag.reviewed_by_id,
            "review_note": flag.review_note}


class FlagListView(APIView):
    permission_classes = [IsAdminUser]

    @extend_schema(responses={200: OpenApiTypes.OBJECT, 403: ERROR},
                   summary="Games the daily re-check flagged for review, newest first (?open=1: not yet reviewed)")
    def get(self, request):
        flags = Flag.objects.all()
        if request.query_params.get("open") in ("1", "true"):
            flags = flags.filter(reviewed_at__isnull=True)
        return Response([flag_output(f) for f in flags[:500]])


class FlagReviewView(APIView):
    permission_classes = [IsAdminUser]

    @extend_schema(request=ReviewInput, responses={200: OpenApiTypes.OBJECT, 400: ERROR, 403: ERROR, 404: ERROR,
                                                   409: ERROR},
                   summary="Record the review of a flag (void the game separately to take it off the boards)")
    def post(self, request, flag_id: int):
        flag = services.flag_review(flag_id=flag_id, note=valid_input(ReviewInput, request)["note"], by=request.user)
        return Response(flag_output(flag))
