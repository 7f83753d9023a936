"""Typed pieces that the API's answers share: deal numbers (unsigned 64-bit, with a decimal text beside them
for clients whose integers stop at 2**53), presets, and a player named by id and username.

The ``...Output`` serializers of the apps describe every answer for the OpenAPI schema (each is a named
component); where an answer is built by a plain function for speed (a game answers every move), the function
says which serializer describes it, and the tests check every answer they see against the schema.
"""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.plumbing import append_meta
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

import engine

UINT64_MAX = 2**64 - 1
DEAL_NUMBER_PATTERN = "^[0-9]{1,20}$"
DEAL_NUMBER_SCHEMA = {"type": "integer", "format": "uint64", "minimum": 0, "maximum": UINT64_MAX,
                      "description": "deal number: an unsigned 64-bit integer (0 to 2**64 - 1); `number_text` beside "
                                     "it gives the same number as decimal text for clients whose integers stop at "
                                     "2**53"}
DEAL_NUMBER_TEXT_SCHEMA = {"type": "string", "pattern": DEAL_NUMBER_PATTERN,
                           "description": "the deal number as decimal text (exact in every client)"}
# every preset's name, and "custom" for any other rule set
PRESET_CHOICES = [*engine.PRESETS, "custom"]


def deal_number_text(number: int | None) -> str | None:
    return None if number is None else str(number)


@extend_schema_field(DEAL_NUMBER_SCHEMA)
class DealNumberField(serializers.IntegerField):
    """A deal number in an answer (a plain integer in the JSON)."""


@extend_schema_field(DEAL_NUMBER_TEXT_SCHEMA)
class DealNumberTextField(serializers.CharField):
    """The same deal number as decimal text."""


@extend_schema_field({"oneOf": [DEAL_NUMBER_SCHEMA, {**DEAL_NUMBER_TEXT_SCHEMA,
                                                     "description": "the deal number as decimal text"}],
                      "description": "deal number 0 to 2**64 - 1, as an integer or as decimal text"})
class DealNumberInputField(serializers.IntegerField):
    """A deal number in a body: an integer, or the same number as a string of digits (DRF's IntegerField has
    always taken both)."""

    def __init__(self, **kwargs):
        super().__init__(min_value=0, max_value=UINT64_MAX, **kwargs)


class PresetField(serializers.ChoiceField):
    """A preset's name, or ``custom`` for a rule set that is no preset."""

    def __init__(self, **kwargs):
        super().__init__(choices=PRESET_CHOICES, **kwargs)


class NullableItemsListField(serializers.ListField):
    """A list of ``child`` objects where an item may be null (a card gone from its place)."""


class NullableItemsListFieldSchema(OpenApiSerializerFieldExtension):
    # drf-spectacular leaves a child serializer's null out of a list's items: this puts it in
    target_class = NullableItemsListField

    def map_serializer_field(self, auto_schema, direction):
        component = auto_schema.resolve_serializer(self.target.child, direction)
        return {"type": "array", "items": append_meta(component.ref, {"nullable": True})}


class PlayerRefOutput(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()

    class Meta:
        ref_name = "PlayerRef"
