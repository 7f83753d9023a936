"""What a player may see of a position: face-up cards only, never the order of the stock."""

from __future__ import annotations

from typing import Any

from .cards import card_text
from .forced import forced_line
from .layout import PYRAMID_SIZE
from .position import Position


def player_view(position: Position, forced: bool = True) -> dict[str, Any]:
    """A JSON-ready view for clients. The stock appears as a count, and as its top card only
    where the rules turn that card face up. ``forced`` is the rest of the game when every move left
    is forced, judged on these face-up cards alone (engine/forced.py), else None; ``forced=False``
    leaves it out of the work (None), for views of a game's past such as a replay."""
    board, rules = position.board, position.rules
    pyramid = [
        {"card": card_text(board.pyramid_cards[p]), "free": position.is_free(p)} if position.pyramid >> p & 1 else None
        for p in range(PYRAMID_SIZE)
    ]
    reserve = [card_text(c) if position.reserve >> i & 1 else None for i, c in enumerate(board.reserve_cards)]
    stock_index = position.stock_top_index()
    status = position.status
    return {
        "rules": rules.to_dict(),
        "preset": rules.name,
        "pyramid": pyramid,
        "reserve": reserve,
        "stock": {
            "count": position.stock_count,
            "top": card_text(board.pile_cards[stock_index]) if rules.stock_live and stock_index >= 0 else None,
        },
        "waste": [card_text(c) for c in position.waste_cards()],
        "pass": position.pass_no,
        "passes": rules.passes or None,
        "moves": position.moves,
        "cards_left": position.cards_left,
        "pyramid_left": position.pyramid_left,
        "status": status,
        "legal_moves": [str(m) for m in position.legal_moves()] if status == "playing" else [],
        # the rest of the game when no choice can change how it ends (docs/rules.md, section 19)
        "forced": forced_line(position) if forced and status == "playing" else None,
    }
