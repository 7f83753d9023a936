"""Clubs as their members and visitors see them: which clubs a viewer may see, their members and changes."""

from __future__ import annotations

from django.db.models import Count, Q
from django.utils.translation import gettext

from pyramid_site.errors import Code, DomainError

from .models import Club, ClubChange, Membership


def club_for_viewer(*, club_id: int, viewer) -> tuple[Club, Membership | None]:
    """The club and the viewer's membership; a private club is hidden from everyone else."""
    club = visible_clubs(viewer).annotate(member_count=Count("memberships")).filter(pk=club_id).first()
    if club is None:
        raise DomainError(
            Code.CLUB_NOT_FOUND, gettext("there is no club %(club_id)s that you can see") % {"club_id": club_id}
        )
    return club, membership_of(club, viewer)


def membership_of(club: Club, viewer) -> Membership | None:
    """The viewer's membership of the club; None for a visitor."""
    me = viewer_id(viewer)
    return None if me is None else Membership.objects.filter(club=club, user_id=me).first()


def clubs_for_viewer(*, viewer, mine_only: bool = False):
    clubs = visible_clubs(viewer).annotate(member_count=Count("memberships")).order_by("name")
    if mine_only:  # a visitor has none
        clubs = clubs.filter(memberships__user_id=viewer_id(viewer)) if viewer_id(viewer) else clubs.none()
    return clubs


def members_of(club: Club):
    return Membership.objects.filter(club=club).select_related("user").order_by("joined_at", "pk")


def club_members(*, club_id: int, viewer):
    """A club's members, oldest first: to its members only (a private club is 404 to outsiders)."""
    club, membership = club_for_viewer(club_id=club_id, viewer=viewer)
    if membership is None:
        raise DomainError(Code.NOT_MEMBER, gettext("only members of %(club)s see its members") % {"club": club.name})
    return members_of(club)


def club_changes(*, club_id: int, viewer):
    """Every change made to a club and its tournaments, oldest first: to its owner and admins."""
    club, membership = club_for_viewer(club_id=club_id, viewer=viewer)
    if membership is None or not membership.can_manage:
        raise DomainError(
            Code.NOT_CLUB_MANAGER, gettext("only the owner and admins of %(club)s may do this") % {"club": club.name}
        )
    return ClubChange.objects.filter(club=club).select_related("changed_by", "member").order_by("changed_at", "pk")


def club_must_be_visible(*, club_id: int, viewer) -> None:
    """Refuse a club the viewer may not see (a private club of which they are not a member) as if it did not
    exist."""
    if not visible_clubs(viewer).filter(pk=club_id).exists():
        raise DomainError(
            Code.CLUB_NOT_FOUND, gettext("there is no club %(club_id)s that you can see") % {"club_id": club_id}
        )


def viewer_id(viewer) -> int | None:
    """The viewer's account id; None for a visitor (no account: ``AnonymousUser``, or nobody at all), who is
    an outsider everywhere: no row of theirs, no membership."""
    return viewer.pk if viewer is not None and getattr(viewer, "is_authenticated", False) else None


def visible_clubs(viewer):
    """The public clubs, and the private ones the viewer is a member of."""
    me = viewer_id(viewer)
    if me is None:
        return Club.objects.filter(is_private=False)
    return Club.objects.filter(Q(is_private=False) | Q(pk__in=Membership.objects.filter(user_id=me).values("club_id")))
