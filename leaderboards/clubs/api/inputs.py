"""Request bodies of the clubs' API."""

from __future__ import annotations

from rest_framework import serializers

from ..models import Membership


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
