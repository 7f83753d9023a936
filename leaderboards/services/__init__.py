"""Every write of the leaderboards: one transaction each, keyword-only arguments."""

from .board_counts import board_counts_rebuild
from .boards_cache import board_cache_rebuild, boards_cache_rebuild
from .clubs import (club_create, club_join, club_leave, club_update, invite_renew, member_remove,
                    member_role_set)
from .period_standings import period_standings_rebuild
from .results import result_on_game_finished, result_record, results_rebuild
from .standings import entry_refresh, standings_rebuild
from .tournaments import (tournament_create, tournament_deals_prepare, tournament_deals_settle,
                          tournament_delete, tournament_game_start, tournament_join, tournament_leave,
                          tournament_sequence_step,
                          tournament_update)

__all__ = [
    "board_cache_rebuild", "board_counts_rebuild", "boards_cache_rebuild", "club_create", "club_join", "club_leave",
    "club_update", "entry_refresh", "invite_renew", "member_remove", "member_role_set", "period_standings_rebuild",
    "result_on_game_finished", "result_record", "results_rebuild", "standings_rebuild", "tournament_create",
    "tournament_deals_prepare", "tournament_deals_settle", "tournament_delete", "tournament_game_start",
    "tournament_join", "tournament_leave", "tournament_sequence_step", "tournament_update",
]
