"""Request bodies: a JSON object, checked by an input serializer, or a 400 saying what is wrong."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext
from rest_framework import serializers

from pyramid_site.errors import Code, DomainError


def json_object(request) -> dict:
    """The request's body, refused unless it is a JSON object."""
    if not isinstance(request.data, dict):
        raise DomainError(Code.MALFORMED_BODY, gettext("the body must be a JSON object"))
    return request.data


def no_body(request, why: str) -> None:
    """Refuse a body on a request that takes none (nothing, or an empty object ``{}``, is taken): a field sent
    would otherwise be silently ignored, which a client would read as taken. ``why`` says what to do instead."""
    data = json_object(request)
    if data:
        raise serializers.ValidationError({name: [why] for name in data})


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


class TextField(serializers.CharField):
    """Text that must come as a JSON string: DRF's own field takes a number as its digits (a username sent as
    ``123`` would be the name "123"), and text with a lone surrogate, which no database or hash can encode."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        if any(0xD800 <= ord(char) <= 0xDFFF for char in data):
            raise serializers.ValidationError(gettext("a lone surrogate is not text"))
        return super().to_internal_value(data)
