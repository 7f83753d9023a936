"""Clubs: create, join with an invite code, leave; owners and admins remove members and renew the
code; the owner sets roles and may hand the club over. Changes to one club's members take the
club's row lock, so two of them never interleave. Every change an owner or admin makes, and every
member leaving, is kept in a :class:`ClubChange`. A club whose last member leaves closes, unless one
of its tournaments has started: then it is archived (kept, read-only) with them."""

from __future__ import annotations

import secrets

from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext

from pyramid_site.accounts.selectors import is_guest
from pyramid_site.errors import Code, DomainError
from pyramid_site.names import clean_name

from .models import Club, ClubChange, Membership
from .selectors import club_for_viewer

Role = Membership.Role
Kind = ClubChange.Kind


def club_seen(*, club_id: int, user) -> None:
    """Refuse a club the user may not see as if it did not exist (404 ``club_not_found``), before anything else
    about it is said (that they may not manage it, say)."""
    club_for_viewer(club_id=club_id, viewer=user)


def new_invite_code() -> str:
    return secrets.token_urlsafe(12)


def _locked_club(club_id: int) -> Club:
    club = Club.objects.select_for_update().filter(pk=club_id).first()
    if club is None:
        raise DomainError(Code.CLUB_NOT_FOUND, gettext("there is no club %(club_id)s") % {"club_id": club_id})
    return club


def club_shared_lock(club_id: int) -> Club | None:
    """The club, its row locked against membership changes (which lock it for update) until the caller's
    transaction ends, but not against others holding this lock: tournament joins of one club go on side by
    side, and none lands between a member's removal and its commit."""
    lock = " FOR SHARE" if connection.vendor == "postgresql" else ""
    return next(iter(Club.objects.raw(f"SELECT * FROM {Club._meta.db_table} WHERE id = %s{lock}", [club_id])), None)


def not_archived(club: Club) -> None:
    if club.archived_at is not None:
        raise DomainError(
            Code.CLUB_ARCHIVED,
            gettext("%(club)s is archived: it keeps its tournaments' standings and changes no more")
            % {"club": club.name},
        )


def membership_of(club: Club, user) -> Membership | None:
    return Membership.objects.filter(club=club, user_id=user.pk).first()


def change_record(
    *, club: Club, kind: str, actor, member=None, tournament=None, before: str = "", after: str = ""
) -> ClubChange:
    return ClubChange.objects.create(
        club=club, kind=kind, changed_by=actor, member=member, tournament=tournament, before=before, after=after
    )


def manager_of(club: Club, user, *, owner_only: bool = False) -> Membership:
    not_archived(club)
    membership = membership_of(club, user)
    if membership is None or not membership.can_manage or (owner_only and membership.role != Role.OWNER):
        refusal = (
            gettext("only the owner of %(club)s may do this")
            if owner_only
            else gettext("only the owner and admins of %(club)s may do this")
        )
        raise DomainError(Code.NOT_CLUB_MANAGER, refusal % {"club": club.name})
    return membership


def club_name(name: str) -> str:
    return clean_name(name, what=gettext("a club name"), code=Code.BAD_CLUB_NAME, max_length=60)


def not_a_guest(user, doing: str) -> None:
    """Guests play, join clubs and tournaments, but found and run nothing: a club or a tournament would be left
    to an account whose only key is one browser's token."""
    if is_guest(user):
        raise DomainError(
            Code.GUEST_NOT_ALLOWED,
            gettext("a guest account cannot %(doing)s: sign up first (your games stay yours)") % {"doing": doing},
        )


def club_create(*, user, name: str, description: str = "", is_private: bool = False) -> Club:
    not_a_guest(user, gettext("create a club"))
    name = club_name(name)
    try:
        with transaction.atomic():
            club = Club.objects.create(
                name=name, description=description, is_private=is_private, invite_code=new_invite_code()
            )
            Membership.objects.create(club=club, user=user, role=Role.OWNER)
            return club
    except IntegrityError:
        raise DomainError(
            Code.CLUB_NAME_TAKEN, gettext("there is already a club named %(name)s") % {"name": repr(name)}
        ) from None


def club_update(*, actor, club_id: int, **changes) -> Club:
    club_seen(club_id=club_id, user=actor)
    with transaction.atomic():
        club = _locked_club(club_id)
        manager_of(club, actor)
        before = _club_values(club)
        for name in ("name", "description", "is_private"):
            if changes.get(name) is not None:
                setattr(club, name, club_name(changes[name]) if name == "name" else changes[name])
        try:
            with transaction.atomic():
                club.save()
        except IntegrityError:
            raise DomainError(
                Code.CLUB_NAME_TAKEN, gettext("there is already a club named %(club)s") % {"club": repr(club.name)}
            ) from None
        for kind, after in _club_values(club).items():
            if after != before[kind]:
                change_record(club=club, kind=kind, actor=actor, before=before[kind], after=after)
        return club


def _club_values(club: Club) -> dict[str, str]:
    """What a club change records, as text, by the kind of its change."""
    return {
        Kind.CLUB_NAME: club.name,
        Kind.CLUB_DESCRIPTION: club.description,
        Kind.CLUB_PRIVACY: "private" if club.is_private else "public",
    }


def club_join(*, user, invite_code: str) -> Membership:
    with transaction.atomic():
        club = Club.objects.select_for_update().filter(invite_code=invite_code.strip()).first()
        if club is None:
            raise DomainError(Code.BAD_INVITE_CODE, gettext("no club has this invite code (it may have been renewed)"))
        not_archived(club)
        if membership_of(club, user):
            raise DomainError(
                Code.ALREADY_MEMBER, gettext("you are already a member of %(club)s") % {"club": club.name}
            )
        return Membership.objects.create(club=club, user=user, role=Role.MEMBER)


def club_leave(*, user, club_id: int) -> None:
    """Leave a club. The owner hands the club over first, unless they are its last member: then the
    club closes, its tournaments that never started with it; or, if one has started, it is archived
    with them (their entrants keep playing them to their end, and their standings stay)."""
    club_seen(club_id=club_id, user=user)
    with transaction.atomic():
        club = _locked_club(club_id)
        membership = membership_of(club, user)
        if membership is None:
            raise DomainError(Code.NOT_MEMBER, gettext("you are not a member of %(club)s") % {"club": club.name})
        if membership.role == Role.OWNER:
            if Membership.objects.filter(club=club).exclude(pk=membership.pk).exists():
                raise DomainError(
                    Code.OWNER_MUST_HAND_OVER,
                    gettext("the owner hands the club over (make another member owner) before leaving"),
                )
            now = timezone.now()
            club.tournaments.filter(starts_at__gt=now).delete()
            if not club.tournaments.exists():
                club.delete()
                return
            membership.delete()
            club.archived_at = now
            club.save(update_fields=["archived_at"])
            change_record(club=club, kind=Kind.CLUB_ARCHIVED, actor=user)
            return
        membership.delete()
        change_record(club=club, kind=Kind.MEMBER_LEFT, actor=user, member=user, before=membership.role)


def member_remove(*, actor, club_id: int, user_id: int) -> None:
    club_seen(club_id=club_id, user=actor)
    with transaction.atomic():
        club = _locked_club(club_id)
        manager = manager_of(club, actor)
        target = Membership.objects.filter(club=club, user_id=user_id).first()
        if target is None:
            raise DomainError(
                Code.MEMBER_NOT_FOUND,
                gettext("user %(user_id)s is not a member of %(club)s") % {"user_id": user_id, "club": club.name},
            )
        if target.user_id == actor.pk:
            raise DomainError(Code.REMOVE_SELF, gettext("to leave your club, use leave"))
        if target.role == Role.OWNER or (target.role == Role.ADMIN and manager.role != Role.OWNER):
            # only an admin gets here: the owner removing themselves was refused above
            raise DomainError(
                Code.RANK_TOO_LOW,
                gettext("an admin cannot remove the owner")
                if target.role == Role.OWNER
                else gettext("an admin cannot remove the admin"),
            )
        target.delete()
        change_record(club=club, kind=Kind.MEMBER_REMOVED, actor=actor, member=target.user, before=target.role)


def member_role_set(*, actor, club_id: int, user_id: int, role: str) -> Membership:
    """The owner makes a member admin or member; making someone owner hands the club over, and the
    old owner stays as an admin."""
    club_seen(club_id=club_id, user=actor)
    if role not in Role.values:
        raise DomainError(Code.BAD_ROLE, gettext("role must be one of %(roles)s") % {"roles": ", ".join(Role.values)})
    with transaction.atomic():
        club = _locked_club(club_id)
        owner = manager_of(club, actor, owner_only=True)
        target = Membership.objects.filter(club=club, user_id=user_id).first()
        if target is None:
            raise DomainError(
                Code.MEMBER_NOT_FOUND,
                gettext("user %(user_id)s is not a member of %(club)s") % {"user_id": user_id, "club": club.name},
            )
        if target.pk == owner.pk:
            raise DomainError(Code.OWNER_ROLE_CHANGE, gettext("hand the club over by making another member owner"))
        if role != Role.MEMBER and is_guest(target.user):
            raise DomainError(
                Code.GUEST_NOT_ALLOWED,
                gettext("%(username)s is a guest account: it may be an owner or admin once it signs up")
                % {"username": target.user.username},
            )
        if role == Role.OWNER:
            owner.role = Role.ADMIN
            owner.save(update_fields=["role"])
            change_record(
                club=club, kind=Kind.MEMBER_ROLE, actor=actor, member=actor, before=Role.OWNER, after=Role.ADMIN
            )
        if target.role != role:
            change_record(
                club=club, kind=Kind.MEMBER_ROLE, actor=actor, member=target.user, before=target.role, after=role
            )
        target.role = role
        target.save(update_fields=["role"])
        return target


def invite_renew(*, actor, club_id: int) -> Club:
    club_seen(club_id=club_id, user=actor)
    with transaction.atomic():
        club = _locked_club(club_id)
        manager_of(club, actor)
        club.invite_code = new_invite_code()
        club.save(update_fields=["invite_code"])
        change_record(club=club, kind=Kind.INVITE_RENEWED, actor=actor)
        return club
