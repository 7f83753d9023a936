"""Forced play: when nothing the player chooses can change how the deal ends (docs/rules.md, section 19).

``forced_line(position)`` returns the moves that play the deal out, in the notation of section 9,
when the rest of the game is forced, and None otherwise. It is judged on what the player can see,
never on the face-down stock: the answer must hold for *every* order of the cards the player has
not seen, so it is the same for two positions that differ only there, and it can be shown in a
ranked game without telling the player anything (it uses no solver, only the rules).

What the player has seen: the pyramid and reserve, every card on the waste, the stock top where the
rules turn it face up, and every card removed (each was face up when it went). So the *set* of
face-down stock cards is known, but in the first pass not their order. From the second pass on the
player has seen every pile card in its order (a redeal needs an empty stock, so each card was turned
onto the waste in the first pass, and a redeal keeps the order), so nothing is unknown any more.

The rest of the game is **forced** when, for every order of the face-down stock cards:

* every line of play that ends (won or stuck) ends with the same result: the same status and the
  same ``cards_left``. The number of moves is not part of the result: a draw that changes nothing
  is not a choice, only a longer way to the same end;
* and one list of moves, the same in every order, is legal all the way and ends the deal. The
  shortest such list is returned (ties go to the engine's order of legal moves: kings, then pairs,
  then draw or redeal).

Two orders that differ only between cards of the same value, or between cards that can never be
removed (not a king, and no card of the partner value is left where it could pair: in the pyramid
or reserve, or in the pile when both tops are live), give the same game move for move, so only the
distinct orders of values are looked at. Under ``goal: pyramid``, when no pile card can ever pair
with a pyramid or reserve card, the pile cannot change the result at all, and only the pyramid and
reserve are played out (``_pyramid_alone``). The work is bounded: past
``MAX_ARRANGEMENTS`` distinct orders or ``MAX_NODES`` positions the answer is None (not forced),
which is always a safe answer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from math import factorial

from .cards import KING, TARGET, card_value
from .deals import Deal
from .layout import PYRAMID_SIZE
from .moves import DRAW, Move
from .position import PLAYING, Board, Position

MAX_ARRANGEMENTS = 24  # distinct orders of the face-down stock's values
MAX_NODES = 300  # positions expanded, over all orders and the search for the line
DEAD = 0  # the value written for a face-down card that can never be removed


# answers by deal, rules and position: a view asked for again (the page reloads, polls) costs a look-up
_CACHE: dict[tuple[Deal, object, tuple[int, ...]], tuple[str, ...] | None] = {}
_CACHE_SIZE = 4096


def forced_line(position: Position) -> list[str] | None:
    """The moves that play the rest of the deal out when every move left is forced, else None."""
    key = (position.deal, position.rules, position.key())
    if key in _CACHE:
        found = _CACHE[key]
    else:
        line = _forced(position)
        found = None if line is None else tuple(line)
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.clear()
        _CACHE[key] = found
    return None if found is None else list(found)


def _forced(position: Position) -> list[str] | None:
    if position.status != PLAYING:
        return None
    # the search runs on a board of its own, so the game's board (kept per process for every view of
    # the game) does not keep the many positions the search looks at in its caches
    position = _on_board(position, _private(position.board))
    budget = [MAX_NODES]
    if position.rules.goal == "pyramid" and not _pile_feeds_pyramid(position):
        line = _pyramid_alone(position, budget)
        if line is not None:
            return line
    orders = _arrangements(position)
    if orders is None:
        return None
    # two quick lines first: removals whenever one is legal, and drawing through the stock before
    # any removal. Most positions where a choice matters end differently on these two.
    if _probe(orders[0], budget, lazy=False) != _probe(orders[0], budget, lazy=True):
        return None
    result = None
    for order in orders:
        found = _only_result(order, budget)
        if found is None or (result is not None and found != result):
            return None
        result = found
    return _common_line(orders, budget)


def _private(board: Board, deal: Deal | None = None) -> Board:
    """A board for the search: the same cards (or ``deal``'s), caches of its own."""
    if deal is not None:
        return Board(deal, board.rules)
    other = Board.__new__(Board)
    for name in Board.__slots__:
        setattr(other, name, getattr(board, name))
    other.partners_cache, other.pile_masks = {}, {}
    return other


def _on_board(position: Position, board: Board) -> Position:
    return Position(
        board,
        position.pyramid,
        position.reserve,
        position.pile,
        position.pointer,
        position.pass_no,
        position.moves,
        position.cleared_pass,
    )


# --- when the pile cannot matter ---------------------------------------------------------------------
def _pile_feeds_pyramid(position: Position) -> bool:
    """Whether some card of the stock or waste could ever pair with a pyramid or reserve card left.
    Known to the player: the set of pile cards is every card neither in view nor removed."""
    board, rules = position.board, position.rules
    if not (rules.stock_live or rules.waste_live):
        return False
    wanted = 0
    for p in range(PYRAMID_SIZE):
        if position.pyramid >> p & 1:
            wanted |= 1 << (TARGET - board.values[p])
    for i in range(rules.reserve):
        if position.reserve >> i & 1:
            wanted |= 1 << (TARGET - board.values[PYRAMID_SIZE + i])
    return bool(board.pile_mask(wanted) & position.pile)


def _pyramid_alone(position: Position, budget: list[int]) -> list[str] | None:
    """Under ``goal: pyramid``, when no pile card can ever pair with a pyramid or reserve card, the
    pyramid and reserve play on their own: whatever the pile does (drawing, pile kings, ``S+W``)
    changes nothing they can do. If every line of their own play clears the pyramid, every line of
    the game does, whatever the face-down cards; their shortest such line is the answer. (A line that
    leaves pyramid cards may leave pile moves in some orders and not in others: not forced, to be safe.)"""
    alone = Position(
        position.board,
        position.pyramid,
        position.reserve,
        0,
        0,
        position.pass_no,
        position.moves,
        position.cleared_pass,
    )
    if alone.status != PLAYING or _only_result(alone, budget) != ("won", 0):
        return None
    return _common_line([alone], budget)


# --- what the player cannot see ----------------------------------------------------------------------
def _hidden_slots(position: Position) -> list[int]:
    """Pile indices of the stock cards never yet turned face up: in the first pass the stock, less a
    live stock top; none from the second pass on (every pile card went over the waste in pass 1)."""
    if position.pass_no > 1:
        return []
    pile, board = position.pile, position.board
    slots = [i for i in range(position.pointer, board.pile_size) if pile >> i & 1]
    if board.rules.stock_live and slots:
        slots = slots[1:]
    return slots


def _arrangements(position: Position) -> list[Position] | None:
    """One position for every distinct order of the face-down cards' values (dead cards alike),
    in a fixed order that depends only on what the player can see; None past the bound."""
    board, rules = position.board, position.rules
    slots = _hidden_slots(position)
    cards = sorted(board.pile_cards[i] for i in slots)
    if not cards:
        return [position]
    # a pile card pairs with a pyramid or reserve card, or (both tops live: S+W) with another pile card
    present = Counter(board.values[p] for p in range(PYRAMID_SIZE) if position.pyramid >> p & 1)
    present.update(board.values[PYRAMID_SIZE + i] for i in range(rules.reserve) if position.reserve >> i & 1)
    if rules.stock_live and rules.waste_live:
        present.update(board.pile_values[i] for i in range(board.pile_size) if position.pile >> i & 1)
    tops_live = rules.stock_live or rules.waste_live

    def symbol(card: int) -> int:
        value = card_value(card)
        if tops_live and (value == KING or present[TARGET - value]):
            return value
        return DEAD

    by_symbol: dict[int, list[int]] = {}
    for card in cards:
        by_symbol.setdefault(symbol(card), []).append(card)
    counts = {s: len(group) for s, group in sorted(by_symbol.items())}
    total = factorial(len(cards))
    for n in counts.values():
        total //= factorial(n)
    if total > MAX_ARRANGEMENTS:
        return None
    fixed = list(board.deal.cards)
    base = PYRAMID_SIZE + rules.reserve
    orders = []
    for sequence in _distinct_orders(counts, len(cards)):
        dealt = fixed[:]
        taken = dict.fromkeys(counts, 0)
        for slot, s in zip(slots, sequence, strict=True):
            dealt[base + slot] = by_symbol[s][taken[s]]
            taken[s] += 1
        other = _private(board, Deal(tuple(dealt)))
        other.partners_cache = board.partners_cache  # keyed by pyramid and reserve, which all orders share
        orders.append(_on_board(position, other))
    return orders


def _distinct_orders(counts: dict[int, int], length: int) -> Iterator[tuple[int, ...]]:
    """Every sequence of the symbols with these counts, each once, in lexicographic order."""
    sequence: list[int] = []

    def extend() -> Iterator[tuple[int, ...]]:
        if len(sequence) == length:
            yield tuple(sequence)
            return
        for s in counts:
            if counts[s]:
                counts[s] -= 1
                sequence.append(s)
                yield from extend()
                sequence.pop()
                counts[s] += 1

    yield from extend()


# --- one order: every line's result -----------------------------------------------------------------
def _state(position: Position) -> tuple[int, int, int, int, int]:
    """What decides the rest of the game; under unlimited passes the pass number does not."""
    pass_no = 0 if position.rules.unlimited_passes else position.pass_no
    return (position.pyramid, position.reserve, position.pile, position.pointer, pass_no)


def _child(position: Position, move: Move) -> Position:
    child = position.copy()
    child._make(move)
    return child


def _probe(start: Position, budget: list[int], lazy: bool) -> tuple[str, int] | None:
    """The result of one line: the engine's first legal move at every step (removals come first),
    or with ``lazy`` drawing through the stock first (never redealing for it). None when over budget."""
    position = start
    while True:
        budget[0] -= 1
        if budget[0] < 0:
            return None
        moves = position.legal_moves()
        if not moves:
            return (position.status, position.cards_left)
        move = moves[0]
        if lazy and moves[-1].kind == DRAW:
            move = moves[-1]
        position = _child(position, move)


def _only_result(start: Position, budget: list[int]) -> tuple[str, int] | None:
    """The one result every line from ``start`` ends with, or None when two lines end differently
    (or the budget runs out). A line that never ends (turning cards for ever under unlimited passes)
    is no result; the player can always stop turning and play on."""
    result = None
    seen = {_state(start)}
    todo = [start]
    while todo:
        budget[0] -= 1
        if budget[0] < 0:
            return None
        position = todo.pop()
        moves = position.legal_moves()
        if not moves:
            found = (position.status, position.cards_left)
            if result is not None and found != result:
                return None
            result = found
            continue
        # popped last-in first-out: push turns first, so the removals are followed first
        for move in reversed(moves):
            child = _child(position, move)
            state = _state(child)
            if state not in seen:
                seen.add(state)
                todo.append(child)
    return result


# --- the same moves in every order ------------------------------------------------------------------
def _common_line(orders: list[Position], budget: list[int]) -> list[str] | None:
    """The shortest list of moves legal in every order that ends the deal in all of them.

    The orders share every mask (moves name locations, never cards), so one state stands for all."""
    frontier: list[tuple[list[Position], list[str]]] = [(orders, [])]
    seen = {_state(orders[0])}
    while frontier:
        following = []
        for positions, line in frontier:
            budget[0] -= len(positions)
            if budget[0] < 0:
                return None
            legal = [position.legal_moves() for position in positions]
            ended = [not moves for moves in legal]
            if all(ended):
                return line
            if any(ended):
                continue
            common = [move for move in legal[0] if all(move in moves for moves in legal[1:])]
            for move in common:
                children = [_child(position, move) for position in positions]
                state = _state(children[0])
                if state not in seen:
                    seen.add(state)
                    following.append((children, line + [str(move)]))
        frontier = following
    return None
