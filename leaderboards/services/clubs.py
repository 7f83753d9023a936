"""Clubs: create, join with an invite code, leave; owners and admins remove members and renew the
code; the owner sets roles and may hand the club over. Changes to one club's members take the
club's row lock, so two of them never interleave."""

from __future__ import annotations

import secrets

from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from pyramid_site.accounts.selectors import is_guest
from pyramid_site.api.errors import Conflict, Forbidden, Invalid, NotFound
from pyramid_site.api.names import clean_name

from ..models import Club, Membership

Role = Membership.Role


def new_invite_code() -> str:
    return secrets.token_urlsafe(12)


def _locked_club(club_id: int) -> Club:
    club = Club.objects.select_for_update().filter(pk=club_id).first()
    if club is None:
        raise NotFound(gettext("there is no club %(club_id)s") % {"club_id": club_id}, code="club_not_found")
    return club


def membership_of(club: Club, user) -> Membership | None:
    return Membership.objects.filter(club=club, user_id=user.pk).first()


def manager_of(club: Club, user, *, owner_only: bool = False) -> Membership:
    membership = membership_of(club, user)
    if membership is None or not membership.can_manage or (owner_only and membership.role != Role.OWNER):
        refusal = (gettext("only the owner of %(club)s may do this") if owner_only
                   else gettext("only the owner and admins of %(club)s may do this"))
        raise Forbidden(refusal % {"club": club.name}, code="not_club_manager")
    return membership


def club_name(name: str) -> str:
    return clean_name(name, what=gettext("a club name"), code="bad_club_name", max_length=60)


def not_a_guest(user, doing: str) -> None:
    """Guests play, join clubs and tournaments, but found and run nothing: a club or a tournament would be left
    to an account whose only key is one browser's token."""
    if is_guest(user):
        raise Forbidden(gettext("a guest account cannot %(doing)s: sign up first (your games stay yours)")
                        % {"doing": doing},
                        code="guest_not_allowed")


def club_create(*, user, name: str, description: str = "", is_private: bool = False) -> Club:
    not_a_guest(user, gettext("create a club"))
    name = club_name(name)
    try:
        with transaction.atomic():
            club = Club.objects.create(name=name, description=description, is_private=is_private,
                                       invite_code=new_invite_code())
            Membership.objects.create(club=club, user=user, role=Role.OWNER)
            return club
    except IntegrityError:
        raise Conflict(gettext("there is already a club named %(name)s") % {"name": repr(name)},
                       code="club_name_taken") from None


def club_update(*, actor, club_id: int, **changes) -> Club:
    with transaction.atomic():
        club = _locked_club(club_id)
        manager_of(club, actor)
        for name in ("name", "description", "is_private"):
            if changes.get(name) is not None:
                setattr(club, name, club_name(changes[name]) if name == "name" else changes[name])
        try:
            with transaction.atomic():
                club.save()
        except IntegrityError:
            raise Conflict(gettext("there is already a club named %(club)s") % {"club": repr(club.name)},
                           code="club_name_taken") from None
        return club


def club_join(*, user, invite_code: str) -> Membership:
    with transaction.atomic():
        club = Club.objects.select_for_update().filter(invite_code=invite_code.strip()).first()
        if club is None:
            raise NotFound(gettext("no club has this invite code (it may have been renewed)"), code="bad_invite_code")
        if membership_of(club, user):
            raise Conflict(gettext("you are already a member of %(club)s") % {"club": club.name}, code="already_member")
        return Membership.objects.create(club=club, user=user, role=Role.MEMBER)


def club_leave(*, user, club_id: int) -> None:
    """Leave a club. The owner hands the club over first, unless they are its last member: then the
    club closes."""
    with transaction.atomic():
        club = _locked_club(club_id)
        membership = membership_of(club, user)
        if membership is None:
            raise NotFound(gettext("you are not a member of %(club)s") % {"club": club.name}, code="not_member")
        if membership.role == Role.OWNER:
            if Membership.objects.filter(club=club).exclude(pk=membership.pk).exists():
                raise Conflict(gettext("the owner hands the club over (make another member owner) before leaving"),
                               code="owner_must_hand_over")
            club.delete()
            return
        membership.delete()


def member_remove(*, actor, club_id: int, user_id: int) -> None:
    with transaction.atomic():
        club = _locked_club(club_id)
        manager = manager_of(club, actor)
        target = Membership.objects.filter(club=club, user_id=user_id).first()
        if target is None:
            raise NotFound(gettext("user %(user_id)s is not a member of %(club)s")
                           % {"user_id": user_id, "club": club.name},
                           code="member_not_found")
        if target.user_id == actor.pk:
            raise Invalid(gettext("to leave your club, use leave"), code="remove_self")
        if target.role == Role.OWNER or (target.role == Role.ADMIN and manager.role != Role.OWNER):
            # only an admin gets here: the owner removing themselves was refused above
            raise Forbidden(gettext("an admin cannot remove the owner") if target.role == Role.OWNER
                            else gettext("an admin cannot remove the admin"), code="rank_too_low")
        target.delete()


def member_role_set(*, actor, club_id: int, user_id: int, role: str) -> Membership:
    """The owner makes a member admin or member; making someone owner hands the club over, and the
    old owner stays as an admin."""
    if role not in Role.values:
        raise Invalid(gettext("role must be one of %(roles)s") % {"roles": ', '.join(Role.values)}, code="bad_role")
    with transaction.atomic():
        club = _locked_club(club_id)
        owner = manager_of(club, actor, owner_only=True)
        target = Membership.objects.filter(club=club, user_id=user_id).first()
        if target is None:
            raise NotFound(gettext("user %(user_id)s is not a member of %(club)s")
                           % {"user_id": user_id, "club": club.name},
                           code="member_not_found")
        if target.pk == owner.pk:
            raise Invalid(gettext("hand the club over by making another member owner"), code="owner_role_change")
        if role != Role.MEMBER and is_guest(target.user):
            raise Forbidden(gettext("%(username)s is a guest account: it may be an owner or admin once it signs up")
                            % {"username": target.user.username},
                            code="guest_not_allowed")
        if role == Role.OWNER:
            owner.role = Role.ADMIN
            owner.save(update_fields=["role"])
        target.role = role
        target.save(update_fields=["role"])
        return target


def invite_renew(*, actor, club_id: int) -> Club:
    with transaction.atomic():
        club = _locked_club(club_id)
        manager_of(club, actor)
        club.invite_code = new_invite_code()
        club.save(update_fields=["invite_code"])
        return club
