"""Every write of the tournaments: one transaction each, keyword-only arguments."""

from .race import race_end, race_on_game_moved, races_end_due
from .standings import entry_refresh, standings_rebuild
from .tournaments import (
    tournament_create,
    tournament_deals_prepare,
    tournament_deals_settle,
    tournament_delete,
    tournament_game_start,
    tournament_join,
    tournament_leave,
    tournament_sequence_step,
    tournament_update,
)

__all__ = [
    "entry_refresh",
    "race_end",
    "race_on_game_moved",
    "races_end_due",
    "standings_rebuild",
    "tournament_create",
    "tournament_deals_prepare",
    "tournament_deals_settle",
    "tournament_delete",
    "tournament_game_start",
    "tournament_join",
    "tournament_leave",
    "tournament_sequence_step",
    "tournament_update",
]
