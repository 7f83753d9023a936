"""Clubs, their members and the audit record of their changes.

The clubs know nothing of the rooms above them: a tournament's row points at its club, and a change that renames
a tournament points at it by the app's model name, never by an import."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Upper

from pyramid_site.names import canonical_name


class Club(models.Model):
    name = models.CharField(max_length=60, unique=True)
    # the name's canonical key (pyramid_site.names.canonical_name: case folded, confusable skeleton), kept
    # with the name by save(): "Owls", "OWLS" and "Оwls" with a Cyrillic О are one name
    name_key = models.TextField(unique=True, editable=False)
    description = models.TextField(blank=True, max_length=2000)
    is_private = models.BooleanField(default=False, help_text="only members see its boards and tournaments")
    invite_code = models.CharField(max_length=24, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    archived_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="its last member left while it had tournaments that had started: kept, read-only, for their "
        "standings; it takes no members, tournaments or changes",
    )

    class Meta:
        constraints = [
            models.CheckConstraint(condition=~Q(name=""), name="club_has_name"),
            # names are kept NFKC-normalised (pyramid_site.names); "Owls" and "OWLS" are one name
            models.UniqueConstraint(Upper("name"), name="club_name_unique_whatever_case"),
            models.CheckConstraint(
                condition=Q(archived_at__isnull=True) | Q(archived_at__gte=F("created_at")),
                name="club_archived_after_created",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        self.name_key = canonical_name(self.name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner"
        ADMIN = "admin"
        MEMBER = "member"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=8, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_once"),
            models.UniqueConstraint(fields=["club"], condition=Q(role="owner"), name="membership_one_owner"),
            models.CheckConstraint(condition=Q(role__in=["owner", "admin", "member"]), name="membership_role_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.club_id} ({self.role})"

    @property
    def can_manage(self) -> bool:
        return self.role in (self.Role.OWNER, self.Role.ADMIN)


# the kinds of ClubChange about one member (which name them), and those that change a value (before and after)
_MEMBER_KINDS = ["member_removed", "member_left", "member_role"]


_VALUE_KINDS = ["club_name", "club_description", "club_privacy", "member_role", "tournament_name"]


class ClubChange(models.Model):
    """The audit record of a change to a club or one of its tournaments (who, when, what): made by its owner or
    an admin, or a member leaving. The club's managers read the club's record; a tournament shows the changes
    that touch it (docs/fair-play.md, "Tournaments nobody can bend"). A tournament's window moves are in
    :class:`WindowChange`."""

    class Kind(models.TextChoices):
        CLUB_NAME = "club_name"
        CLUB_DESCRIPTION = "club_description"
        CLUB_PRIVACY = "club_privacy"  # before and after: "public" or "private"
        INVITE_RENEWED = "invite_renewed"  # neither code is kept here
        MEMBER_REMOVED = "member_removed"  # before: the role the member had
        MEMBER_LEFT = "member_left"  # before: the role the member had
        MEMBER_ROLE = "member_role"
        CLUB_ARCHIVED = "club_archived"
        TOURNAMENT_NAME = "tournament_name"

    MEMBER_KINDS = _MEMBER_KINDS
    VALUE_KINDS = _VALUE_KINDS

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="changes")
    tournament = models.ForeignKey(
        "leaderboards.Tournament",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="changes",
        help_text="the tournament changed (its name)",
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    # null once the account is deleted; the record stays
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    changed_at = models.DateTimeField(auto_now_add=True)
    # the record of a member goes with their account, as their entries do (only idle guests are ever deleted)
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        help_text="the member removed, who left, or whose role changed",
    )
    before = models.TextField(blank=True, default="")
    after = models.TextField(blank=True, default="")

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(
                    kind__in=[
                        "club_name",
                        "club_description",
                        "club_privacy",
                        "invite_renewed",
                        "member_removed",
                        "member_left",
                        "member_role",
                        "club_archived",
                        "tournament_name",
                    ]
                ),
                name="club_change_kind_valid",
            ),
            models.CheckConstraint(
                condition=Q(kind="tournament_name", tournament__isnull=False)
                | (~Q(kind="tournament_name") & Q(tournament__isnull=True)),
                name="club_change_tournament_iff_renamed",
            ),
            models.CheckConstraint(
                condition=Q(kind__in=_MEMBER_KINDS, member__isnull=False)
                | (~Q(kind__in=_MEMBER_KINDS) & Q(member__isnull=True)),
                name="club_change_member_iff_member_kind",
            ),
            # nobody removes themselves (that is leaving), and nobody leaves for someone else
            models.CheckConstraint(
                condition=~Q(kind="member_removed", member=F("changed_by")), name="club_change_removal_of_another"
            ),
            models.CheckConstraint(
                condition=~Q(kind="member_left") | Q(member=F("changed_by")) | Q(changed_by__isnull=True),
                name="club_change_left_by_themselves",
            ),
            models.CheckConstraint(
                condition=~Q(kind__in=_VALUE_KINDS) | ~Q(before=F("after")), name="club_change_changes_something"
            ),
        ]
        indexes = [models.Index(fields=["club", "changed_at"], name="club_change_club_time")]
        ordering = ["club", "changed_at", "pk"]

    def __str__(self) -> str:
        return f"{self.kind} in club {self.club_id} by {self.changed_by_id} at {self.changed_at:%Y-%m-%d %H:%M}"
