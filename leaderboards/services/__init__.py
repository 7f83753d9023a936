"""Every write of the leaderboards: one transaction each, keyword-only arguments."""

from .boards_cache import board_cache_rebuild, boards_cache_rebuild
from .clubs import (club_create, club_join, club_leave, club_update, invite_renew, member_remove,
                    member_role_set)
from .results import result_record, results_rebuild
from .standings import entry_refresh, standings_rebuild
from .tournaments import (tournament_create, tournament_deals_prepare, tournament_deals_settle,
                          tournament_delete, tournament_game_start, tournament_join, tournament_update)
from .voids import game_void, player_void, void_lift

__all__ = [
    "board_cache_rebuild", "boards_cache_rebuild", "club_create", "club_join", "club_leave", "club_update",
    "entry_refresh", "game_void", "invite_renew", "member_remove", "member_role_set", "player_void",
    "result_record", "results_rebuild", "standings_rebuild", "tournament_create", "tournament_deals_prepare",
    "tournament_deals_settle", "tournament_delete", "tournament_game_start", "tournament_join",
    "tournament_update", "void_lift",
]
