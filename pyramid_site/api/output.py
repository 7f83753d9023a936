"""Typed pieces that the API's answers share: deal numbers (unsigned 64-bit, with a decimal text beside them
for clients whose integers stop at 2**53), presets, and a player named by id and username.

Each answer is declared once, by an ``...Output`` serializer of its app that both serializes it (views return
``SomeOutput(obj).data``) and describes it for the OpenAPI schema (a named component). Where an answer is built
by a plain function for speed (a game answers every move), the function names its serializer and a test holds
the two equal over many real games.
"""

from __future__ import annotations

import re

from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.plumbing import append_meta
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

import engine

UINT64_MAX = 2**64 - 1
DEAL_NUMBER_PATTERN = "^[0-9]{1,20}$"
DEAL_NUMBER_TEXT = re.compile("[0-9]{1,20}")
DEAL_NUMBER_INTEGER_SCHEMA = {
    "type": "integer",
    "format": "uint64",
    "minimum": 0,
    "maximum": UINT64_MAX,
    "description": "deal number: an unsigned 64-bit integer (0 to 2**64 - 1)",
}
# the integer in an answer: JavaScript's numbers stop being exact at 2**53, so answers give `number_text` beside it,
# and the integer goes in a later major version (docs/api-changelog.md)
DEAL_NUMBER_SCHEMA = {
    **DEAL_NUMBER_INTEGER_SCHEMA,
    "deprecated": True,
    "description": "deprecated, read `number_text`: the deal number as an unsigned 64-bit integer, "
    "which clients whose integers stop at 2**53 (JavaScript) cannot read exactly; "
    "leaves in API 4.0.0",
}
DEAL_NUMBER_TEXT_SCHEMA = {
    "type": "string",
    "pattern": DEAL_NUMBER_PATTERN,
    "description": "the deal number as decimal text (exact in every client)",
}
# every preset's name, and "custom" for any other rule set
PRESET_CHOICES = [*engine.PRESETS, "custom"]
# the presets a daily deal may be dealt under (every preset: never "custom"); one type in the schema
# (DailyPresetEnum) for the answers' and the paths' daily presets alike, so a client passes one to the other as it is
DAILY_PRESET_CHOICES = list(engine.PRESETS)


def deal_number_text(number: int | None) -> str | None:
    return None if number is None else str(number)


@extend_schema_field(DEAL_NUMBER_SCHEMA)
class DealNumberField(serializers.IntegerField):
    """A deal number in an answer (a plain integer in the JSON; deprecated for ``number_text``)."""


@extend_schema_field(DEAL_NUMBER_TEXT_SCHEMA)
class DealNumberTextField(serializers.CharField):
    """The same deal number as decimal text."""


@extend_schema_field(
    {
        "oneOf": [
            DEAL_NUMBER_INTEGER_SCHEMA,
            {**DEAL_NUMBER_TEXT_SCHEMA, "description": "the deal number as decimal text"},
        ],
        "description": "deal number 0 to 2**64 - 1, as an integer or as decimal text",
    }
)
class DealNumberInputField(serializers.IntegerField):
    """A deal number in a body: an integer, or the same number as a string of ASCII digits (what the schema's
    pattern says; DRF's IntegerField alone would also take " 7", "7.0" or other scripts' digits)."""

    def __init__(self, **kwargs):
        super().__init__(min_value=0, max_value=UINT64_MAX, **kwargs)

    def to_internal_value(self, data):
        if isinstance(data, str) and DEAL_NUMBER_TEXT.fullmatch(data) is None:
            self.fail("invalid")
        return super().to_internal_value(data)


class PresetField(serializers.ChoiceField):
    """A preset's name, or ``custom`` for a rule set that is no preset."""

    def __init__(self, **kwargs):
        super().__init__(choices=PRESET_CHOICES, **kwargs)


class DailyPresetField(serializers.ChoiceField):
    """The preset of a daily deal (``DailyPresetEnum``: never ``custom``)."""

    def __init__(self, **kwargs):
        super().__init__(choices=DAILY_PRESET_CHOICES, **kwargs)


class WireDateTimeField(serializers.DateTimeField):
    """A time in an answer, described as a date-time and handed to the JSON encoder as it is: every time the
    API sends (the hand-built move answer's too) is printed by that one encoder, so the two paths agree to
    the character."""

    def to_representation(self, value):
        return value


class Computed:
    """An object as an answer's serializer reads it: its own attributes, and the few the answer computes
    (``Computed(game, next_ply=game.moves + 1)``), so that every field stays a plain declared field."""

    def __init__(self, obj, **computed):
        self._obj = obj
        self.__dict__.update(computed)

    def __getattr__(self, name):
        return getattr(self._obj, name)


class FormField(serializers.Field):
    """Which form of a union an answer is: the same word in every answer of its serializer (the union's
    discriminator, so a client tells the forms apart by one property)."""

    def __init__(self, form: str, **kwargs):
        self.form = form
        super().__init__(source="*", help_text=f"always `{form}`: which form of the answer this is", **kwargs)

    def to_representation(self, value):
        return self.form


class FormFieldSchema(OpenApiSerializerFieldExtension):
    target_class = FormField

    def map_serializer_field(self, auto_schema, direction):
        return {"type": "string", "const": self.target.form}


class NullableItemsListField(serializers.ListField):
    """A list of ``child`` objects where an item may be null (a card gone from its place)."""


class NullableItemsListFieldSchema(OpenApiSerializerFieldExtension):
    # drf-spectacular leaves a child serializer's null out of a list's items: this puts it in
    target_class = NullableItemsListField

    def map_serializer_field(self, auto_schema, direction):
        component = auto_schema.resolve_serializer(self.target.child, direction)
        return {"type": "array", "items": append_meta(component.ref, {"nullable": True})}


class PlayerRefOutput(serializers.Serializer):
    # the one declaration of {id, username} in every answer: serialize a user with it (PlayerRefOutput(user).data),
    # or, on a path that has only the two values (rows of a query), build it with player_ref, which
    # tests/games/test_game_output_declared.py holds equal to it

    id = serializers.IntegerField()
    username = serializers.CharField()

    class Meta:
        ref_name = "PlayerRef"


def player_ref(player_id: int, username: str) -> dict:
    """A ``PlayerRefOutput`` from the two values (for rows that carry no user object)."""
    return {"id": player_id, "username": username}
