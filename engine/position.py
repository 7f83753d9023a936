"""A position of a deal under a rule set: what is left, where the stock stands, which pass it is.

The stock and the waste together are the *pile*: the cards dealt to the stock, in their original
order, less those removed. Drawing never reorders them and a redeal turns the waste over without
shuffling, which puts them back in that same order, so the whole of stock and waste is one bit
mask over the original pile plus a pointer: present cards below the pointer are the waste (the
highest one on top), the others are the stock (the lowest one on top). The pointer is kept just
above the waste top, so equal positions have equal fields; the solver hashes them.
"""

from __future__ import annotations

from functools import lru_cache

from .cards import KING, TARGET, card_pretty, card_value
from .deals import Deal
from .errors import IllegalMove, StateError
from .layout import COVER_MASK, COVERED_BY, COVERS, FULL_PYRAMID, PYRAMID_SIZE, is_valid_shape
from .moves import (
    DRAW,
    DRAW_MOVE,
    REDEAL,
    REDEAL_MOVE,
    RESERVE_BASE,
    STOCK,
    WASTE,
    Move,
    king_move,
    pair_move,
    parse_move,
)
from .rules import Rules
from .words import PYRAMID as PYRAMID_PLACE
from .words import RESERVE as RESERVE_PLACE
from .words import STOCK_PLACE, WASTE_PLACE, Said, Seen

PLAYING, WON, STUCK = "playing", "won", "stuck"


class Board:
    """The cards of one deal laid out under one rule set; shared by all positions of that game."""

    __slots__ = (
        "deal",
        "rules",
        "pyramid_cards",
        "reserve_cards",
        "pile_cards",
        "pile_size",
        "values",
        "pile_values",
        "partners_cache",
        "pile_masks",
    )

    def __init__(self, deal: Deal, rules: Rules):
        self.deal = deal
        self.rules = rules
        cards = deal.cards
        self.pyramid_cards = cards[:PYRAMID_SIZE]
        self.reserve_cards = cards[PYRAMID_SIZE : PYRAMID_SIZE + rules.reserve]
        self.pile_cards = cards[PYRAMID_SIZE + rules.reserve :]
        self.pile_size = len(self.pile_cards)
        # values by location for the pyramid and reserve (the pile is looked up by index)
        self.values = tuple(card_value(c) for c in self.pyramid_cards) + tuple(
            card_value(c) for c in self.reserve_cards
        )
        self.pile_values = tuple(card_value(c) for c in self.pile_cards)
        # (pyramid, reserve) -> what the cards there want from the pile; see Position._wanted
        self.partners_cache: dict[int, int] = {}
        # wanted value bits -> pile indices holding such a value, so one AND finds a partner
        self.pile_masks: dict[int, int] = {}

    def pile_mask(self, wanted: int) -> int:
        mask = self.pile_masks.get(wanted)
        if mask is None:
            mask = sum(1 << i for i, value in enumerate(self.pile_values) if wanted >> value & 1)
            self.pile_masks[wanted] = mask
        return mask


@lru_cache(maxsize=1024)
def board_for(deal: Deal, rules: Rules) -> Board:
    return Board(deal, rules)


def _lowest_bit(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


class Position:
    __slots__ = ("board", "pyramid", "reserve", "pile", "pointer", "pass_no", "moves", "cleared_pass")

    def __init__(
        self,
        board: Board,
        pyramid: int,
        reserve: int,
        pile: int,
        pointer: int,
        pass_no: int,
        moves: int = 0,
        cleared_pass: int = 0,
    ):
        self.board = board
        self.pyramid = pyramid  # bit p set: pyramid position p still holds its card
        self.reserve = reserve  # bit i set: reserve card Ri is still there
        self.pile = pile  # bit i set: the i-th card dealt to the stock is still in stock or waste
        self.pointer = pointer  # pile indices below it are the waste
        self.pass_no = pass_no  # 1 for the first trip through the stock
        self.moves = moves
        self.cleared_pass = cleared_pass  # the pass in which the pyramid was cleared, 0 while it stands

    # --- construction and copies ---------------------------------------------------------------------
    @classmethod
    def start(cls, deal: Deal, rules: Rules) -> Position:
        board = board_for(deal, rules)
        return cls(board, FULL_PYRAMID, (1 << rules.reserve) - 1, (1 << board.pile_size) - 1, 0, 1)

    def copy(self) -> Position:
        return Position(
            self.board, self.pyramid, self.reserve, self.pile, self.pointer, self.pass_no, self.moves, self.cleared_pass
        )

    @property
    def rules(self) -> Rules:
        return self.board.rules

    @property
    def deal(self) -> Deal:
        return self.board.deal

    def key(self) -> tuple[int, int, int, int, int]:
        """What decides the future of the game (not the move count): the solver's hash key."""
        return (self.pyramid, self.reserve, self.pile, self.pointer, self.pass_no)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Position)
            and self.board.deal == other.board.deal
            and self.board.rules == other.board.rules
            and self.key() == other.key()
            and self.moves == other.moves
            and self.cleared_pass == other.cleared_pass
        )

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return f"Position({self.dumps()!r})"

    # --- the pile ----------------------------------------------------------------------------------------
    def stock_top_index(self) -> int:
        """Pile index of the stock top, or -1 when the stock is empty."""
        above = self.pile >> self.pointer
        return self.pointer + _lowest_bit(above) if above else -1

    def waste_top_index(self) -> int:
        """Pile index of the waste top, or -1 when the waste is empty (always ``pointer - 1``)."""
        return self.pointer - 1

    @property
    def stock_count(self) -> int:
        return (self.pile >> self.pointer).bit_count()

    @property
    def waste_count(self) -> int:
        return (self.pile & ((1 << self.pointer) - 1)).bit_count()

    def stock_cards(self) -> list[int]:
        """The stock from its top down. Never shown to a player in ranked play."""
        cards = self.board.pile_cards
        return [cards[i] for i in range(self.pointer, self.board.pile_size) if self.pile >> i & 1]

    def waste_cards(self) -> list[int]:
        """The waste from the bottom up: the last card is the top."""
        cards = self.board.pile_cards
        return [cards[i] for i in range(self.pointer) if self.pile >> i & 1]

    # --- counts ------------------------------------------------------------------------------------------
    @property
    def pyramid_left(self) -> int:
        return self.pyramid.bit_count()

    @property
    def reserve_left(self) -> int:
        return self.reserve.bit_count()

    @property
    def pile_left(self) -> int:
        return self.pile.bit_count()

    @property
    def cards_left(self) -> int:
        """The cards the goal still asks for."""
        if self.board.rules.goal == "pyramid":
            return self.pyramid.bit_count()
        return self.pyramid.bit_count() + self.reserve.bit_count() + self.pile.bit_count()

    # --- cards at locations --------------------------------------------------------------------------------
    def card_at(self, loc: int) -> int | None:
        """The card at a location if one lies there (face-down stock cards count only when live)."""
        if loc < PYRAMID_SIZE:
            return self.board.pyramid_cards[loc] if self.pyramid >> loc & 1 else None
        if loc < STOCK:
            i = loc - RESERVE_BASE
            return self.board.reserve_cards[i] if self.reserve >> i & 1 else None
        index = self.stock_top_index() if loc == STOCK else self.waste_top_index()
        return self.board.pile_cards[index] if index >= 0 else None

    def is_free(self, p: int) -> bool:
        """A pyramid card is free when both cards that cover it are gone."""
        return bool(self.pyramid >> p & 1) and not self.pyramid & COVER_MASK[p]

    def card_words(self, loc: int) -> str:
        """The card at ``loc`` as a player names it: ``7♣`` in the pyramid (the card dealt there, even
        once it is gone), ``the reserve's 5♦``, ``the waste's 4♣``, and ``the stock's 9♥`` only while
        the rules turn the stock top face up. A face-down stock card is never named."""
        return self.card_seen(loc).english()

    def card_seen(self, loc: int) -> Seen:
        """What ``card_words`` names, as data: where the card lies and the card, None when it is not shown."""
        board = self.board
        if loc < PYRAMID_SIZE:
            return Seen(PYRAMID_PLACE, board.pyramid_cards[loc])
        if loc < STOCK:
            i = loc - RESERVE_BASE
            return Seen(RESERVE_PLACE, board.reserve_cards[i] if i < len(board.reserve_cards) else None)
        card = None if loc == STOCK and not board.rules.stock_live else self.card_at(loc)
        return Seen(STOCK_PLACE if loc == STOCK else WASTE_PLACE, card)

    def _unavailable(self, loc: int, partner: int = -1) -> Said | None:
        """Why the card at ``loc`` cannot be taken (paired with ``partner``), or None if it can.

        The reasons name the cards as a player sees them: pyramid cards are face up, so a covered
        card and the cards lying on it are named; a face-down stock card never is."""
        rules = self.board.rules
        if loc < PYRAMID_SIZE:
            card = self.card_seen(loc)
            if not self.pyramid >> loc & 1:
                return Said(f"{self.card_words(loc)} is already gone from the pyramid", "pyramid_card_gone", card=card)
            covering = self.pyramid & COVER_MASK[loc]
            if not covering:
                return None
            if rules.covered_pairs and partner >= 0 and covering == 1 << partner:
                return None  # lies under its partner alone: the covered_pairs option allows the pair
            on = [self.card_seen(q) for q in COVERED_BY[loc] if covering >> q & 1]
            reason = f"{self.card_words(loc)} is covered by {' and '.join(c.english() for c in on)}"
            if partner in COVERED_BY[loc]:
                if rules.covered_pairs:
                    return Said(
                        reason + ", and a card pairs with the card it covers only when nothing else covers it",
                        "covered_partner_and_more",
                        card=card,
                        covered_by=on,
                    )
                return Said(
                    reason + ": a card never pairs with a card it covers under these rules",
                    "covered_by_partner",
                    card=card,
                    covered_by=on,
                )
            return Said(reason, "covered", card=card, covered_by=on)
        if loc < STOCK:
            if not rules.reserve:
                return Said("there is no reserve under these rules", "no_reserve")
            i = loc - RESERVE_BASE
            return (
                None
                if self.reserve >> i & 1
                else Said(f"{self.card_words(loc)} is already gone", "reserve_card_gone", card=self.card_seen(loc))
            )
        if loc == STOCK:
            if not rules.stock_live:
                return Said("the stock top is face down under these rules: draw to turn it", "stock_top_hidden")
            return None if self.stock_top_index() >= 0 else Said("the stock is empty", "stock_empty")
        if not rules.waste_live:
            if self.pointer:
                return Said(
                    f"{self.card_words(WASTE)} cannot be taken: the waste top is dead under these rules",
                    "waste_card_dead",
                    card=self.card_seen(WASTE),
                )
            return Said("the waste top is dead under these rules", "waste_dead")
        return None if self.pointer else Said("the waste is empty", "waste_empty")

    # --- legality ----------------------------------------------------------------------------------------
    def why_illegal(self, move: Move) -> Said | None:
        """The reason ``move`` is illegal here, in a player's words, or None when it is legal.

        Cards are named as a player sees them (``7♣ is covered by Q♦ and 2♠``), never by location
        number, and a face-down stock card is never named. The reason is also data (``kind``, ``params``:
        engine/words.py), for players of other languages."""
        if self.is_won:
            return Said("the deal is already won", "already_won")
        kind = move.kind
        if kind == DRAW or kind == REDEAL:
            reason = self._why_not_turn(kind)
            if reason is None and self.is_stuck:
                return Said(
                    "the deal is over: no removal is possible and none can come up by drawing or redealing", "deal_over"
                )
            return reason
        first, second = move.first, move.second
        reason = self._unavailable(first, second)
        if reason:
            return reason
        card = self.card_at(first)
        assert card is not None  # an available card is face up
        if second < 0:
            if card_value(card) != KING:
                return Said(
                    f"{self.card_words(first)} is not a king: only a king goes alone",
                    "not_a_king",
                    card=self.card_seen(first),
                )
            return None
        reason = self._unavailable(second, first)
        if reason:
            return reason
        other = self.card_at(second)
        assert other is not None
        total = card_value(card) + card_value(other)
        if total != TARGET:
            return Said(
                f"{card_pretty(card)} + {card_pretty(other)} make {total}, not 13",
                "not_thirteen",
                first=Seen(PYRAMID_PLACE, card),
                second=Seen(PYRAMID_PLACE, other),
                total=total,
            )
        return None

    def _why_not_turn(self, kind: str) -> Said | None:
        rules = self.board.rules
        stock_empty = not self.pile >> self.pointer
        if kind == DRAW:
            if not stock_empty:
                return None
            if not rules.pass_left(self.pass_no):
                return Said("the stock is empty and no pass is left", "draw_no_pass_left")
            if not self.pointer:
                return Said("the stock and the waste are both empty", "draw_nothing_left")
            return Said(
                f"the stock is empty: redeal to start pass {self.pass_no + 1}",
                "draw_stock_empty",
                next_pass=self.pass_no + 1,
            )
        if not stock_empty:
            count = self.stock_count
            return Said(
                f"the stock still has {count} card{'s' * (count != 1)}: redeal only when it is empty",
                "redeal_stock_left",
                count=count,
            )
        if not rules.pass_left(self.pass_no):
            return Said(
                f"no pass is left: these rules allow {rules.passes} pass{'es' * (rules.passes > 1)}",
                "redeal_no_pass_left",
                passes=rules.passes,
            )
        if not self.pointer:
            return Said("the waste is empty: there is nothing to redeal", "redeal_waste_empty")
        return None

    def check(self, move: Move | str) -> Move:
        """Parse and check a move; raise :class:`IllegalMove` with the reason when it is illegal."""
        if isinstance(move, str):
            move = parse_move(move)
        reason = self.why_illegal(move)
        if reason:
            raise IllegalMove(reason, str(move), kind=reason.kind, params=reason.params)
        return move

    def legal_moves(self) -> list[Move]:
        """Every legal move, removals first (kings, then pairs), then draw or redeal."""
        if self.is_won:
            return []
        moves = self._removals()
        if not moves and self.is_stuck:
            return []
        for kind, move in ((DRAW, DRAW_MOVE), (REDEAL, REDEAL_MOVE)):
            if self._why_not_turn(kind) is None:
                moves.append(move)
        return moves

    def available(self) -> list[tuple[int, int]]:
        """(location, value) of every card that may be taken now, in location order."""
        board, rules = self.board, self.board.rules
        values = board.values
        pyramid = self.pyramid
        found = [(p, values[p]) for p in range(PYRAMID_SIZE) if pyramid >> p & 1 and not pyramid & COVER_MASK[p]]
        reserve = self.reserve
        found.extend((RESERVE_BASE + i, values[PYRAMID_SIZE + i]) for i in range(rules.reserve) if reserve >> i & 1)
        if rules.stock_live:
            index = self.stock_top_index()
            if index >= 0:
                found.append((STOCK, card_value(board.pile_cards[index])))
        if rules.waste_live and self.pointer:
            found.append((WASTE, card_value(board.pile_cards[self.pointer - 1])))
        return found

    def _removals(self) -> list[Move]:
        found = self.available()
        moves = [king_move(loc) for loc, value in found if value == KING]
        for i, (a, va) in enumerate(found):
            for b, vb in found[i + 1 :]:
                if va + vb == TARGET:
                    moves.append(pair_move(a, b))
        if self.board.rules.covered_pairs:
            values, pyramid = self.board.values, self.pyramid
            for p, value in found:
                if p >= PYRAMID_SIZE:
                    break
                for q in COVERS[p]:
                    if pyramid >> q & 1 and pyramid & COVER_MASK[q] == 1 << p and values[q] + value == TARGET:
                        moves.append(pair_move(p, q))
        return moves

    # --- end of the deal ---------------------------------------------------------------------------------
    @property
    def is_won(self) -> bool:
        if self.board.rules.goal == "pyramid":
            return not self.pyramid
        return not (self.pyramid or self.reserve or self.pile)

    @property
    def is_stuck(self) -> bool:
        """No removal now, and none reachable by drawing and redealing alone."""
        return not self.is_won and not self._removal_reachable()

    @property
    def status(self) -> str:
        if self.is_won:
            return WON
        return STUCK if not self._removal_reachable() else PLAYING

    @property
    def is_over(self) -> bool:
        return self.status != PLAYING

    def _wanted(self) -> int:
        """Bit v set: a pile card of value v would make a removal with the pyramid and reserve as
        they are (kings included); -1 when they hold a removal of their own. Cached per board:
        a game meets few distinct pyramids and asks about each one many times."""
        board = self.board
        key = self.pyramid | self.reserve << PYRAMID_SIZE
        wanted = board.partners_cache.get(key)
        if wanted is not None:
            return wanted
        values, pyramid, rules = board.values, self.pyramid, board.rules
        wanted = 1 << KING
        for p in range(PYRAMID_SIZE):
            if pyramid >> p & 1 and not pyramid & COVER_MASK[p]:
                value = values[p]
                if wanted >> value & 1:
                    wanted = -1
                    break
                wanted |= 1 << (TARGET - value)
                if rules.covered_pairs and any(
                    pyramid >> q & 1 and pyramid & COVER_MASK[q] == 1 << p and values[q] + value == TARGET
                    for q in COVERS[p]
                ):
                    wanted = -1
                    break
        if wanted >= 0:
            for i in range(rules.reserve):
                if self.reserve >> i & 1:
                    value = values[PYRAMID_SIZE + i]
                    if wanted >> value & 1:
                        wanted = -1
                        break
                    wanted |= 1 << (TARGET - value)
        board.partners_cache[key] = wanted
        return wanted

    def _removal_reachable(self) -> bool:
        """Whether some removal is possible now or after draws and redeals alone.

        Without removals the pyramid and reserve do not change, so it is enough to look at the
        pile cards that draws and redeals bring to a live top, once: a later pass repeats the first.
        """
        wanted = self._wanted()
        if wanted < 0:
            return True
        board, rules = self.board, self.board.rules
        stock_live, waste_live = rules.stock_live, rules.waste_live
        if not (stock_live or waste_live):
            return False
        pile, pointer = self.pile, self.pointer
        again = rules.pass_left(self.pass_no)
        if rules.draw == 1:
            # every stock card comes to a top; so does the waste top, and after a redeal every card
            first = 0 if again else pointer - 1 if waste_live and pointer else pointer
            if board.pile_mask(wanted) & pile >> first << first:
                return True
            if stock_live and waste_live:  # the waste top and the stock top side by side
                values = board.pile_values
                present = [
                    values[i] for i in range(0 if again else max(pointer - 1, 0), board.pile_size) if pile >> i & 1
                ]
                return any(a + b == TARGET for a, b in zip(present, present[1:], strict=False))
            return False
        values = board.pile_values
        present = [values[i] for i in range(board.pile_size) if pile >> i & 1]
        count = len(present)
        start = (pile & ((1 << pointer) - 1)).bit_count()  # cards in the waste
        # draw 3, stock top hidden: only the last card of each draw lands on the waste top
        if start and wanted >> present[start - 1] & 1:
            return True
        for at in (start, 0) if again else (start,):
            while at < count:
                at = min(at + 3, count)
                if wanted >> present[at - 1] & 1:
                    return True
        return False

    # --- making moves ------------------------------------------------------------------------------------
    def apply(self, move: Move | str) -> Position:
        """Check and make a move in place; return self. Raises :class:`IllegalMove`."""
        move = self.check(move)
        self._make(move)
        return self

    def play(self, move: Move | str) -> Position:
        """The position after a legal move, leaving this one as it was."""
        return self.copy().apply(move)

    def _make(self, move: Move) -> None:
        """Make a move known to be legal."""
        self.moves += 1
        kind = move.kind
        if kind == DRAW:
            pile, pointer = self.pile, self.pointer
            for _ in range(self.board.rules.draw):
                above = pile >> pointer
                if not above:
                    break
                pointer += _lowest_bit(above) + 1
            self.pointer = pointer
            return
        if kind == REDEAL:
            self.pointer = 0
            self.pass_no += 1
            return
        stock_index = self.stock_top_index() if STOCK in (move.first, move.second) else -1
        for loc in (move.first, move.second):
            if loc < 0:
                continue
            if loc < PYRAMID_SIZE:
                self.pyramid &= ~(1 << loc)
            elif loc < STOCK:
                self.reserve &= ~(1 << (loc - RESERVE_BASE))
            elif loc == STOCK:
                self.pile &= ~(1 << stock_index)
        if move.second == WASTE or move.first == WASTE:
            self.pile &= ~(1 << (self.pointer - 1))
            self.pointer = (self.pile & ((1 << self.pointer) - 1)).bit_length()
        if not self.pyramid and not self.cleared_pass:
            self.cleared_pass = self.pass_no

    # --- serialised form ---------------------------------------------------------------------------------
    def dumps(self) -> str:
        """A short string of the changing part; with the deal and rules it restores the position."""
        return (
            f"{self.pyramid:x}.{self.reserve:x}.{self.pile:x}.{self.pointer}."
            f"{self.pass_no}.{self.moves}.{self.cleared_pass}"
        )

    @classmethod
    def loads(cls, text: str, deal: Deal, rules: Rules) -> Position:
        """Load :meth:`dumps` output, refusing anything no game could have reached."""
        board = board_for(deal, rules)
        if not isinstance(text, str):
            raise StateError("a serialised position is a string")
        parts = text.strip().split(".")
        if len(parts) != 7:
            raise StateError(f"a serialised position has 7 fields separated by dots; this one has {len(parts)}")
        try:
            pyramid, reserve, pile = (int(p, 16) for p in parts[:3])
            pointer, pass_no, moves, cleared_pass = (int(p, 10) for p in parts[3:])
        except ValueError:
            raise StateError(
                f"a serialised position holds hexadecimal masks and decimal counts; got {text!r}"
            ) from None
        if any(p.strip() != p or p.startswith(("-", "+")) or "_" in p for p in parts):
            raise StateError(f"a serialised position holds plain numbers; got {text!r}")
        if not is_valid_shape(pyramid):
            raise StateError("the pyramid mask does not describe a shape any game can reach")
        if reserve >> rules.reserve:
            raise StateError(f"the reserve mask has cards these rules do not deal ({rules.reserve} reserve cards)")
        if pile >> board.pile_size:
            raise StateError(f"the pile mask has more than the {board.pile_size} cards of the stock")
        if pointer > board.pile_size or (pointer and not pile >> (pointer - 1) & 1):
            raise StateError("the stock pointer must sit just above the waste top")
        limit = rules.passes or None
        if pass_no < 1 or (limit and pass_no > limit):
            raise StateError(f"pass {pass_no} is outside these rules' passes")
        if (cleared_pass == 0) != bool(pyramid) or cleared_pass > pass_no:
            raise StateError("the pass in which the pyramid was cleared does not fit the pyramid")
        removed = 28 - pyramid.bit_count() + rules.reserve - reserve.bit_count() + board.pile_size - pile.bit_count()
        if moves < (removed + 1) // 2 + (pass_no - 1):
            raise StateError(f"{moves} moves cannot remove {removed} cards in pass {pass_no}")
        return cls(board, pyramid, reserve, pile, pointer, pass_no, moves, cleared_pass)
