"""A rules-of-thumb player with no search, and the difficulty grade it gives a winnable deal.

The bot plays the way the strategy advice of the German and the English rule pages tells a
person to:

1. take a free king at once;
2. otherwise make the removal that uncovers the most pyramid cards, preferring pairs inside the
   pyramid to pairs that use the stock or waste, and giving a stock or waste card to a card that
   has no other partner left (a 6 lying on the last 7s needs the pile's 7);
3. otherwise draw, or redeal when the stock is empty;
4. stop when nothing is legal.

It never looks ahead, so it loses deals a perfect player wins: under ``classic`` rules it clears
about one deal in three, as the English rule page says of the practice game's computer player.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..layout import ABOVE_MASK, BELOW_MASK, COVER_MASK, PYRAMID_SIZE
from ..moves import Move
from ..position import Position

# A game that has not ended after this many moves under unlimited passes is going round in circles.
MOVE_LIMIT = 600


def newly_free(position: Position, move: Move) -> list[int]:
    """Pyramid positions the move uncovers (free after it, not before)."""
    after = position.play(move)
    return [
        p
        for p in range(PYRAMID_SIZE)
        if after.pyramid >> p & 1 and not after.pyramid & COVER_MASK[p] and position.pyramid & COVER_MASK[p]
    ]


def free_partners(position: Position, p: int) -> int:
    """How many cards that could ever pair with pyramid card ``p`` are still in the pyramid outside
    the cards it covers or is covered by."""
    values = position.board.values
    want = 13 - values[p]
    blocked = ABOVE_MASK[p] | BELOW_MASK[p]
    return sum(
        1
        for q in range(PYRAMID_SIZE)
        if q != p and position.pyramid >> q & 1 and values[q] == want and not blocked >> q & 1
    )


def choose(position: Position) -> Move | None:
    """The bot's move in a position: a removal by the rules of thumb, else draw or redeal."""
    moves = position.legal_moves()
    if not moves:
        return None
    removals = [m for m in moves if m.is_removal]
    if not removals:
        return moves[0]
    return max(removals, key=lambda move: _merit(position, move))


def _merit(position: Position, move: Move) -> tuple[int, ...]:
    pyramid_cards = [loc for loc in move.locations if loc < PYRAMID_SIZE]
    king = move.second < 0 and move.first < PYRAMID_SIZE
    uses_pile = any(loc >= PYRAMID_SIZE for loc in move.locations)
    # a pile card is best spent on a card that has no partner left in the pyramid
    needy = uses_pile and any(free_partners(position, p) == 0 for p in pyramid_cards)
    return (king, len(newly_free(position, move)), len(pyramid_cards), needy)


@dataclass(slots=True)
class BotGame:
    position: Position
    moves: list[str]

    @property
    def won(self) -> bool:
        return self.position.is_won


def play(position: Position) -> BotGame:
    """Play from a position to the end of the deal by the rules of thumb."""
    current = position.copy()
    log: list[str] = []
    while len(log) < MOVE_LIMIT:
        move = choose(current)
        if move is None:
            break
        current.apply(move)
        log.append(str(move))
    return BotGame(current, log)


def grade(position: Position, par_moves: int) -> int:
    """Difficulty of a winnable position from 1 (easy) to 5 (hard).

    1  the bot wins it, and a perfect player needs no more than 60 moves;
    2  the bot wins it;
    3  the bot fails but leaves at most 4 cards the goal still needs;
    4  the bot fails leaving 5 to 10 such cards;
    5  the bot fails leaving more than 10: only look-ahead finds the win.
    """
    game = play(position)
    if game.won:
        return 1 if par_moves <= 60 else 2
    left = game.position.cards_left
    if left <= 4:
        return 3
    return 4 if left <= 10 else 5
