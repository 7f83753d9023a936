"""Every write of the results and boards: one transaction each, keyword-only arguments."""

from .board_counts import board_counts_rebuild
from .boards_cache import board_cache_rebuild, boards_cache_rebuild
from .period_standings import period_standings_rebuild
from .results import result_on_game_finished, result_record, results_rebuild

__all__ = [
    "board_cache_rebuild",
    "board_counts_rebuild",
    "boards_cache_rebuild",
    "period_standings_rebuild",
    "result_on_game_finished",
    "result_record",
    "results_rebuild",
]
