"""Every write of the game service: one transaction each, keyword-only arguments."""

from .accounts import account_signup, token_for, token_revoke
from .audit import RecheckReport, flag_review, ranked_day_recheck
from .daily import daily_deal_prepare, daily_deal_settle, daily_slots_open
from .deals import deal_get_or_create, deal_solve
from .play import MoveOutcome, game_hint, game_resign, game_start, game_undo, move_submit

__all__ = [
    "MoveOutcome", "RecheckReport", "account_signup", "daily_deal_prepare", "daily_deal_settle", "daily_slots_open",
    "deal_get_or_create", "deal_solve", "flag_review", "game_hint", "game_resign", "game_start", "game_undo",
    "move_submit", "ranked_day_recheck", "token_for", "token_revoke",
]
