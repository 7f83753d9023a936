"""A terminal game for a person: the pyramid in text, moves typed in the notation."""

from __future__ import annotations

import secrets
import sys
from typing import TextIO

from .cards import card_pretty
from .deals import deal_from_number
from .errors import EngineError
from .layout import ROWS, position_of
from .position import STUCK, WON, Position
from .rules import Rules
from .scoring import score

HELP = (
    "Moves: draw (or d), redeal, a king's location (21, W, S, R0), a pair (24+25, W+13, S+W).\n"
    "u undoes the last move, ? lists the legal moves, q quits."
)
CELL = 8


def render(position: Position) -> str:
    """The position as text: free cards in [brackets], covered ones in (parentheses)."""
    board, rules = position.board, position.rules
    lines = []
    width = ROWS * CELL
    for row in range(ROWS):
        cells = []
        for col in range(row + 1):
            p = position_of(row, col)
            card = position.card_at(p)
            if card is None:
                cells.append(f"{p:>2}: .. ".ljust(CELL))
            elif position.is_free(p):
                cells.append(f"{p:>2}[{card_pretty(card)}]".ljust(CELL))
            else:
                cells.append(f"{p:>2}({card_pretty(card)})".ljust(CELL))
        lines.append("".join(cells).center(width).rstrip())
    if rules.reserve:
        reserve = [
            f"R{i}[{card_pretty(c)}]" if position.reserve >> i & 1 else f"R{i}: .."
            for i, c in enumerate(board.reserve_cards)
        ]
        lines.append("Reserve: " + "  ".join(reserve))
    stock_top = position.card_at(35) if rules.stock_live else None
    passes = "unlimited" if rules.unlimited_passes else str(rules.passes)
    stock = f"Stock: {position.stock_count} cards"
    if stock_top is not None:
        stock += f", top S[{card_pretty(stock_top)}]"
    waste = [card_pretty(c) for c in position.waste_cards()]
    waste_text = " ".join(waste[-6:]) if waste else "empty"
    if waste and rules.waste_live:
        waste_text += " <- W"
    lines.append(f"{stock}   Waste: {waste_text}")
    lines.append(
        f"Pass {position.pass_no} of {passes}   Moves {position.moves}   "
        f"Pyramid left {position.pyramid_left}   Cards left {position.cards_left}"
    )
    return "\n".join(lines)


def play_terminal(
    rules: Rules,
    number: int | None = None,
    stdin: TextIO = sys.stdin,
    stdout: TextIO = sys.stdout,
    position: Position | None = None,
) -> int:
    """Play deal ``number`` (a random one if None), or go on from ``position``."""
    number = secrets.randbelow(2**32) if number is None else number
    position = position or Position.start(deal_from_number(number), rules)
    history: list[Position] = []

    def say(text: str = "") -> None:
        print(text, file=stdout, flush=True)

    say(f"Deal #{number} under {rules.name} rules: {rules.describe()}.")
    say(HELP)
    while True:
        say()
        say(render(position))
        status = position.status
        if status == WON:
            say(f"You won deal #{number} in {position.moves} moves.")
            return 0
        if status == STUCK:
            result = score(position)
            say(
                f"Stuck: no removal is possible and none can come up by drawing or redealing. "
                f"{result.cards_left} cards left, {result.moves} moves."
            )
            return 0
        print("> ", end="", file=stdout, flush=True)
        line = stdin.readline()
        if not line:
            say()
            return 0
        command = line.strip()
        if not command:
            continue
        if command.lower() in ("q", "quit"):
            say(f"Left deal #{number} after {position.moves} moves.")
            return 0
        if command == "?":
            say("Legal moves: " + " ".join(str(m) for m in position.legal_moves()))
            continue
        if command.lower() == "u":
            if history:
                position = history.pop()
                say("Undone.")
            else:
                say("Nothing to undo.")
            continue
        try:
            following = position.play(command)
        except EngineError as exc:
            say(f"Not allowed: {exc}.")
            continue
        history.append(position)
        position = following
