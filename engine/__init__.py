"""Pyramid Solitaire rules engine: pure Python, the one authority on the rules.

Everything the service, the solver and the clients know about the rules comes from here; see
``docs/rules.md`` for the rules themselves.
"""

from .cards import card_pretty, card_text, card_value, parse_card
from .deals import Deal, deal_from_number, parse_deal
from .errors import DealError, EngineError, IllegalMove, NotationError, RulesError, StateError
from .forced import forced_line
from .moves import Move, parse_move, parse_moves
from .position import PLAYING, STUCK, WON, Position
from .replay import Replay, replay
from .rules import PRESETS, Rules, preset
from .scoring import Score, match_score, score
from .view import player_view

__all__ = [
    "Deal",
    "DealError",
    "EngineError",
    "IllegalMove",
    "Move",
    "NotationError",
    "PLAYING",
    "PRESETS",
    "Position",
    "Replay",
    "Rules",
    "RulesError",
    "STUCK",
    "Score",
    "StateError",
    "WON",
    "card_pretty",
    "card_text",
    "card_value",
    "deal_from_number",
    "forced_line",
    "match_score",
    "parse_card",
    "parse_deal",
    "parse_move",
    "parse_moves",
    "player_view",
    "preset",
    "replay",
    "score",
]
