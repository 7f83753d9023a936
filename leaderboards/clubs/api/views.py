"""Clubs: create, list, join, leave, members and roles, invite codes, club boards."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from pyramid_site.api.error_schema import errors, location
from pyramid_site.api.idempotency import idempotent
from pyramid_site.api.inputs import valid_input
from pyramid_site.api.pagination import page_parameters, page_schema, paged
from pyramid_site.api.visitors import VisitorReadable
from pyramid_site.errors import Code

from .. import services
from ..selectors import club_changes, club_for_viewer, club_members, clubs_for_viewer
from .inputs import ClubInput, ClubUpdateInput, JoinInput, RoleInput
from .output import ClubChangeOutput, ClubOutput, MemberOutput, change_output, club_output, member_output

CLUB = ClubOutput


class ClubListView(VisitorReadable, APIView):
    """Clubs: the public ones and mine, by name, in pages (`mine=true` for mine alone); POST creates one."""

    @extend_schema(
        parameters=[OpenApiParameter("mine", bool, description="only the clubs I am in"), *page_parameters()],
        responses={200: page_schema(ClubOutput)},
        operation_id="clubs_list",
        summary="Clubs: the public ones and mine, by name",
    )
    def get(self, request):
        mine = request.query_params.get("mine") in ("1", "true", "yes")
        return paged(request, clubs_for_viewer(viewer=request.user, mine_only=mine), lambda c: club_output(c, None))

    @extend_schema(
        request=ClubInput,
        parameters=[location()],
        responses={201: CLUB, **errors(Code.BAD_CLUB_NAME, Code.GUEST_NOT_ALLOWED, Code.CLUB_NAME_TAKEN)},
        summary="Create a club; you become its owner",
        description="Create a club with a name unique whatever its case; you become its owner, and the "
        "answer has its invite code. Guest accounts sign up first (403 `guest_not_allowed`).",
    )
    @idempotent
    def post(self, request):
        data = valid_input(ClubInput, request)
        club = services.club_create(user=request.user, **data)
        club, membership = club_for_viewer(club_id=club.pk, viewer=request.user)
        return Response(
            club_output(club, membership),
            status=status.HTTP_201_CREATED,
            headers={"Location": f"/api/clubs/{club.pk}/"},
        )


class ClubDetailView(VisitorReadable, APIView):
    """A club, with my role in it; its invite code to its owner and admins. A private club is 404 to
    outsiders."""

    @extend_schema(
        responses={200: CLUB, **errors(Code.CLUB_NOT_FOUND)}, summary="A club (its invite code for owner and admins)"
    )
    def get(self, request, club_id: int):
        return Response(club_output(*club_for_viewer(club_id=club_id, viewer=request.user)))

    @extend_schema(
        request=ClubUpdateInput,
        responses={
            200: CLUB,
            **errors(
                Code.BAD_CLUB_NAME, Code.NOT_CLUB_MANAGER, Code.CLUB_NOT_FOUND, Code.CLUB_NAME_TAKEN, Code.CLUB_ARCHIVED
            ),
        },
        summary="Change a club's name, description or privacy (owner and admins)",
        description="Change any of a club's name, description and privacy; owner and admins only. Each "
        "change is kept and shown with the club's tournaments (`changes`); 409 "
        "`club_archived` once the club is archived.",
    )
    def patch(self, request, club_id: int):
        data = valid_input(ClubUpdateInput, request)
        services.club_update(actor=request.user, club_id=club_id, **data)
        return Response(club_output(*club_for_viewer(club_id=club_id, viewer=request.user)))


class ClubJoinView(APIView):
    """Join a club with its invite code (from its owner or an admin): 201 with the club."""

    @extend_schema(
        request=JoinInput,
        parameters=[location()],
        responses={201: CLUB, **errors(Code.BAD_INVITE_CODE, Code.ALREADY_MEMBER, Code.CLUB_ARCHIVED)},
        summary="Join a club with its invite code",
    )
    @idempotent
    def post(self, request):
        membership = services.club_join(user=request.user, invite_code=valid_input(JoinInput, request)["invite_code"])
        return Response(
            club_output(*club_for_viewer(club_id=membership.club_id, viewer=request.user)),
            status=status.HTTP_201_CREATED,
            headers={"Location": f"/api/clubs/{membership.club_id}/"},
        )


class ClubLeaveView(APIView):
    """Leave a club. Its owner hands it over first (make another member owner), unless they are its last
    member: then the club closes, or, if one of its tournaments has started, is archived with them."""

    @extend_schema(
        request=None,
        responses={204: None, **errors(Code.NOT_MEMBER, Code.CLUB_NOT_FOUND, Code.OWNER_MUST_HAND_OVER)},
        summary="Leave a club",
        description="Leave a club; the tournaments you joined stay yours to play and read (403 `not_member` "
        "if you are not a member). The owner hands "
        "the club over first (409 `owner_must_hand_over`) unless they are its last member: "
        "then the club closes with its tournaments that never started, or, if one has "
        "started, is archived (`archived_at`) with its tournaments and standings.",
    )
    def post(self, request, club_id: int):
        services.club_leave(user=request.user, club_id=club_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClubInviteView(APIView):
    """Renew a club's invite code: the old one stops working at once. Owner and admins only."""

    @extend_schema(
        request=None,
        responses={200: CLUB, **errors(Code.NOT_CLUB_MANAGER, Code.CLUB_NOT_FOUND, Code.CLUB_ARCHIVED)},
        summary="Renew the invite code; the old one stops working (owner and admins)",
    )
    def post(self, request, club_id: int):
        services.invite_renew(actor=request.user, club_id=club_id)
        return Response(club_output(*club_for_viewer(club_id=club_id, viewer=request.user)))


class ClubMembersView(VisitorReadable, APIView):
    """A club's members and their roles, oldest first, in pages; members only."""

    @extend_schema(
        parameters=page_parameters(),
        responses={200: page_schema(MemberOutput), **errors(Code.NOT_MEMBER, Code.CLUB_NOT_FOUND)},
        summary="A club's members and their roles, oldest first (members only)",
    )
    def get(self, request, club_id: int):
        return paged(request, club_members(club_id=club_id, viewer=request.user), member_output)


class ClubMemberView(APIView):
    @extend_schema(
        request=RoleInput,
        responses={
            200: MemberOutput,
            **errors(
                Code.BAD_ROLE,
                Code.OWNER_ROLE_CHANGE,
                Code.NOT_CLUB_MANAGER,
                Code.GUEST_NOT_ALLOWED,
                Code.CLUB_NOT_FOUND,
                Code.MEMBER_NOT_FOUND,
                Code.CLUB_ARCHIVED,
            ),
        },
        summary="Set a member's role; making someone owner hands the club over (owner only)",
        description="Set a member's role: admin or member, or owner, which hands the club over (the old "
        "owner becomes an admin). The owner only.",
    )
    def patch(self, request, club_id: int, user_id: int):
        membership = services.member_role_set(
            actor=request.user, club_id=club_id, user_id=user_id, role=valid_input(RoleInput, request)["role"]
        )
        return Response(member_output(membership))

    @extend_schema(
        responses={
            204: None,
            **errors(
                Code.REMOVE_SELF,
                Code.NOT_CLUB_MANAGER,
                Code.RANK_TOO_LOW,
                Code.CLUB_NOT_FOUND,
                Code.MEMBER_NOT_FOUND,
                Code.CLUB_ARCHIVED,
            ),
        },
        summary="Remove a member (owner and admins)",
        description="Remove a member from a club. Owner and admins; an admin removes members only. The "
        "removal is kept (`GET /api/clubs/{id}/changes/`), and the member keeps playing and "
        "reading the tournaments they joined.",
    )
    def delete(self, request, club_id: int, user_id: int):
        services.member_remove(actor=request.user, club_id=club_id, user_id=user_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClubChangesView(APIView):
    """Every change made to a club and its tournaments (names, description, privacy, invite code, roles, members
    removed or leaving, archiving), oldest first, in pages; owner and admins only. A tournament shows the changes
    that touch it to everyone who sees it."""

    @extend_schema(
        parameters=page_parameters(),
        responses={200: page_schema(ClubChangeOutput), **errors(Code.NOT_CLUB_MANAGER, Code.CLUB_NOT_FOUND)},
        summary="Every change made to a club and its tournaments, oldest first (owner and admins)",
    )
    def get(self, request, club_id: int):
        return paged(request, club_changes(club_id=club_id, viewer=request.user), change_output)
