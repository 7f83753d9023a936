"""Shapes of the API's input and output.

Every answer is declared once, by its ``...Output`` serializer: the views answer ``SomeOutput(obj).data`` and
the OpenAPI schema reads the same class (a named component). One answer is also built by hand, for speed: a
game is answered on every move, so ``game_output`` builds the move's answer as a plain dict (a serializer
would cost more than the move), and a replay (a position per ply) by ``replay_output``;
tests/games/test_game_output_declared.py holds each equal to its serializer (``GameOutput``, ``MoveOutcomeOutput``,
``GameReplayOutput``) over many real games. The verdict, the move log and the analysis are serialized from the
objects the services and selectors answer (``PositionVerdict``, ``MoveLog``, ``GameAnalysisReport``).
"""

from __future__ import annotations

from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

import engine
from engine.rules import DRAWS, MAX_PASSES, RESERVES, WORDS
from pyramid_site.api.output import (
    DEAL_NUMBER_SCHEMA,
    DEAL_NUMBER_TEXT_SCHEMA,
    Computed,
    DailyPresetField,
    DealNumberField,
    DealNumberInputField,
    DealNumberTextField,
    FormField,
    NullableItemsListField,
    PresetField,
    WireDateTimeField,
    deal_number_text,
)

from ..models import DailyDeal, Deal, Game
from ..secrecy import daily_is_revealed, game_deal_is_public
from ..words import hint_words

GAME_MODES = list(Game.Mode.values)
GAME_STATUSES = list(Game.Status.values)
# a deal nobody has asked to be solved is answered as "unsolved" (nothing of it is stored)
DEAL_STATUSES = [*Deal.Status.values, "unsolved"]
VERDICTS = ["winnable", "unwinnable", "unknown"]


class MoveInput(serializers.Serializer):
    MOVE_MAX_LENGTH = 20

    ply = serializers.IntegerField(min_value=1, help_text="1 for the first move of the game")
    move = serializers.CharField(
        max_length=MOVE_MAX_LENGTH, help_text="draw, redeal, L or L+M (docs/rules.md notation)"
    )


def move_input(data: dict) -> dict:
    """``MoveInput``'s validated data. A body that is plainly valid (an int ``ply`` of at least 1, a
    ``move`` of printable ASCII that the serializer would keep as it is) is taken without building the
    serializer (about 30 µs a move, for copies of its fields); anything else gets the serializer's checks
    and answers."""
    ply, move = data.get("ply"), data.get("move")
    if (
        type(ply) is int
        and ply >= 1
        and type(move) is str
        and 0 < len(move) <= MoveInput.MOVE_MAX_LENGTH
        and move.isascii()
        and move.isprintable()
        and move.strip() == move
    ):
        return {"ply": ply, "move": move}
    serializer = MoveInput(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class GameStartInput(serializers.Serializer):
    daily = serializers.IntegerField(required=False, help_text="id of one of today's daily deals (ranked)")
    number = DealNumberInputField(
        required=False,
        help_text="practice deal number, 0 to 2**64 - 1, as an integer or as decimal text; random when left out",
    )
    rules = serializers.CharField(
        required=False,
        max_length=200,
        help_text="a preset name (classic, strict, one-look, relaxed, par, tuts-tomb, "
        "reserve, overlap) or rule-set text such as `classic;passes=unlimited` "
        "(docs/rules.md); classic when left out",
    )

    winnable = serializers.BooleanField(
        required=False, help_text="practice: a random deal the solver has proved winnable (false unless given)"
    )
    difficulty = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=5,
        help_text="practice: a random proved deal of this difficulty (1 easy to "
        "5 hard, the solver's grading); implies winnable",
    )

    def validate(self, data):
        if "daily" in data and ("number" in data or "rules" in data or data.get("winnable") or "difficulty" in data):
            raise serializers.ValidationError(gettext("give either daily, or number and rules, not both"))
        if "number" in data and (data.get("winnable") or "difficulty" in data):
            raise serializers.ValidationError(
                gettext("give a number, or ask for a winnable deal (or a difficulty), not both")
            )
        return data


def unsolved_deal(number: int, rules: engine.Rules) -> Deal:
    """A practice deal nobody has asked to be solved, for ``DealOutput``: its text, and nothing found (not
    saved: nothing of it is stored)."""
    return Deal(
        number=number,
        rules=rules.to_text(),
        preset=rules.name,
        text=engine.deal_from_number(number).text,
        status="unsolved",
        solution="",
    )


@extend_schema_field(
    {
        "oneOf": [{"type": "integer", "minimum": 1, "maximum": MAX_PASSES}, {"type": "string", "enum": ["unlimited"]}],
        "description": f"trips through the stock: 1 to {MAX_PASSES}, or unlimited",
    }
)
class PassesField(serializers.Field):
    """A rule set's passes as its JSON form has them: a number, or ``unlimited``."""

    def to_representation(self, value):
        return value


class RulesOutput(serializers.Serializer):
    """A rule set, option by option (docs/rules.md, section 3)."""

    passes = PassesField()
    draw = serializers.ChoiceField(choices=list(DRAWS), help_text="cards turned from the stock at a time")
    stock_top = serializers.ChoiceField(choices=list(WORDS["stock_top"]))
    waste_top = serializers.ChoiceField(choices=list(WORDS["waste_top"]))
    goal = serializers.ChoiceField(choices=list(WORDS["goal"]), help_text="clear the pyramid, or all 52 cards")
    covered_pairs = serializers.ChoiceField(choices=["yes", "no"], help_text="a card may pair with the card it covers")
    reserve = serializers.ChoiceField(choices=list(RESERVES), help_text="reserve cards dealt beside the pyramid")

    class Meta:
        ref_name = "Rules"


class DealOutput(serializers.ModelSerializer):
    """A practice deal and what the solver found: ``unsolved`` until a player asks for a solve, ``pending``
    while the solver works, then ``winnable`` (par and a line), ``unwinnable`` (the fewest cards left that can
    be reached) or ``unknown`` (the solver's budget ran out)."""

    number = serializers.SerializerMethodField()
    number_text = serializers.SerializerMethodField()
    preset = PresetField()
    rules = serializers.SerializerMethodField()
    status = serializers.ChoiceField(choices=DEAL_STATUSES)

    class Meta:
        model = Deal
        ref_name = "Deal"
        fields = [
            "number",
            "number_text",
            "preset",
            "rules",
            "text",
            "status",
            "par_moves",
            "best_cards_left",
            "best_moves",
            "solution",
            "difficulty",
            "solve_seconds",
            "solve_nodes",
            "solved_at",
        ]

    @extend_schema_field(DEAL_NUMBER_SCHEMA)
    def get_number(self, deal) -> int:
        return deal.number

    @extend_schema_field(DEAL_NUMBER_TEXT_SCHEMA)
    def get_number_text(self, deal) -> str:
        return deal_number_text(deal.number)

    @extend_schema_field(RulesOutput)
    def get_rules(self, deal) -> dict:
        return engine.Rules.parse(deal.rules).to_dict()


class GameBriefOutput(serializers.Serializer):
    """A game in a line: enough to show it and to open it."""

    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=GAME_STATUSES)
    moves = serializers.IntegerField()
    cards_left = serializers.IntegerField()

    class Meta:
        ref_name = "GameBrief"


class DailyDealRevealedOutput(serializers.Serializer):
    """A daily deal itself, once its day is over."""

    number = DealNumberField()
    number_text = DealNumberTextField(source="number")
    text = serializers.CharField(help_text="the deal: 52 cards (docs/rules.md)")
    solution = serializers.CharField(help_text="a line that wins it in par, in move notation")

    class Meta:
        ref_name = "DailyDealRevealed"


class DailyOutput(serializers.ModelSerializer):
    """A daily deal as the public may see it: the commitment always; par and difficulty once the
    day has started; the deal itself and the salt once it is over."""

    form = FormField("deal")
    preset = DailyPresetField()
    par_moves = serializers.IntegerField(source="deal.par_moves", allow_null=True)  # null while the deal is not solved
    difficulty = serializers.IntegerField(source="deal.difficulty", allow_null=True)
    my_game = GameBriefOutput(allow_null=True, help_text="my game of it (null when I have none, or am not logged in)")
    deal = DailyDealRevealedOutput(
        source="revealed_deal", allow_null=True, help_text="the deal itself, once the day is over"
    )
    salt = serializers.CharField(
        source="revealed_salt", allow_null=True, help_text="the commitment's salt, once the day is over"
    )

    class Meta:
        model = DailyDeal
        ref_name = "DailyDeal"
        fields = ["form", "id", "date", "preset", "commitment", "par_moves", "difficulty", "my_game", "deal", "salt"]

    def to_representation(self, daily):
        # my_game is the selector's (daily_deals_on), absent elsewhere
        revealed = daily_is_revealed(daily)
        return super().to_representation(
            Computed(
                daily,
                my_game=getattr(daily, "my_game", None),
                revealed_deal=daily.deal if revealed else None,
                revealed_salt=daily.salt if revealed else None,
            )
        )


class DailyCommitmentOutput(serializers.Serializer):
    """A daily deal before its day: nothing but what commits to it."""

    form = FormField("commitment")
    date = serializers.DateField()
    preset = DailyPresetField()
    commitment = serializers.CharField(help_text="SHA-256 (hex) of the deal text and a salt shown after the day")

    class Meta:
        ref_name = "DailyCommitment"


class DailyVerifyOutput(serializers.Serializer):
    """A daily deal checked against its commitment: before the day is over only the commitment (and a
    message); after it the salt, the deal, and whether both match."""

    # serializes selectors.daily_verification's answer

    date = serializers.DateField()
    preset = DailyPresetField()
    commitment = serializers.CharField()
    revealed = serializers.BooleanField(help_text="whether the day is over and the rest is shown")
    message = serializers.CharField(required=False, help_text="before the day is over: when the rest is shown")
    salt = serializers.CharField(required=False)
    number = DealNumberField(required=False)
    number_text = DealNumberTextField(required=False)
    deal_text = serializers.CharField(required=False)
    commitment_matches = serializers.BooleanField(
        required=False, help_text="SHA-256 of `deal_text|salt` is the commitment"
    )
    number_gives_text = serializers.BooleanField(required=False, help_text="the engine deals `deal_text` from `number`")
    check = serializers.CharField(required=False, help_text="a shell command that checks the commitment")

    class Meta:
        ref_name = "DailyVerify"


class PyramidCardOutput(serializers.Serializer):
    card = serializers.CharField(help_text="rank and suit, e.g. `KH`, `TD` (docs/rules.md)")
    free = serializers.BooleanField(help_text="no card covers it: it may be played")

    class Meta:
        ref_name = "PyramidCard"


class StockOutput(serializers.Serializer):
    count = serializers.IntegerField(help_text="cards in the stock")
    top = serializers.CharField(allow_null=True, help_text="its top card, where the rules turn it face up")

    class Meta:
        ref_name = "Stock"


class PositionOutput(serializers.Serializer):
    """The player's view of a position: never the order of the face-down stock."""

    rules = RulesOutput()
    preset = PresetField()
    pyramid = NullableItemsListField(
        child=PyramidCardOutput(),
        min_length=28,
        max_length=28,
        help_text="28 places, top row first; null where the card is gone",
    )
    reserve = serializers.ListField(
        child=serializers.CharField(allow_null=True),
        help_text="the reserve cards (none without a reserve); null where gone",
    )
    stock = StockOutput()
    waste = serializers.ListField(child=serializers.CharField(), help_text="the waste, bottom first")
    passes = serializers.IntegerField(allow_null=True, help_text="passes allowed; null for unlimited")
    moves = serializers.IntegerField()
    cards_left = serializers.IntegerField()
    pyramid_left = serializers.IntegerField()
    status = serializers.ChoiceField(choices=GAME_STATUSES)
    legal_moves = serializers.ListField(
        child=serializers.CharField(), help_text="every move playable now, in the notation of docs/rules.md"
    )
    forced = serializers.ListField(
        child=serializers.CharField(),
        allow_null=True,
        help_text="when every move left is forced (no choice can change how the game ends, whatever the "
        "face-down stock holds): the moves that play it out, one per ply, each exactly as sent "
        "to `moves/`; otherwise null. Judged only on what the player can see (docs/rules.md, "
        "section 19); always null in replays and once the game is over",
    )

    class Meta:
        ref_name = "Position"

    def get_fields(self):
        # "pass" is a keyword of Python's: the field is added here, not declared on the class, in its place
        # (after the waste, as the engine's view has it)
        fields = super().get_fields()
        ordered = {}
        for name, field in fields.items():
            if name == "passes":
                ordered["pass"] = serializers.IntegerField(help_text="the pass through the stock, 1 first")
            ordered[name] = field
        return ordered


class ScoreOutput(serializers.Serializer):
    cards_left = serializers.IntegerField()
    pyramid_left = serializers.IntegerField()
    moves = serializers.IntegerField()
    cleared_pass = serializers.IntegerField(allow_null=True, help_text="the pass the pyramid was cleared in")
    match_score = serializers.IntegerField(help_text="Par Pyramid match score")

    class Meta:
        ref_name = "Score"


class GameDealOutput(serializers.Serializer):
    """A game's deal; its number is null while the deal is secret."""

    # serializes the game (source="*"), which knows whether its deal is public

    number = DealNumberField(
        source="deal.number",
        allow_null=True,
        help_text="deprecated, read `number_text` (leaves in API 4.0.0); null while a ranked game's deal is secret",
    )
    number_text = DealNumberTextField(
        source="deal.number",
        allow_null=True,
        help_text="the deal number as decimal text (exact in every client); null while a ranked game's deal is secret",
    )
    preset = PresetField(source="deal.preset")
    par_moves = serializers.IntegerField(source="deal.par_moves", allow_null=True)

    class Meta:
        ref_name = "GameDeal"

    def to_representation(self, game):
        answer = super().to_representation(game)
        if not game_deal_is_public(game):
            answer["number"] = answer["number_text"] = None
        return answer


class GameDailyOutput(serializers.Serializer):
    id = serializers.IntegerField()
    date = serializers.DateField()
    preset = DailyPresetField()

    class Meta:
        ref_name = "GameDaily"


class GameOutput(serializers.Serializer):
    """A game with the player's view of its position."""

    # GameOutput(game, context={"position": position}); game_output builds the same answer by hand for the
    # move's hot path

    id = serializers.IntegerField()
    mode = serializers.ChoiceField(
        choices=GAME_MODES, help_text="ranked: daily and tournament deals, once each, no undo or hints"
    )
    status = serializers.ChoiceField(choices=GAME_STATUSES)
    deal = GameDealOutput(source="*")
    daily = GameDailyOutput(allow_null=True, help_text="the daily deal, for a daily game")
    moves = serializers.IntegerField()
    next_ply = serializers.IntegerField(help_text="the `ply` of the next move")
    cards_left = serializers.IntegerField()
    undo_count = serializers.IntegerField()
    hint_count = serializers.IntegerField()
    started_at = WireDateTimeField()
    finished_at = WireDateTimeField(allow_null=True)
    closes_at = WireDateTimeField(
        allow_null=True, help_text="a ranked game's window ends then: no move is taken after it"
    )
    version = serializers.IntegerField(help_text="bumped by every write")
    score = ScoreOutput()
    position = PositionOutput()

    class Meta:
        ref_name = "Game"

    def to_representation(self, game):
        position = self.context["position"]
        return super().to_representation(
            Computed(
                game,
                next_ply=game.moves + 1,
                score=engine.score(position).to_dict(),
                position=game_view(game, position),
                applied=self.context.get("applied"),
            )
        )


def game_view(game: Game, position: engine.Position) -> dict:
    """The player's view of a game's position (never the order of the face-down stock); a game resigned, or
    closed at its window's end, is over whatever its position."""
    view = engine.player_view(position)
    if game.is_over and view["status"] == Game.Status.PLAYING:
        view = view | {"status": game.status, "legal_moves": [], "forced": None}
    return view


class GameSummaryOutput(serializers.Serializer):
    """One of my games in a line: what it is, how it stands, when it was played."""

    id = serializers.IntegerField()
    mode = serializers.ChoiceField(choices=GAME_MODES)
    status = serializers.ChoiceField(choices=GAME_STATUSES)
    deal = GameDealOutput(source="*")
    daily = GameDailyOutput(allow_null=True, help_text="the daily deal, for a daily game")
    moves = serializers.IntegerField()
    cards_left = serializers.IntegerField()
    started_at = WireDateTimeField()
    finished_at = WireDateTimeField(allow_null=True)

    class Meta:
        ref_name = "GameSummary"


class MoveOutcomeOutput(GameOutput):
    """The game after a move; ``applied`` false when the move was already in the log (a retry)."""

    applied = serializers.BooleanField()

    class Meta:
        ref_name = "MoveOutcome"


def game_output(game: Game, position: engine.Position) -> dict:
    """``GameOutput(game, context={"position": position}).data``, built by hand for the move's hot path (a
    serializer costs more than the move); tests/games/test_game_output_declared.py holds the two equal."""
    return {
        "id": game.pk,
        "mode": game.mode,
        "status": game.status,
        "deal": _game_deal(game),
        "daily": _game_daily(game),
        "moves": game.moves,
        "next_ply": game.moves + 1,
        "cards_left": game.cards_left,
        "undo_count": game.undo_count,
        "hint_count": game.hint_count,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "closes_at": game.closes_at,
        "version": game.version,
        "score": engine.score(position).to_dict(),
        "position": game_view(game, position),
    }


def _game_deal(game: Game) -> dict:
    deal_public = game_deal_is_public(game)
    return {
        "number": game.deal.number if deal_public else None,
        "number_text": deal_number_text(game.deal.number) if deal_public else None,
        "preset": game.deal.preset,
        "par_moves": game.deal.par_moves,
    }


def _game_daily(game: Game) -> dict | None:
    return (
        None
        if game.daily is None
        else {"id": game.daily_id, "date": game.daily.date.isoformat(), "preset": game.daily.preset}
    )


class MoveOutput(serializers.Serializer):
    ply = serializers.IntegerField(min_value=1)
    notation = serializers.CharField()
    created_at = serializers.DateTimeField(help_text="the server's time stamp of the move, to the centisecond")

    class Meta:
        ref_name = "Move"


class MoveLogOutput(serializers.Serializer):
    """A game's moves in order, each with the server's time, and the whole line in one string."""

    game = serializers.IntegerField()
    status = serializers.ChoiceField(choices=GAME_STATUSES)
    moves = MoveOutput(many=True)
    log = serializers.CharField(help_text="the moves in notation, separated by spaces")

    class Meta:
        ref_name = "MoveLog"


class HintOutput(serializers.Serializer):
    """The solver's advice for a practice position."""

    # serializes an engine.solver.hints.Hint

    move = serializers.CharField(allow_null=True, help_text="the move to play; null when nothing helps any more")
    explanation = serializers.CharField()
    locations = serializers.ListField(child=serializers.CharField(), help_text="the cards the move names")
    verdict = serializers.ChoiceField(choices=VERDICTS, help_text="whether the position can still be won")
    can_win = serializers.BooleanField(allow_null=True, help_text="null when the solver could not tell")
    moves_to_win = serializers.IntegerField(allow_null=True)
    best_cards_left = serializers.IntegerField(allow_null=True)

    class Meta:
        ref_name = "Hint"

    def to_representation(self, advice):
        return super().to_representation(
            Computed(
                advice,
                explanation=hint_words(advice.parts, advice.explanation),
                can_win={"winnable": True, "unwinnable": False}.get(advice.verdict),
            )
        )


class VerdictOutput(serializers.Serializer):
    """Whether a practice game's position can still be won, by the exact solver."""

    game = serializers.IntegerField()
    ply = serializers.IntegerField(help_text="the position after this many moves")
    verdict = serializers.ChoiceField(choices=VERDICTS, help_text="unknown when the solver's budget ran out")
    moves_to_win = serializers.IntegerField(allow_null=True)
    best_cards_left = serializers.IntegerField(allow_null=True, help_text="0 when winnable")

    class Meta:
        # not "Verdict": a component named like one of its properties (verdict) makes the generated Python
        # client's model reuse one name for both
        ref_name = "PositionVerdict"


class AnalysisPlyOutput(serializers.Serializer):
    """The solver's answer for one position of the game: ply 0 the start, ply k the position after move k."""

    ply = serializers.IntegerField()
    move = serializers.CharField(allow_null=True, help_text="the move that led here; null at ply 0")
    verdict = serializers.ChoiceField(choices=VERDICTS, help_text="the solver's: unknown when its budget ran out")
    best_cards_left = serializers.IntegerField(
        allow_null=True, help_text="the fewest cards left reachable from here: 0 when winnable"
    )
    moves_to_win = serializers.IntegerField(allow_null=True, help_text="the fewest moves that win from here")
    best_move = serializers.CharField(
        allow_null=True, help_text="the first move of a line reaching the best; null when no move improves on here"
    )

    class Meta:
        ref_name = "AnalysisPly"


class CostlyMoveOutput(serializers.Serializer):
    ply = serializers.IntegerField(help_text="the move after which fewer cards could be cleared")
    cost = serializers.IntegerField(help_text="how many fewer")

    class Meta:
        ref_name = "CostlyMove"


class GameAnalysisOutput(serializers.Serializer):
    """Where a finished game slipped, by the exact solver, which sees the whole deal (the face-down stock too)."""

    game = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=["pending", "ready"], help_text="pending while the solver works: read again shortly"
    )
    plies = AnalysisPlyOutput(many=True)
    lost_at = serializers.IntegerField(
        allow_null=True, help_text="the first move after which a winnable position could no longer be won"
    )
    keep_move = serializers.CharField(allow_null=True, help_text="a move that would have kept the win there")
    costly = CostlyMoveOutput(many=True, help_text="every move that made the best reachable result worse")
    seconds = serializers.FloatField(allow_null=True, help_text="how long the solver took")

    class Meta:
        ref_name = "GameAnalysis"


class ReplayPlyOutput(serializers.Serializer):
    ply = serializers.IntegerField()
    move = serializers.CharField(allow_null=True, help_text="the move that led here; null at ply 0")
    position = PositionOutput()

    class Meta:
        ref_name = "ReplayPly"


class BestLineOutput(serializers.Serializer):
    """The solver's best line from one ply of the game, and the position after each of its moves."""

    ply = serializers.IntegerField(help_text="the ply it starts from")
    verdict = serializers.ChoiceField(choices=VERDICTS)
    moves = serializers.ListField(child=serializers.CharField())
    positions = PositionOutput(many=True)

    class Meta:
        ref_name = "BestLine"


class GameReplayOutput(serializers.Serializer):
    """Every position of a finished game, for stepping through it; with ``best_from``, the best line too."""

    game = serializers.IntegerField()
    plies = ReplayPlyOutput(many=True)
    best_line = BestLineOutput(allow_null=True)

    class Meta:
        ref_name = "GameReplay"


def replay_output(game: Game, moves: list[str], positions: list, best) -> dict:
    """``GameReplayOutput`` built by hand: a serializer per position would cost about 0.4 ms each (a long game
    and its best line, tens of ms); held equal to it by tests/games/test_game_output_declared.py."""
    return {
        "game": game.pk,
        "plies": [
            {
                "ply": ply,
                "move": moves[ply - 1] if ply else None,
                "position": engine.player_view(position, forced=False),
            }
            for ply, position in enumerate(positions)
        ],
        "best_line": None
        if best is None
        else {
            "ply": best.ply,
            "verdict": best.verdict,
            "moves": best.moves,
            "positions": [engine.player_view(p, forced=False) for p in best.positions],
        },
    }
