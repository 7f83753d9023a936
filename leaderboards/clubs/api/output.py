"""The clubs' answers, each declared once by an ``...Output`` serializer that also produces it (see
``leaderboards.boards.api.output``)."""

from __future__ import annotations

from rest_framework import serializers
from rest_framework.fields import SkipField

from pyramid_site.api.output import Computed, PlayerRefOutput, WireDateTimeField

from ..models import Club, ClubChange, Membership

# the choice sets of the answers (and of the schema's enums: SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"])
CLUB_ROLES = list(Membership.Role.values)
CLUB_CHANGE_KINDS = list(ClubChange.Kind.values)


def club_computed(club: Club, membership: Membership | None, **more) -> Computed:
    # the invite code only to the club's owner and admins: None leaves it out of the answer (OmittedIfNone)
    return Computed(
        club,
        members=getattr(club, "member_count", None),
        my_role=membership.role if membership else None,
        invite_code=club.invite_code if membership and membership.can_manage else None,
        **more,
    )


def club_output(club: Club, membership: Membership | None) -> dict:
    return ClubOutput(club_computed(club, membership)).data


def member_output(membership: Membership) -> dict:
    return MemberOutput(membership).data


_HAS_BEFORE = {*ClubChange.VALUE_KINDS, ClubChange.Kind.MEMBER_REMOVED, ClubChange.Kind.MEMBER_LEFT}


def change_computed(change: ClubChange) -> Computed:
    before = change.before if change.kind in _HAS_BEFORE else None
    after = change.after if change.kind in ClubChange.VALUE_KINDS else None
    return Computed(change, tournament=change.tournament_id, before=before, after=after)


def change_output(change: ClubChange) -> dict:
    return ClubChangeOutput(change_computed(change)).data


class OmittedIfNoneCharField(serializers.CharField):
    """A text that the answer leaves out (rather than null) when it is None."""

    def get_attribute(self, instance):
        value = super().get_attribute(instance)
        if value is None:
            raise SkipField
        return value


class ClubOutput(serializers.Serializer):
    """A club (``club_output``); its invite code only to its owner and admins."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    description = serializers.CharField(allow_blank=True)
    is_private = serializers.BooleanField(help_text="only members see its boards and tournaments")
    members = serializers.IntegerField(allow_null=True)
    created_at = WireDateTimeField()
    archived_at = WireDateTimeField(
        allow_null=True,
        help_text="set once its last member left with tournaments started: read-only from then on, its standings kept",
    )
    my_role = serializers.ChoiceField(choices=CLUB_ROLES, allow_null=True)
    invite_code = OmittedIfNoneCharField(required=False, help_text="owner and admins only")

    class Meta:
        ref_name = "Club"


class PlayerClubOutput(ClubOutput):
    role = serializers.ChoiceField(choices=CLUB_ROLES, help_text="the player's role in it")

    class Meta:
        ref_name = "PlayerClub"


class MemberOutput(serializers.Serializer):
    """A club's member (``member_output``)."""

    user = PlayerRefOutput()
    role = serializers.ChoiceField(choices=CLUB_ROLES)
    joined_at = WireDateTimeField()

    class Meta:
        ref_name = "Member"


class ClubChangeOutput(serializers.Serializer):
    """A change to a club or one of its tournaments (``change_output``)."""

    kind = serializers.ChoiceField(choices=CLUB_CHANGE_KINDS)
    changed_by = PlayerRefOutput(allow_null=True, help_text="who made it (null once their account is deleted)")
    changed_at = WireDateTimeField()
    member = PlayerRefOutput(allow_null=True, help_text="the member removed, who left, or whose role changed")
    tournament = serializers.IntegerField(allow_null=True, help_text="the tournament renamed")
    before = serializers.CharField(
        allow_null=True, allow_blank=True, help_text="the value before (a removed or leaving member's role)"
    )
    after = serializers.CharField(allow_null=True, allow_blank=True)

    class Meta:
        ref_name = "ClubChange"
