"""Request bodies: a JSON object, checked by an input serializer, or a 400 saying what is wrong."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext
from rest_framework import serializers

from .errors import Invalid


def json_object(request) -> dict:
    """The request's body, refused unless it is a JSON object."""
    if not isinstance(request.data, dict):
        raise Invalid(gettext("the body must be a JSON object"), code="malformed_body")
    return request.data


def valid_input(serializer_class, request) -> dict:
    """The body checked by the input serializer: its validated data, or a 400 saying what is wrong."""
    serializer = serializer_class(data=json_object(request))
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class AwareDateTimeField(serializers.DateTimeField):
    """A moment with its time zone: a time without one could mean any of 24 hours, so it is refused."""

    def enforce_timezone(self, value):
        if timezone.is_naive(value):
            raise serializers.ValidationError(gettext("give the time zone too, e.g. 2026-12-01T18:00:00Z"))
        return super().enforce_timezone(value)
