"""What the engine says to players, as data as well as English.

Every refusal and every hint explanation is a ``Said``: the English sentence the engine has always given
(it is a ``str``), plus a stable ``kind`` and the ``params`` it was built from. A client or a service that
speaks another language builds its own sentence from ``kind`` and ``params``; the kinds never change
meaning once published. Cards in params are ``Seen`` values, never location numbers, so a translation
names them as a player sees them and can never name a face-down stock card.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from .cards import card_pretty

PYRAMID, RESERVE, STOCK_PLACE, WASTE_PLACE = "pyramid", "reserve", "stock", "waste"


class Seen(NamedTuple):
    """A card as a player sees it: where it lies, and the card (None when it is face down or absent)."""

    place: str
    card: int | None

    def english(self) -> str:
        if self.place == PYRAMID:
            assert self.card is not None  # a pyramid card is always face up
            return card_pretty(self.card)
        if self.place == RESERVE:
            return "a reserve card" if self.card is None else f"the reserve's {card_pretty(self.card)}"
        where = "the stock's" if self.place == STOCK_PLACE else "the waste's"
        return f"{where} top card" if self.card is None else f"{where} {card_pretty(self.card)}"


class Said(str):
    """An English sentence with the ``kind`` and ``params`` it was made from."""

    kind: str
    params: dict[str, Any]

    def __new__(cls, text: str, kind: str, **params: Any) -> Said:
        said = super().__new__(cls, text)
        said.kind = kind
        said.params = params
        return said

    def __reduce__(self) -> tuple[Callable[[str, str, dict[str, Any]], Said], tuple[str, str, dict[str, Any]]]:
        # copies and pickles (a hint sent between processes) keep the kind and params
        return _said, (str(self), self.kind, self.params)


def _said(text: str, kind: str, params: dict[str, Any]) -> Said:
    return Said(text, kind, **params)


def listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
