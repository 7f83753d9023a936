"""Rule sets: the options of docs/rules.md, the presets, and a stable text form to store.

The canonical text is ``key=value`` pairs in a fixed order joined by ``;``. It never changes for a
given rule set, so it can be a database key; :meth:`Rules.parse` also takes a preset name, a
preset with overrides (``classic;passes=unlimited``) and JSON.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from .errors import RulesError

OPTION_ORDER = ("passes", "draw", "stock_top", "waste_top", "goal", "covered_pairs", "reserve")
UNLIMITED = 0  # stored value of passes=unlimited: a number, so the rule set stays a flat record

# The bounds of every option (docs/rules.md, section 3). The solver's core checks the same ones.
MAX_PASSES = 9
DRAWS = (1, 3)  # no draw 2: the stuck rule and the regrouping of docs/rules.md are written for 1 and 3
RESERVES = (0, 7)
WORDS = {"stock_top": ("hidden", "live"), "waste_top": ("live", "dead"), "goal": ("pyramid", "all")}
ALLOWED = {
    "passes": f"a whole number from 1 to {MAX_PASSES}, or unlimited",
    "draw": " or ".join(map(str, DRAWS)),
    "reserve": " or ".join(map(str, RESERVES)),
    "covered_pairs": "yes or no",
    **{key: " or ".join(words) for key, words in WORDS.items()},
}
_NUMBER = re.compile(r"[+-]?[0-9]{1,20}")  # ASCII digits only (int() would take "1_0" and other scripts' digits)


def _shown(value: object) -> str:
    """A refused value as the message quotes it: its repr, cut short."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _refuse(key: str, value: object) -> RulesError:
    return RulesError(f"{key} must be {ALLOWED[key]}; got {_shown(value)}")


@dataclass(frozen=True, slots=True)
class Rules:
    passes: int = 3  # trips through the stock; UNLIMITED (0) for no limit
    draw: int = 1
    stock_top: str = "hidden"  # hidden | live
    waste_top: str = "live"  # live | dead
    goal: str = "pyramid"  # pyramid | all
    covered_pairs: bool = False
    reserve: int = 0  # 0 | 7

    def __post_init__(self) -> None:
        # every constructor (parse, from_options, JSON, Rules(...) itself) passes here
        if type(self.passes) is not int or not (self.passes == UNLIMITED or 1 <= self.passes <= MAX_PASSES):
            raise _refuse("passes", self.passes)
        if type(self.draw) is not int or self.draw not in DRAWS:
            raise _refuse("draw", self.draw)
        for key, words in WORDS.items():
            if not isinstance(getattr(self, key), str) or getattr(self, key) not in words:
                raise _refuse(key, getattr(self, key))
        if not isinstance(self.covered_pairs, bool):
            raise _refuse("covered_pairs", self.covered_pairs)
        if type(self.reserve) is not int or self.reserve not in RESERVES:
            raise _refuse("reserve", self.reserve)
        if self.draw == 3 and self.stock_top == "live":
            raise RulesError(
                "draw 3 with stock_top live is not a valid rule set: with three cards turned at once "
                "there is no single stock top to play"
            )

    # --- derived facts the engine asks often -------------------------------------------------
    @property
    def unlimited_passes(self) -> bool:
        return self.passes == UNLIMITED

    @property
    def stock_live(self) -> bool:
        return self.stock_top == "live"

    @property
    def waste_live(self) -> bool:
        return self.waste_top == "live"

    def pass_left(self, pass_no: int) -> bool:
        return self.passes == UNLIMITED or pass_no < self.passes

    @property
    def name(self) -> str:
        """The preset name when these rules are a preset, otherwise ``custom``."""
        return PRESET_NAMES.get(self, "custom")

    # --- text and JSON forms --------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        # every field is a plain value: asdict's deep copy of each (per game response) buys nothing
        data = {name: getattr(self, name) for name in self.__slots__}
        data["passes"] = "unlimited" if self.passes == UNLIMITED else self.passes
        data["covered_pairs"] = "yes" if self.covered_pairs else "no"
        return data

    def to_text(self) -> str:
        data = self.to_dict()
        return ";".join(f"{key}={data[key]}" for key in OPTION_ORDER)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    def describe(self) -> str:
        """The rule set in a few plain words, for people."""
        passes = "unlimited passes" if self.unlimited_passes else f"{self.passes} pass{'es' * (self.passes > 1)}"
        tops = [f"stock top {self.stock_top}", f"waste top {self.waste_top}"]
        extras = []
        if self.covered_pairs:
            extras.append("a card may pair with the card it covers")
        if self.reserve:
            extras.append("7 reserve cards")
        goal = "clear the pyramid" if self.goal == "pyramid" else "clear all 52 cards"
        return ", ".join([f"draw {self.draw}", passes, *tops, goal, *extras])

    @classmethod
    def from_options(cls, options: Mapping[Any, Any], base: Rules | None = None) -> Rules:
        """Build rules from option values as text or Python values; unknown names are refused."""
        values = {}
        for key, raw in options.items():
            key = str(key).strip().lower().replace("-", "_")
            if key not in OPTION_ORDER:
                raise RulesError(f"unknown option {_shown(key)}; the options are {', '.join(OPTION_ORDER)}")
            values[key] = _option_value(key, raw)
        return replace(base or cls(), **values)

    @classmethod
    def parse(cls, text: str | Mapping[Any, Any] | Rules) -> Rules:
        """A preset name, canonical text, ``preset;key=value`` overrides, JSON, or a dict."""
        if isinstance(text, Rules):
            return text
        if isinstance(text, Mapping):
            return cls.from_options(text)
        if not isinstance(text, str) or not text.strip():
            raise RulesError("empty rule set: give a preset name or options such as passes=3;draw=1")
        text = text.strip()
        if text.startswith("{"):
            try:
                data = json.loads(text)
            except json.JSONDecodeError as exc:
                raise RulesError(f"rule set JSON is malformed: {exc.msg}") from None
            except (RecursionError, ValueError):  # nested too deep; a number too long to convert
                raise RulesError("rule set JSON is malformed: nested too deep or a number too long") from None
            if not isinstance(data, dict):
                raise RulesError("rule set JSON must be an object of options")
            return cls.from_options(data)
        base = None
        options: dict[str, str] = {}
        for part in text.replace(",", ";").split(";"):
            part = part.strip()
            if not part:
                continue
            if "=" not in part:
                if base is not None or options:
                    raise RulesError(f"{_shown(part)} is not an option: write key=value, and a preset name only first")
                base = preset(part)
                continue
            key, _, value = part.partition("=")
            options[key] = value
        return cls.from_options(options, base=base)


def _option_value(key: str, raw: object) -> Any:
    """One option's value from text or a Python/JSON value; out of its bounds is refused here, with
    the bounds in the message (``Rules`` checks them again, for rules built directly)."""
    if key == "covered_pairs":
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower() if isinstance(raw, str) else None
        if text in ("yes", "true"):
            return True
        if text in ("no", "false"):
            return False
        raise _refuse(key, raw)
    if key in ("passes", "draw", "reserve"):
        if key == "passes" and isinstance(raw, str) and raw.strip().lower() == "unlimited":
            return UNLIMITED
        if isinstance(raw, int) and not isinstance(raw, bool):
            value = raw
        elif isinstance(raw, str) and _NUMBER.fullmatch(raw.strip()):
            value = int(raw.strip())
        else:
            raise _refuse(key, raw)
        # passes=0 is refused: 0 is only how unlimited is stored, never how it is written
        if not (1 <= value <= MAX_PASSES if key == "passes" else value in (DRAWS if key == "draw" else RESERVES)):
            raise _refuse(key, value)
        return value
    if not isinstance(raw, str):
        raise _refuse(key, raw)
    return raw.strip().lower()


PRESETS: dict[str, Rules] = {
    "classic": Rules(passes=3, draw=1, stock_top="hidden", waste_top="live", goal="pyramid"),
    "strict": Rules(passes=1, draw=1, stock_top="live", waste_top="live", goal="all"),
    "one-look": Rules(passes=1, draw=1, stock_top="live", waste_top="dead", goal="pyramid"),
    "relaxed": Rules(passes=3, draw=1, stock_top="live", waste_top="live", goal="pyramid"),
    "par": Rules(passes=3, draw=1, stock_top="live", waste_top="live", goal="all"),
    "tuts-tomb": Rules(passes=3, draw=3, stock_top="hidden", waste_top="live", goal="pyramid"),
    "reserve": Rules(passes=1, draw=1, stock_top="live", waste_top="live", goal="all", reserve=7),
    "overlap": Rules(passes=3, draw=1, stock_top="hidden", waste_top="live", goal="pyramid", covered_pairs=True),
}
PRESET_NAMES = {rules: name for name, rules in PRESETS.items()}
DEFAULT_PRESET = "classic"


def preset(name: str) -> Rules:
    try:
        return PRESETS[name.strip().lower()]
    except KeyError:
        raise RulesError(f"unknown preset {_shown(name)}; the presets are {', '.join(PRESETS)}") from None
