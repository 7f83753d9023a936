"""Rule sets: the options of docs/rules.md, the presets, and a stable text form to store.

The canonical text is ``key=value`` pairs in a fixed order joined by ``;``. It never changes for a
given rule set, so it can be a database key; :meth:`Rules.parse` also takes a preset name, a
preset with overrides (``classic;passes=unlimited``) and JSON.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from .errors import RulesError

OPTION_ORDER = ("passes", "draw", "stock_top", "waste_top", "goal", "covered_pairs", "reserve")
UNLIMITED = 0  # stored value of passes=unlimited: a number, so the rule set stays a flat record


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
        if isinstance(self.passes, bool) or not isinstance(self.passes, int) or self.passes < 0:
            raise RulesError(f"passes must be a whole number of at least 1, or unlimited; got {self.passes!r}")
        if self.draw not in (1, 3) or isinstance(self.draw, bool):
            raise RulesError(f"draw must be 1 or 3; got {self.draw!r}")
        if self.stock_top not in ("hidden", "live"):
            raise RulesError(f"stock_top must be hidden or live; got {self.stock_top!r}")
        if self.waste_top not in ("live", "dead"):
            raise RulesError(f"waste_top must be live or dead; got {self.waste_top!r}")
        if self.goal not in ("pyramid", "all"):
            raise RulesError(f"goal must be pyramid or all; got {self.goal!r}")
        if not isinstance(self.covered_pairs, bool):
            raise RulesError(f"covered_pairs must be yes or no; got {self.covered_pairs!r}")
        if self.reserve not in (0, 7) or isinstance(self.reserve, bool):
            raise RulesError(f"reserve must be 0 or 7; got {self.reserve!r}")
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

    @property
    def stock_size(self) -> int:
        return 52 - 28 - self.reserve

    def pass_left(self, pass_no: int) -> bool:
        return self.passes == UNLIMITED or pass_no < self.passes

    @property
    def name(self) -> str:
        """The preset name when these rules are a preset, otherwise ``custom``."""
        return PRESET_NAMES.get(self, "custom")

    # --- text and JSON forms --------------------------------------------------------------------
    def to_dict(self) -> dict:
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
    def from_options(cls, options: dict, base: Rules | None = None) -> Rules:
        """Build rules from option values as text or Python values; unknown names are refused."""
        values = {}
        for key, raw in options.items():
            key = str(key).strip().lower().replace("-", "_")
            if key not in OPTION_ORDER:
                raise RulesError(f"unknown option {key!r}; the options are {', '.join(OPTION_ORDER)}")
            values[key] = _option_value(key, raw)
        return replace(base or cls(), **values)

    @classmethod
    def parse(cls, text: str | dict | Rules) -> Rules:
        """A preset name, canonical text, ``preset;key=value`` overrides, JSON, or a dict."""
        if isinstance(text, Rules):
            return text
        if isinstance(text, dict):
            return cls.from_options(text)
        if not isinstance(text, str) or not text.strip():
            raise RulesError("empty rule set: give a preset name or options such as passes=3;draw=1")
        text = text.strip()
        if text.startswith("{"):
            try:
                data = json.loads(text)
            except json.JSONDecodeError as exc:
                raise RulesError(f"rule set JSON is malformed: {exc.msg}") from None
            if not isinstance(data, dict):
                raise RulesError("rule set JSON must be an object of options")
            return cls.from_options(data)
        base = None
        options = {}
        for part in text.replace(",", ";").split(";"):
            part = part.strip()
            if not part:
                continue
            if "=" not in part:
                if base is not None or options:
                    raise RulesError(f"{part!r} is not an option: write key=value, and a preset name only first")
                base = preset(part)
                continue
            key, _, value = part.partition("=")
            options[key] = value
        return cls.from_options(options, base=base)


def _option_value(key: str, raw):
    if key == "covered_pairs":
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in ("yes", "true"):
            return True
        if text in ("no", "false"):
            return False
        raise RulesError(f"covered_pairs must be yes or no; got {raw!r}")
    if key in ("passes", "draw", "reserve"):
        if key == "passes" and str(raw).strip().lower() == "unlimited":
            return UNLIMITED
        if isinstance(raw, bool):
            raise RulesError(f"{key} must be a number; got {raw!r}")
        try:
            value = int(str(raw).strip())
        except ValueError:
            raise RulesError(f"{key} must be a number; got {raw!r}") from None
        if key == "passes" and value < 1:
            raise RulesError(f"passes must be at least 1, or unlimited; got {raw!r}")
        return value
    if not isinstance(raw, str):
        raise RulesError(f"{key} must be a word; got {raw!r}")
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
        raise RulesError(f"unknown preset {name!r}; the presets are {', '.join(PRESETS)}") from None
