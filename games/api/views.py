"""Views of the games API: parse the input, call a service or selector, shape the output."""

from __future__ import annotations

from urllib.parse import urlencode

from django.conf import settings
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, PolymorphicProxySerializer, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

import engine
from pyramid_site.api.client import DEVICE_PARAMETER
from pyramid_site.api.error_schema import errors, location
from pyramid_site.api.idempotency import idempotent
from pyramid_site.api.inputs import json_object, valid_input
from pyramid_site.api.output import DEAL_NUMBER_PATTERN, PRESET_CHOICES
from pyramid_site.api.pagination import cursor_page_parameters, cursor_paged, page_parameters, page_schema, paged
from pyramid_site.api.params import date_value, int_param
from pyramid_site.api.play_throttles import AccountAndAddressThrottle
from pyramid_site.api.throttles import AccountThrottle
from pyramid_site.client import client_mark
from pyramid_site.clock import utc_today
from pyramid_site.errors import Code, DomainError
from pyramid_site.solver_budget import SolverPayer

from .. import selectors, services
from ..engine_glue import game_position
from ..models import Deal
from ..tasks import analyse_game_soon, solve_deal_soon
from .serializers import (
    DailyCommitmentOutput,
    DailyOutput,
    DailyVerifyOutput,
    DealOutput,
    GameAnalysisOutput,
    GameOutput,
    GameReplayOutput,
    GameStartInput,
    GameSummaryOutput,
    HintOutput,
    MoveInput,
    MoveLogOutput,
    MoveOutcomeOutput,
    VerdictOutput,
    game_output,
    move_input,
    replay_output,
    unsolved_deal,
)

# a day's daily deals: the deals from the day on, only their commitments before it; `form` says which
DAILY_PAGE = page_schema(
    PolymorphicProxySerializer(
        component_name="DailyListItem",
        serializers={"deal": DailyOutput, "commitment": DailyCommitmentOutput},
        resource_type_field_name="form",
    ),
    name="DailyPage",
)
DATE = OpenApiParameter("date", OpenApiTypes.DATE, OpenApiParameter.PATH, description="a UTC day, YYYY-MM-DD")
DAILY_PRESET = OpenApiParameter(
    "preset", str, OpenApiParameter.PATH, enum=PRESET_CHOICES[:-1], description="the daily deal's preset"
)
GAME_START_EXAMPLES = [
    OpenApiExample("a practice deal", value={"number": 7, "rules": "one-look"}, request_only=True),
    OpenApiExample(
        "a practice deal by its number as text", value={"number": "18446744073709551615"}, request_only=True
    ),
    OpenApiExample("today's daily deal (ranked)", value={"daily": 1}, request_only=True),
    OpenApiExample("a random classic deal", value={}, request_only=True),
]
MOVE_EXAMPLES = [
    OpenApiExample("pair two cards", value={"ply": 1, "move": "23+26"}, request_only=True),
    OpenApiExample("a king alone", value={"ply": 2, "move": "12"}, request_only=True),
    OpenApiExample("draw from the stock", value={"ply": 3, "move": "draw"}, request_only=True),
]


def _dailies(request, day):
    """A page of the day's daily deals: only their commitments before the day."""
    output = DailyCommitmentOutput if day > utc_today() else DailyOutput
    return paged(request, selectors.daily_deals_on(date=day, user=request.user), lambda daily: output(daily).data)


class DailyTodayView(APIView):
    """Today's daily deals (UTC), one per featured preset, each with par, difficulty, its commitment, and my
    game of it when I am logged in. Start a ranked game of one with `POST /api/games/ {"daily": id}`."""

    permission_classes = [AllowAny]

    @extend_schema(parameters=page_parameters(), responses={200: DAILY_PAGE}, summary="Today's daily deals (UTC)")
    def get(self, request):
        return _dailies(request, utc_today())


class DailyOnDateView(APIView):
    """The daily deals of a UTC day. Before the day only their commitments (date, preset, commitment); from the
    day on the deals as today's are shown; after it the deal itself and the salt too."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[DATE, *page_parameters()],
        responses={200: DAILY_PAGE, **errors(Code.BAD_DATE)},
        summary="The daily deals of a day; only commitments before it",
        operation_id="daily_on_date",
    )
    def get(self, request, date: str):
        return _dailies(request, date_value(date))


class DailyVerifyView(APIView):
    """A daily deal against the commitment published before its day: once the day is over, the salt and the
    deal, whether SHA-256 of `deal_text|salt` is the commitment, and a shell command to check it yourself."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[DATE, DAILY_PRESET],
        responses={200: DailyVerifyOutput, **errors(Code.BAD_DATE, Code.DAILY_NOT_FOUND)},
        summary="Check a daily deal against its commitment (the salt and the deal once the day is over)",
    )
    def get(self, request, date: str, preset: str):
        return Response(DailyVerifyOutput(selectors.daily_verification(date=date_value(date), preset=preset)).data)


class GameListView(APIView):
    """My games, the latest started first, in pages (GET); start a game (POST). `{"daily": id}` is a ranked game of
    one of today's daily deals (once per player, no undo or hints, closed as it stands when the day ends);
    `{"number", "rules"}` a practice game of that deal under those rules (a random deal when `number` is left
    out, classic rules when `rules` is). The answer is the game; play it with `POST /api/games/{id}/moves/`."""

    throttle_scope = "game_start"

    def get_throttles(self):
        return [AccountAndAddressThrottle()] if self.request.method == "POST" else []  # starting, not the list

    @extend_schema(
        parameters=cursor_page_parameters(),
        responses={200: page_schema(GameSummaryOutput)},
        operation_id="games_list",
        summary="My games, the latest started first",
        description="My games, practice and ranked, the latest started first, in pages: each in a line "
        "(open one at `/api/games/{id}/`). A ranked game's deal number stays hidden until "
        "its day or tournament is over.",
    )
    def get(self, request):
        return cursor_paged(
            request,
            selectors.games_of_player(player=request.user),
            lambda g: GameSummaryOutput(g).data,
            key=selectors.GAMES_OF_PLAYER_ORDER,
        )

    @extend_schema(
        request=GameStartInput,
        examples=GAME_START_EXAMPLES,
        parameters=[DEVICE_PARAMETER, location()],
        responses={
            201: GameOutput,
            **errors(
                Code.BAD_DEAL_NUMBER,
                Code.BAD_RULES,
                Code.DAILY_NOT_FOUND,
                Code.DEAL_NOT_FOUND,
                Code.ALREADY_PLAYED,
                Code.DAILY_OVER,
                Code.NO_DEAL_READY,
                Code.THROTTLED,
            ),
        },
        summary="Start a game: a daily deal (ranked), or a practice deal by number or at random",
    )
    @idempotent
    def post(self, request):
        data = valid_input(GameStartInput, request)
        payer = SolverPayer.of_request(request)
        game = services.game_start(
            player=request.user,
            daily_id=data.get("daily"),
            number=data.get("number"),
            rules=data.get("rules"),
            winnable=data.get("winnable", False),
            difficulty=data.get("difficulty"),
            payer=payer,
            client=client_mark(request),
        )
        if game.mode == game.Mode.PRACTICE and game.deal.status == Deal.Status.PENDING:
            solve_deal_soon(game.deal_id, payer=payer)  # its deal reads `pending` now: a poll of it sees it solved
        return Response(
            GameOutput(game, context={"position": game_position(game)}).data,
            status=status.HTTP_201_CREATED,
            headers={"Location": f"/api/games/{game.pk}/"},
        )


class GameDetailView(APIView):
    """A game and the player's view of its position: the pyramid, the stock as a count (its top card where the
    rules turn it face up), the waste, the score, every legal move, and `forced`: the moves that play the game
    out when every move left is forced (docs/rules.md, section 19), else null."""

    @extend_schema(
        responses={200: GameOutput, **errors(Code.GAME_NOT_FOUND)},
        summary="A game: yours, or anyone's ranked game once its day or tournament is over",
    )
    def get(self, request, game_id: int):
        game = selectors.game_for_viewer(game_id=game_id, user=request.user)
        return Response(GameOutput(game, context={"position": game_position(game)}).data)


class GameMoveView(APIView):
    """Play move number `ply` (the game's `next_ply`) in the notation of docs/rules.md; the position's
    `legal_moves` lists every move playable now. 201 with the game after the move; sending again exactly the
    move already played as `ply` answers 200 with `applied` false, so a retry is safe. The moves of the position's
    `forced` (a Finish button) are sent here one by one like any other. A move that is not the
    next one is 409 `wrong_ply` (with `expected_ply`), one the rules refuse 422 `illegal_move`: neither changes
    anything."""

    throttle_classes = [AccountAndAddressThrottle]
    throttle_scope = "move"

    @extend_schema(
        request=MoveInput,
        examples=MOVE_EXAMPLES,
        responses={
            200: MoveOutcomeOutput,
            201: MoveOutcomeOutput,
            **errors(
                Code.BAD_NOTATION,
                Code.GAME_NOT_FOUND,
                Code.WRONG_PLY,
                Code.GAME_OVER,
                Code.DAILY_OVER,
                Code.TOURNAMENT_OVER,
                Code.ILLEGAL_MOVE,
            ),
        },
        summary="Play move number `ply`; resending a move already played returns the game",
    )
    def post(self, request, game_id: int):
        data = move_input(json_object(request))
        outcome = services.move_submit(
            game_id=game_id,
            player=request.user,
            ply=data["ply"],
            move=data["move"],
            payer=SolverPayer.of_request(request),
        )
        # built by hand for speed: held equal to MoveOutcomeOutput by tests/games/test_game_output_declared.py
        body = game_output(outcome.game, outcome.position) | {"applied": outcome.applied}
        return Response(body, status=status.HTTP_201_CREATED if outcome.applied else status.HTTP_200_OK)


class GameResignView(APIView):
    """Resign a game that is still being played: it ends as it stands (a ranked one counts on the boards)."""

    @extend_schema(
        request=None,
        responses={
            200: GameOutput,
            **errors(Code.GAME_NOT_FOUND, Code.GAME_OVER, Code.DAILY_OVER, Code.TOURNAMENT_OVER),
        },
        summary="Resign a game",
    )
    def post(self, request, game_id: int):
        game = services.game_resign(game_id=game_id, player=request.user, payer=SolverPayer.of_request(request))
        return Response(GameOutput(game, context={"position": game_position(game)}).data)


class GameUndoView(APIView):
    """Take back the last move of a practice game (counted in `undo_count`); ranked games have no undo."""

    @extend_schema(
        request=None,
        responses={
            200: GameOutput,
            **errors(Code.RANKED_NO_UNDO, Code.GAME_NOT_FOUND, Code.GAME_OVER, Code.NOTHING_TO_UNDO),
        },
        summary="Take back the last move (practice games only)",
    )
    def post(self, request, game_id: int):
        game = services.game_undo(game_id=game_id, player=request.user)
        return Response(GameOutput(game, context={"position": game_position(game)}).data)


class GameHintView(APIView):
    """The solver's hint for a practice game: a move, why, the cards it names, and whether the position can
    still be won (counted in `hint_count` once per position: asked again before a move or an undo, say after a lost
    answer, it is not counted again; throttled per account). Ranked games have no hints."""

    throttle_classes = [AccountThrottle]
    throttle_scope = "hint"

    @extend_schema(
        responses={200: HintOutput, **errors(Code.RANKED_NO_HINT, Code.GAME_NOT_FOUND, Code.GAME_OVER)},
        summary="The solver's hint, and whether the position can still be won (practice only)",
    )
    def get(self, request, game_id: int):
        advice = services.game_hint(game_id=game_id, player=request.user, payer=SolverPayer.of_request(request))
        return Response(HintOutput(advice).data)


class GameVerdictView(APIView):
    """Whether a practice game's position can still be won, for a page that shows it after every move (a
    player's setting, off by default). Not a hint: nothing is counted on the game. Ranked games: 403."""

    throttle_classes = [AccountThrottle]
    throttle_scope = "verdict"

    @extend_schema(
        responses={200: VerdictOutput, **errors(Code.RANKED_NO_VERDICT, Code.GAME_NOT_FOUND)},
        summary="Can this practice position still be won? (practice only)",
    )
    def get(self, request, game_id: int):
        verdict = services.game_verdict(
            game_id=game_id,
            player=request.user,
            budget_seconds=settings.PYRAMID_HINT_BUDGET_SECONDS,
            payer=SolverPayer.of_request(request),
        )
        return Response(VerdictOutput(verdict).data)


class GameLogView(APIView):
    """A game's moves in order, each with the server's time. A ranked game's log is its player's alone until
    its day or tournament is over."""

    @extend_schema(
        responses={200: MoveLogOutput, **errors(Code.GAME_NOT_FOUND)},
        summary="A game's move log: yours, or anyone's ranked game once its day or tournament is over",
    )
    def get(self, request, game_id: int):
        return Response(MoveLogOutput(selectors.game_log(game_id=game_id, user=request.user)).data)


class GameAnalysisView(APIView):
    """Where a finished game slipped, by the exact solver: its answer for every position (ply 0 the start,
    ply k after move k), the move after which the win was lost and one that would have kept it, and every
    move that cost cards. The solver sees the whole deal, the face-down stock too. Computed once when the
    game ends (``pending`` until then); shown to whoever may see the game's log, a ranked game's once its
    day or tournament is over (409 ``not_yet`` with ``opens_at`` before)."""

    @extend_schema(
        responses={200: GameAnalysisOutput, **errors(Code.GAME_NOT_FOUND, Code.NOT_YET, Code.THROTTLED)},
        summary="A finished game's analysis by the exact solver",
    )
    def get(self, request, game_id: int):
        payer = SolverPayer.of_request(request)
        report = selectors.game_analysis(game_id=game_id, user=request.user, payer=payer)
        if report.pending:
            analyse_game_soon(report.game, payer=payer)
        return Response(GameAnalysisOutput(report).data)


class GameReplayView(APIView):
    """Every position of a finished game, the start first, for stepping through it; with ``best_from=K``,
    also the solver's best line from ply K and the position after each of its moves. On the analysis'
    terms (404, 409 ``not_yet``)."""

    throttle_classes = [AccountThrottle]
    throttle_scope = "hint"  # the best line is a solve, as a hint is

    @extend_schema(
        parameters=[
            OpenApiParameter("best_from", int, description="a ply of the game: the best line from there comes too")
        ],
        responses={200: GameReplayOutput, **errors(Code.GAME_NOT_FOUND, Code.NOT_YET)},
        summary="Every position of a finished game, and the best line from one of them",
    )
    def get(self, request, game_id: int):
        best_from = int_param(request, "best_from", default=None, low=0, high=10_000)
        game, moves, positions, best = services.game_replay(
            game_id=game_id,
            user=request.user,
            best_from=best_from,
            budget_seconds=settings.PYRAMID_HINT_BUDGET_SECONDS,
            payer=SolverPayer.of_request(request),
        )
        return Response(replay_output(game, moves, positions, best))


def _deal_request(request, number: str) -> tuple[int, engine.Rules]:
    # 1 to 20 ASCII digits, as the schema's pattern says (int() alone also takes "+7", "7_000" or other scripts' digits)
    if not (number.isascii() and number.isdigit() and len(number) <= 20):
        raise DomainError(
            Code.BAD_DEAL_NUMBER, gettext("%(number)s is not a deal number") % {"number": repr(number[:40])}
        )
    value = int(number)
    if not 0 <= value < 2**64:
        raise DomainError(Code.BAD_DEAL_NUMBER, gettext("deal numbers run from 0 to 2**64 - 1"))
    try:
        rules = engine.Rules.parse(request.query_params.get("rules", "classic"))
    except engine.RulesError as exc:
        raise DomainError(Code.BAD_RULES, str(exc)) from None
    return value, rules


RULES = OpenApiParameter(
    "rules",
    str,
    description="a preset name or rule-set text (classic)",
    examples=[
        OpenApiExample("a preset", value="one-look"),
        OpenApiExample("rule-set text", value="classic;passes=unlimited"),
    ],
)
NUMBER = OpenApiParameter(
    "number",
    str,
    OpenApiParameter.PATH,
    pattern=DEAL_NUMBER_PATTERN,
    description="deal number, 0 to 2**64 - 1, in decimal",
)


def deal_location(number: int, rules: engine.Rules) -> str:
    """The address of a practice deal under these rules: the preset's name, or the rule-set text of custom rules."""
    return f"/api/deals/{number}/?{urlencode({'rules': rules.name if rules.name != 'custom' else rules.to_text()})}"


class DealView(APIView):
    """A practice deal: its text, and what the solver found once a player asked for a solve (`unsolved` until
    then, `pending` while it works). Writes nothing. A daily or tournament deal's number is 404 while it is
    secret."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[NUMBER, RULES],
        responses={200: DealOutput, **errors(Code.BAD_DEAL_NUMBER, Code.BAD_RULES, Code.DEAL_NOT_FOUND)},
        summary="A practice deal: its text and what the solver found (status unsolved until a player asks for a solve)",
    )
    def get(self, request, number: str):
        value, rules = _deal_request(request, number)
        deal = selectors.practice_deal(number=value, rules=rules)
        return Response(DealOutput(deal or unsolved_deal(value, rules)).data)


class DealSolveView(APIView):
    """Ask for a practice deal to be solved: 202 with the deal as it stands (`pending` while the solver works;
    read it again at `Location`). Logged-in players only, throttled per account."""

    throttle_classes = [AccountThrottle]
    throttle_scope = "solve"

    @extend_schema(
        request=None,
        parameters=[NUMBER, RULES, location(202)],
        responses={202: DealOutput, **errors(Code.BAD_DEAL_NUMBER, Code.BAD_RULES, Code.DEAL_NOT_FOUND)},
        summary="Ask for a practice deal to be solved (logged-in players; throttled)",
    )
    @idempotent
    def post(self, request, number: str):
        value, rules = _deal_request(request, number)
        payer = SolverPayer.of_request(request)
        deal = services.deal_solve_request(number=value, rules=rules, payer=payer)
        if deal.status == Deal.Status.PENDING:
            solve_deal_soon(deal.pk, payer=payer)
            deal.refresh_from_db()
        return Response(
            DealOutput(deal).data, status=status.HTTP_202_ACCEPTED, headers={"Location": deal_location(value, rules)}
        )
