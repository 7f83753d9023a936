"""The engine's refusals and hints in the request's language.

The engine says everything in English and also as data: a stable ``kind`` and the ``params`` it was built from
(engine/words.py). Here each kind has its sentence in the catalogues, filled with cards named as a player of
that language names them (``D♦`` for a queen in Swedish and German). A kind this table does not know falls
back on the engine's English, so a new refusal is never lost, only untranslated until it is added here.
"""

from __future__ import annotations

from django.utils.translation import gettext, ngettext, pgettext

from engine.cards import RANKS, SUIT_SYMBOLS, SUITS
from engine.words import PYRAMID, RESERVE, STOCK_PLACE, Seen


def rank_label(card: int) -> str:
    """The rank as printed in the corner of a card of this language's decks."""
    rank = RANKS[card >> 2]
    labels = {
        "A": pgettext("card rank: ace", "A"),
        "T": "10",
        "J": pgettext("card rank: jack", "J"),
        "Q": pgettext("card rank: queen", "Q"),
        "K": pgettext("card rank: king", "K"),
    }
    return labels.get(rank, rank)


def card_label(card: int) -> str:
    return rank_label(card) + SUIT_SYMBOLS[SUITS[card & 3]]


def value_name(value: int) -> str:
    """A card value as a word: the court cards and the ace by name, the others as their number."""
    names = {1: gettext("ace"), 11: gettext("jack"), 12: gettext("queen"), 13: gettext("king")}
    return names.get(value, str(value))


def seen_words(seen: Seen) -> str:
    place, card = seen
    if place == PYRAMID:
        return card_label(card)
    if place == RESERVE:
        return (
            gettext("a reserve card")
            if card is None
            else gettext("the reserve's %(card)s") % {"card": card_label(card)}
        )
    if place == STOCK_PLACE:
        return (
            gettext("the stock's top card")
            if card is None
            else gettext("the stock's %(card)s") % {"card": card_label(card)}
        )
    return (
        gettext("the waste's top card")
        if card is None
        else gettext("the waste's %(card)s") % {"card": card_label(card)}
    )


def listed(seen: list[Seen]) -> str:
    names = [seen_words(s) for s in seen]
    if len(names) == 1:
        return names[0]
    return gettext("%(cards)s and %(last)s") % {"cards": ", ".join(names[:-1]), "last": names[-1]}


def _values(params: dict) -> dict:
    """Params with every card (and list of cards) written out."""
    out = {}
    for key, value in params.items():
        if isinstance(value, Seen):
            out[key] = seen_words(value)
        elif isinstance(value, list) and value and isinstance(value[0], Seen):
            out[key] = listed(value)
        else:
            out[key] = value
    return out


def refusal(kind: str | None, params: dict, english: str) -> str:
    """Why a move is refused (``Position.why_illegal``), in the request's language."""
    p = _values(params)
    sentences = {
        "already_won": lambda: gettext("the deal is already won"),
        "deal_over": lambda: gettext(
            "the deal is over: no removal is possible and none can come up by drawing or redealing"
        ),
        "pyramid_card_gone": lambda: gettext("%(card)s is already gone from the pyramid") % p,
        "covered": lambda: gettext("%(card)s is covered by %(covered_by)s") % p,
        "covered_by_partner": lambda: (
            gettext("%(card)s is covered by %(covered_by)s: a card never pairs with a card it covers under these rules")
            % p
        ),
        "covered_partner_and_more": lambda: (
            gettext(
                "%(card)s is covered by %(covered_by)s, and a card pairs with the "
                "card it covers only when nothing else covers it"
            )
            % p
        ),
        "no_reserve": lambda: gettext("there is no reserve under these rules"),
        "reserve_card_gone": lambda: gettext("%(card)s is already gone") % p,
        "stock_top_hidden": lambda: gettext("the stock top is face down under these rules: draw to turn it"),
        "stock_empty": lambda: gettext("the stock is empty"),
        "waste_card_dead": lambda: gettext("%(card)s cannot be taken: the waste top is dead under these rules") % p,
        "waste_dead": lambda: gettext("the waste top is dead under these rules"),
        "waste_empty": lambda: gettext("the waste is empty"),
        "not_a_king": lambda: gettext("%(card)s is not a king: only a king goes alone") % p,
        "not_thirteen": lambda: gettext("%(first)s + %(second)s make %(total)s, not 13") % p,
        "draw_no_pass_left": lambda: gettext("the stock is empty and no pass is left"),
        "draw_nothing_left": lambda: gettext("the stock and the waste are both empty"),
        "draw_stock_empty": lambda: gettext("the stock is empty: redeal to start pass %(next_pass)s") % p,
        "redeal_stock_left": lambda: (
            ngettext(
                "the stock still has %(count)s card: redeal only when it is empty",
                "the stock still has %(count)s cards: redeal only when it is empty",
                p["count"],
            )
            % p
        ),
        "redeal_no_pass_left": lambda: (
            ngettext(
                "no pass is left: these rules allow %(passes)s pass",
                "no pass is left: these rules allow %(passes)s passes",
                p["passes"],
            )
            % p
        ),
        "redeal_waste_empty": lambda: gettext("the waste is empty: there is nothing to redeal"),
    }
    sentence = sentences.get(kind)
    return sentence() if sentence else english


def _pair_reason(part) -> str:
    p = _values(part.params)
    if part.kind == "needs_pile":
        p["wanted"] = value_name(part.params["wanted_value"])
    reasons = {
        "frees": lambda: gettext("it frees %(cards)s") % p,
        "pairs_with_covered": lambda: (
            gettext("under these rules %(card)s may pair with the %(covered)s it alone covers") % p
        ),
        "needs_pile": lambda: (
            gettext(
                "%(card)s has no %(wanted)s left in the pyramid that it could ever reach, so "
                "it needs the pile's %(wanted)s"
            )
            % p
        ),
        "take_waste_now": lambda: gettext("take the %(card)s now, before the next draw covers it") % p,
        "use_stock_now": lambda: gettext("use the %(card)s while it is live, before it goes to the waste") % p,
        "pair_inside_pyramid": lambda: gettext(
            "a pair inside the pyramid clears more of it than one that uses the pile"
        ),
        "frees_most": lambda: gettext("no other pair frees as much"),
        "best_line": lambda: gettext("it is the pair the best line needs here"),
    }
    reason = reasons.get(part.kind)
    return reason() if reason else str(part)


def _king_card(seen: Seen) -> str:
    """The king as "Take the ... at once" names it: English drops the article of "the reserve's K♣"."""
    return seen_words(seen).removeprefix("the ")


def _hint_sentence(part) -> str:
    p = _values(part.params)
    if "card" in part.params and part.kind.startswith("king"):
        p["card"] = _king_card(part.params["card"])
    sentences = {
        "won": lambda: gettext("The deal is won."),
        "stuck": lambda: gettext(
            "No removal is possible now and none can come up by drawing or redealing: the deal is over."
        ),
        "no_better": lambda: (
            gettext("No win is possible from here, and no move can leave fewer than the %(cards_left)s cards left now.")
            % p
        ),
        "out_of_time": lambda: gettext(
            "(The solver ran out of time here, so this move follows the rules of thumb rather than a proved best line.)"
        ),
        "winnable": lambda: gettext("This position can still be won in %(moves)s moves.") % p,
        "best_reachable": lambda: (
            ngettext(
                "No win is possible from here; the best you can reach is %(cards_left)s card left, in %(moves)s moves.",
                "No win is possible from here; the best you can reach is %(cards_left)s cards left, in %(moves)s moves.",  # noqa: E501 (a catalogue key: one sentence)
                p["cards_left"],
            )
            % p
        ),
        "redeal": lambda: (
            gettext(
                "Redeal: the stock is empty and nothing in view pairs usefully, so turn the waste "
                "over to start pass %(next_pass)s."
            )
            % p
        ),
        "king_frees": lambda: (
            gettext(
                "Take the %(card)s at once: a king never pairs with anything, so keeping it "
                "only blocks the cards under it; it frees %(frees)s."
            )
            % p
        ),
        "king_pyramid": lambda: (
            gettext(
                "Take the %(card)s at once: a king never pairs with anything, so keeping it "
                "only blocks the cards under it."
            )
            % p
        ),
        "king_reserve": lambda: (
            gettext(
                "Take the %(card)s at once: a king never pairs with anything, so keeping it "
                "only takes up room in the reserve."
            )
            % p
        ),
        "king_pile": lambda: (
            gettext(
                "Take the %(card)s at once: a king never pairs with anything, so keeping it "
                "only blocks the pile under it."
            )
            % p
        ),
        "pair": lambda: (
            gettext("Pair %(first)s with %(second)s: %(reasons)s.")
            % (p | {"reasons": "; ".join(_pair_reason(r) for r in part.params["reasons"])})
        ),
        "draw_pairs_wait": lambda: gettext(
            "Draw: the pairs in view can wait, and taking them now would spend cards a later one needs more."
        ),
        "draw_no_partner": lambda: (
            ngettext(
                "Draw: %(cards)s has no partner among the free cards, so the next card is worth more.",
                "Draw: %(cards)s have no partner among the free cards, so the next card is worth more.",
                len(part.params["cards"]),
            )
            % p
        ),
        "draw_nothing_pairs": lambda: gettext("Draw: nothing pairs yet, so turn the next card."),
    }
    sentence = sentences.get(part.kind)
    return sentence() if sentence else str(part)


def hint_words(parts: list, english: str) -> str:
    """A hint's explanation (``engine.solver.hints.Hint.parts``) in the request's language."""
    if not parts:
        return english
    return " ".join(_hint_sentence(part) for part in parts)
