"""Request bodies of the leaderboards API."""

from __future__ import annotations

from rest_framework import serializers

from pyramid_site.api.inputs import AwareDateTimeField

from ..models import Membership, Tournament


class ClubInput(serializers.Serializer):
    name = serializers.CharField(max_length=60)
    description = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")
    is_private = serializers.BooleanField(required=False, default=False)


class ClubUpdateInput(serializers.Serializer):
    name = serializers.CharField(max_length=60, required=False)
    description = serializers.CharField(max_length=2000, required=False, allow_blank=True)
    is_private = serializers.BooleanField(required=False)


class JoinInput(serializers.Serializer):
    invite_code = serializers.CharField(max_length=64)


class RoleInput(serializers.Serializer):
    role = serializers.ChoiceField(choices=Membership.Role.values)


class TournamentInput(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    rules = serializers.CharField(max_length=400, default="classic", help_text="preset name or rule-set text")
    format = serializers.ChoiceField(choices=Tournament.Format.values)
    scoring = serializers.ChoiceField(choices=Tournament.Scoring.values, default=Tournament.Scoring.PLAIN)
    source = serializers.ChoiceField(choices=Tournament.Source.values, default=Tournament.Source.SECRET,
                                     help_text="secret: deals the server picks and proves winnable; daily: the "
                                               "day's daily deal")
    deal_count = serializers.IntegerField(min_value=1, max_value=100, required=False,
                                          help_text="6 for a match, 30 for an arena when left out")
    starts_at = AwareDateTimeField()
    ends_at = AwareDateTimeField()


class TournamentUpdateInput(serializers.Serializer):
    name = serializers.CharField(max_length=80, required=False)
    starts_at = AwareDateTimeField(required=False)
    ends_at = AwareDateTimeField(required=False)


class TournamentGameInput(serializers.Serializer):
    index = serializers.IntegerField(min_value=0, required=False, help_text="match only: which deal (0 first)")
