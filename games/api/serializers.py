"""Shapes of the API's input and output."""

from __future__ import annotations

import engine
from rest_framework import serializers

from ..models import DailyDeal, Deal, Game, Move
from ..selectors import daily_is_over, window_is_over


class MoveInput(serializers.Serializer):
    MOVE_MAX_LENGTH = 20

    ply = serializers.IntegerField(min_value=1, help_text="1 for the first move of the game")
    move = serializers.CharField(max_length=MOVE_MAX_LENGTH, help_text="draw, redeal, L or L+M (docs/rules.md notation)")


def move_input(data: dict) -> dict:
    """``MoveInput``'s validated data. A body that is plainly valid (an int ``ply`` of at least 1, a
    ``move`` of printable ASCII that the serializer would keep as it is) is taken without building the
    serializer (about 30 µs a move, for copies of its fields); anything else gets the serializer's checks
    and answers."""
    ply, move = data.get("ply"), data.get("move")
    if (type(ply) is int and ply >= 1 and type(move) is str and 0 < len(move) <= MoveInput.MOVE_MAX_LENGTH
            and move.isascii() and move.isprintable() and move.strip() == move):
        return {"ply": ply, "move": move}
    serializer = MoveInput(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class GameStartInput(serializers.Serializer):
    daily = serializers.IntegerField(required=False, help_text="id of one of today's daily deals (ranked)")
    number = serializers.IntegerField(required=False, min_value=0, max_value=2**64 - 1,
                                      help_text="practice deal number; random when left out")
    rules = serializers.CharField(required=False, max_length=200, help_text="preset name or rule-set text")

    def validate(self, data):
        if "daily" in data and ("number" in data or "rules" in data):
            raise serializers.ValidationError("give either daily, or number and rules, not both")
        return data


def unsolved_deal_output(number: int, rules: engine.Rules) -> dict:
    """A practice deal nobody has asked to be solved: its text, and nothing stored."""
    return {"number": number, "preset": rules.name, "rules": rules.to_dict(),
            "text": engine.deal_from_number(number).text, "status": "unsolved", "par_moves": None,
            "best_cards_left": None, "best_moves": None, "solution": "", "difficulty": None, "solve_seconds": None,
            "solve_nodes": None, "solved_at": None}


class DealOutput(serializers.ModelSerializer):
    number = serializers.SerializerMethodField()
    rules = serializers.SerializerMethodField()

    class Meta:
        model = Deal
        fields = ["number", "preset", "rules", "text", "status", "par_moves", "best_cards_left", "best_moves",
                  "solution", "difficulty", "solve_seconds", "solve_nodes", "solved_at"]

    def get_number(self, deal) -> int:
        return deal.number

    def get_rules(self, deal) -> dict:
        return engine.Rules.parse(deal.rules).to_dict()


class DailyOutput(serializers.ModelSerializer):
    """A daily deal as the public may see it: the commitment always; par and difficulty once the
    day has started; the deal itself and the salt once it is over."""

    par_moves = serializers.IntegerField(source="deal.par_moves")
    difficulty = serializers.IntegerField(source="deal.difficulty", allow_null=True)
    my_game = serializers.SerializerMethodField()
    deal = serializers.SerializerMethodField()
    salt = serializers.SerializerMethodField()

    class Meta:
        model = DailyDeal
        fields = ["id", "date", "preset", "commitment", "par_moves", "difficulty", "my_game", "deal", "salt"]

    def get_my_game(self, daily) -> dict | None:
        game = getattr(daily, "my_game", None)
        return None if game is None else {"id": game.pk, "status": game.status, "moves": game.moves,
                                          "cards_left": game.cards_left}

    def get_deal(self, daily) -> dict | None:
        if not daily_is_over(daily):
            return None
        return {"number": daily.deal.number, "text": daily.deal.text, "solution": daily.deal.solution}

    def get_salt(self, daily) -> str | None:
        return daily.salt if daily_is_over(daily) else None


def daily_commitment_output(daily: DailyDeal) -> dict:
    """A daily deal before its day: nothing but what commits to it."""
    return {"date": daily.date.isoformat(), "preset": daily.preset, "commitment": daily.commitment}


def game_output(game: Game, position: engine.Position) -> dict:
    """A game with the player's view of its position (never the order of the face-down stock)."""
    # a ranked game's deal number (a daily or tournament deal) stays secret until its window is over
    deal_public = game.mode == Game.Mode.PRACTICE or window_is_over(game)
    view = engine.player_view(position)
    if game.is_over and view["status"] == Game.Status.PLAYING:  # resigned, or closed at its window's end
        view = view | {"status": game.status, "legal_moves": []}
    return {
        "id": game.pk,
        "mode": game.mode,
        "status": game.status,
        "deal": {
            "number": game.deal.number if deal_public else None,
            "preset": game.deal.preset,
            "par_moves": game.deal.par_moves,
        },
        "daily": None if game.daily is None else {"id": game.daily_id, "date": game.daily.date.isoformat(),
                                                  "preset": game.daily.preset},
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
        "position": view,
    }


class MoveOutput(serializers.ModelSerializer):
    class Meta:
        model = Move
        fields = ["ply", "notation", "created_at"]
