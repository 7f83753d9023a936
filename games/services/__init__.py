"""Every write of the game service: one transaction each, keyword-only arguments."""

from .analysis import BestLine, game_analyse, game_replay, game_verdict
from .daily import daily_deal_prepare, daily_deal_settle, daily_slots_open
from .deals import (
    deal_get_or_create,
    deal_keep_secret,
    deal_numbers_keep_secret,
    deal_solve,
    deal_solve_request,
    deal_window_end_early,
)
from .play import (
    MoveOutcome,
    game_close,
    game_hint,
    game_resign,
    game_start,
    game_undo,
    games_close_expired,
    move_submit,
    ranked_game_start,
)
from .practice import practice_pool_fill, practice_pools_fill, proven_deal_draw
from .sequences import (
    Proven,
    candidate_number,
    proven_deal,
    sequence_candidates,
    sequence_register,
    sequence_settle,
    sequence_step,
)

__all__ = [
    "BestLine",
    "MoveOutcome",
    "Proven",
    "candidate_number",
    "daily_deal_prepare",
    "daily_deal_settle",
    "daily_slots_open",
    "deal_get_or_create",
    "deal_keep_secret",
    "deal_numbers_keep_secret",
    "deal_solve",
    "deal_solve_request",
    "deal_window_end_early",
    "game_analyse",
    "game_close",
    "game_hint",
    "game_replay",
    "game_resign",
    "game_start",
    "game_undo",
    "game_verdict",
    "games_close_expired",
    "move_submit",
    "practice_pool_fill",
    "practice_pools_fill",
    "proven_deal",
    "proven_deal_draw",
    "ranked_game_start",
    "sequence_candidates",
    "sequence_register",
    "sequence_settle",
    "sequence_step",
]
