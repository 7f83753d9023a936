"""Tournaments of a club: create, change, join, play, standings."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.serializers import GameOutput, game_output
from games.engine_glue import game_position
from pyramid_site.api.client import DEVICE_PARAMETER
from pyramid_site.api.error_schema import errors, location
from pyramid_site.api.idempotency import idempotent
from pyramid_site.api.inputs import valid_input
from pyramid_site.api.pagination import cursor_page_parameters, cursor_paged, page_parameters, page_schema, paged
from pyramid_site.api.visitors import VisitorReadable
from pyramid_site.client import client_mark
from pyramid_site.errors import Code

from ...clubs.api.output import ClubChangeOutput, change_output
from .. import services
from ..selectors import (
    club_tournaments_for_viewer,
    games_not_counted,
    standings_page,
    standings_rank,
    tournament_for_viewer,
    tournament_page,
)
from .inputs import TournamentGameInput, TournamentInput, TournamentUpdateInput
from .output import (
    EntryOutput,
    StandingOutput,
    TournamentDetailOutput,
    TournamentOutput,
    WindowChangeOutput,
    entry_output,
    joined_output,
    tournament_detail_output,
    tournament_output,
    window_change_output,
)

TOURNAMENT = TournamentOutput
STANDINGS_PAGE = page_schema(
    StandingOutput,
    name="StandingsPage",
    tournament=TournamentOutput(),
    final=serializers.BooleanField(help_text="the tournament is over: these standings are final"),
    window_changes=WindowChangeOutput(many=True, help_text="every move of the window, oldest first"),
    changes=ClubChangeOutput(
        many=True,
        help_text="every other change to the tournament and its club from its creation to its end, oldest first",
    ),
)


class ClubTournamentsView(VisitorReadable, APIView):
    """A club's tournaments, the latest start first, in pages; POST creates one (owner and admins)."""

    @extend_schema(
        parameters=page_parameters(),
        responses={200: page_schema(TournamentOutput), **errors(Code.CLUB_NOT_FOUND)},
        summary="A club's tournaments, the latest start first",
    )
    def get(self, request, club_id: int):
        membership, tournaments = club_tournaments_for_viewer(club_id=club_id, viewer=request.user)
        return paged(request, tournaments, lambda t: tournament_output(t, membership))

    @extend_schema(
        request=TournamentInput,
        parameters=[location()],
        responses={
            201: TOURNAMENT,
            **errors(
                Code.BAD_TOURNAMENT_NAME,
                Code.BAD_RULES,
                Code.BAD_WINDOW,
                Code.BAD_FORMAT,
                Code.BAD_SCORING,
                Code.BAD_SOURCE,
                Code.BAD_DEAL_COUNT,
                Code.NO_DAILY_DEAL,
                Code.NOT_CLUB_MANAGER,
                Code.GUEST_NOT_ALLOWED,
                Code.CLUB_NOT_FOUND,
                Code.CLUB_ARCHIVED,
            ),
        },
        summary="Create a tournament (owner and admins); secret deals are prepared by the solver jobs",
        description="Create a match (one ranked game per deal), an arena (a sequence of deals played "
        "one after another) or a race (one secret deal dealt to every entrant at its start, progress followed "
        'live, ranked by cards left then time) over a window (docs/leaderboards.md, "Tournament standings"). '
        "Secret deals are found and proved winnable by the solver jobs: the tournament is "
        "`preparing` until they are ready. Guest accounts sign up first "
        "(403 `guest_not_allowed`).",
    )
    @idempotent
    def post(self, request, club_id: int):
        tournament = services.tournament_create(
            actor=request.user, club_id=club_id, **valid_input(TournamentInput, request)
        )
        return Response(
            tournament_output(*tournament_for_viewer(tournament_id=tournament.pk, viewer=request.user)),
            status=status.HTTP_201_CREATED,
            headers={"Location": f"/api/tournaments/{tournament.pk}/"},
        )


class TournamentView(VisitorReadable, APIView):
    """A tournament of a club I may see, or that I joined."""

    @extend_schema(
        responses={200: TournamentDetailOutput, **errors(Code.TOURNAMENT_NOT_FOUND)},
        description="A tournament, with my entry and my game of each deal once I have joined, and every "
        "change made to it and its club. Its entrants see it whatever became of their "
        "membership of the club.",
        summary="A tournament, with my entry and my game of each deal once I have joined",
    )
    def get(self, request, tournament_id: int):
        page = tournament_page(tournament_id=tournament_id, viewer=request.user)
        return Response(tournament_detail_output(page))

    @extend_schema(
        request=TournamentUpdateInput,
        responses={
            200: TOURNAMENT,
            **errors(
                Code.BAD_TOURNAMENT_NAME,
                Code.BAD_WINDOW,
                Code.NOT_CLUB_MANAGER,
                Code.TOURNAMENT_NOT_FOUND,
                Code.TOURNAMENT_OVER,
                Code.TOURNAMENT_STARTED,
                Code.DAILY_WINDOW_FIXED,
                Code.CLUB_ARCHIVED,
            ),
        },
        summary="Rename a tournament or move its window (owner and admins)",
        description="Rename a tournament or move its window. Once it has started its start is fixed and "
        "its end only moves later; every move of the window is shown in the standings "
        "(`window_changes`), every new name with the tournament (`changes`).",
    )
    def patch(self, request, tournament_id: int):
        services.tournament_update(
            actor=request.user, tournament_id=tournament_id, **valid_input(TournamentUpdateInput, request)
        )
        return Response(tournament_output(*tournament_for_viewer(tournament_id=tournament_id, viewer=request.user)))

    @extend_schema(
        responses={
            204: None,
            **errors(Code.NOT_CLUB_MANAGER, Code.TOURNAMENT_NOT_FOUND, Code.TOURNAMENT_STARTED, Code.CLUB_ARCHIVED),
        },
        summary="Delete a tournament that has not started (owner and admins)",
        description="Delete a tournament before it starts; owner and admins only.",
    )
    def delete(self, request, tournament_id: int):
        services.tournament_delete(actor=request.user, tournament_id=tournament_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TournamentJoinView(APIView):
    """Join a tournament of a club of mine, at any time until it ends; only games I start from then on count."""

    @extend_schema(
        request=None,
        parameters=[location()],
        responses={
            201: EntryOutput,
            **errors(
                Code.NOT_MEMBER,
                Code.TOURNAMENT_NOT_FOUND,
                Code.TOURNAMENT_OVER,
                Code.RACE_STARTED,
                Code.ALREADY_JOINED,
                Code.CLUB_ARCHIVED,
            ),
        },
        summary="Join a tournament of your club, until it ends (a race: until it starts)",
        description="Join a tournament of a club you are a member of; a race's entrants are set at its start "
        "(409 `race_started` after). Only games started after joining "
        "count: `games_not_counted` lists your games of its deals started before (on a "
        "tournament of the daily deal, a daily game played first), whose deals stay played.",
    )
    @idempotent
    def post(self, request, tournament_id: int):
        entry = services.tournament_join(user=request.user, tournament_id=tournament_id)
        return Response(
            joined_output(entry, games_not_counted(entry)),
            status=status.HTTP_201_CREATED,
            headers={"Location": f"/api/tournaments/{tournament_id}/"},
        )


class TournamentLeaveView(APIView):
    """Withdraw from a tournament I joined, until it starts; from its start entries stay to its end."""

    @extend_schema(
        request=None,
        responses={204: None, **errors(Code.TOURNAMENT_NOT_FOUND, Code.TOURNAMENT_STARTED, Code.NOT_JOINED)},
        summary="Withdraw from a tournament, until it starts",
    )
    def post(self, request, tournament_id: int):
        services.tournament_leave(user=request.user, tournament_id=tournament_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TournamentGameView(APIView):
    """Start my ranked game of a tournament's deal: in a match any deal by `index`, in an arena the next one.
    Play it with the games API; it closes as it stands when the tournament ends."""

    @extend_schema(
        request=TournamentGameInput,
        parameters=[DEVICE_PARAMETER, location()],
        responses={
            201: GameOutput,
            **errors(
                Code.BAD_INDEX,
                Code.TOURNAMENT_NOT_FOUND,
                Code.DEAL_NOT_FOUND,
                Code.ALREADY_PLAYED,
                Code.DAILY_OVER,
                Code.TOURNAMENT_OVER,
                Code.NOT_STARTED,
                Code.NOT_READY,
                Code.NOT_JOINED,
                Code.GAME_IN_PROGRESS,
            ),
        },
        summary="Start your ranked game of the tournament's next deal; play it with the games API",
    )
    @idempotent
    def post(self, request, tournament_id: int):
        data = valid_input(TournamentGameInput, request)
        game = services.tournament_game_start(
            user=request.user, tournament_id=tournament_id, index=data.get("index"), client=client_mark(request)
        )
        return Response(
            game_output(game, game_position(game)),
            status=status.HTTP_201_CREATED,
            headers={"Location": f"/api/games/{game.pk}/"},
        )


class StandingsView(VisitorReadable, APIView):
    """A tournament's standings in pages, with the tournament, whether they are final, every move of its window
    and every other change: live to the club's members and the tournament's entrants, and to everyone who sees
    the club once it is over."""

    @extend_schema(
        parameters=cursor_page_parameters(default_limit=100, max_limit=1000),
        responses={200: STANDINGS_PAGE, **errors(Code.NOT_MEMBER, Code.TOURNAMENT_NOT_FOUND)},
        summary="Standings: live to members and entrants, final to everyone who sees the club after the end",
    )
    def get(self, request, tournament_id: int):
        page = standings_page(tournament_id=tournament_id, viewer=request.user)
        return cursor_paged(
            request,
            page.keyed,
            lambda row: entry_output(row, scored=page.scored),
            key=page.key,
            decorate=lambda rows: standings_rank(tournament=page.tournament, rows=rows),
            offset_items=page.rows,
            default_limit=100,
            max_limit=1000,
            tournament=tournament_output(page.tournament, page.membership),
            final=page.final,
            window_changes=[window_change_output(c) for c in page.window_changes],
            changes=[change_output(c) for c in page.changes],
        )
