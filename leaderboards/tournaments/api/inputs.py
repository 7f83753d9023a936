"""Request bodies of the tournaments' API."""

from __future__ import annotations

from rest_framework import serializers

from pyramid_site.api.inputs import AwareDateTimeField

from ..models import Tournament


class TournamentInput(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    rules = serializers.CharField(max_length=400, default="classic", help_text="preset name or rule-set text")
    format = serializers.ChoiceField(choices=Tournament.Format.values)
    scoring = serializers.ChoiceField(choices=Tournament.Scoring.values, default=Tournament.Scoring.PLAIN)
    source = serializers.ChoiceField(
        choices=Tournament.Source.values,
        default=Tournament.Source.SECRET,
        help_text="secret: deals the server picks and proves winnable; daily: the day's daily deal",
    )
    deal_count = serializers.IntegerField(
        min_value=1,
        max_value=100,
        required=False,
        help_text="6 for a match, 30 for an arena when left out; a race is 1",
    )
    starts_at = AwareDateTimeField()
    ends_at = AwareDateTimeField()


class TournamentUpdateInput(serializers.Serializer):
    name = serializers.CharField(max_length=80, required=False)
    starts_at = AwareDateTimeField(required=False)
    ends_at = AwareDateTimeField(required=False)


class TournamentGameInput(serializers.Serializer):
    index = serializers.IntegerField(min_value=0, required=False, help_text="match only: which deal (0 first)")
