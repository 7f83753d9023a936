"""Names people read (usernames, club and tournament names): one spelling per look.

A name is NFKC-normalised (so fullwidth ``ＡＬＩＣＥ`` is ``ALICE``), refused if it holds a control or
format character (BEL, ESC, line breaks, right-to-left overrides, zero-width spaces), a character that shows
as nothing (the Hangul fillers U+115F and U+3164, the Braille blank U+2800, variation selectors), or more
combining marks on one letter than any language writes, and its runs of white space are collapsed to one
space and trimmed.

Where a name is unique it is unique by its **canonical key** (:func:`canonical_name`), the one rule the
database's unique columns, sign-up, the log-in throttle and the club names all use: NFKC, case folded, without
invisible characters, and reduced to its confusable skeleton per Unicode TR 39 (Cyrillic ``а`` is Latin ``a``,
``0`` is ``o``, ``straße`` is ``strasse``), from the confusables data the ``confusable-homoglyphs`` package
ships."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from django.utils.translation import gettext, gettext_lazy

from pyramid_site.errors import Code, DomainError

_SPACES = re.compile(r"\s+")
_REFUSED_CATEGORIES = {
    "Cc": gettext_lazy("a control character"),
    "Cf": gettext_lazy("an invisible formatting character"),
    "Co": gettext_lazy("a private-use character"),
    "Cs": gettext_lazy("a lone surrogate"),
    "Cn": gettext_lazy("an unassigned character"),
}
# Characters that are letters or symbols to Unicode but show as nothing: the default-ignorable code points that
# are not format characters (Hangul fillers, the combining grapheme joiner, Mongolian and other variation
# selectors), and the blanks NFKC keeps (the Braille pattern blank)
_INVISIBLE = frozenset(
    [
        0x034F,
        0x115F,
        0x1160,
        0x17B4,
        0x17B5,
        0x180B,
        0x180C,
        0x180D,
        0x180E,
        0x180F,
        0x2800,
        0x3164,
        0xFFA0,
        *range(0xFE00, 0xFE10),
        *range(0xE0100, 0xE01F0),
    ]
)
# Combining marks on one letter (counted decomposed: Vietnamese ệ is e and two marks); no script needs more
MAX_MARKS_PER_LETTER = 3
_MARKS = {"Mn", "Me", "Mc"}


def is_invisible(char: str) -> bool:
    return ord(char) in _INVISIBLE or unicodedata.category(char) in ("Cf", "Cc")


def clean_name(value: str, *, what: str, code: Code, max_length: int) -> str:
    """``value`` as it is kept, or a 400 with ``code`` that says what was wrong with it; ``what`` names the
    thing in the request's language (``gettext("a club name")``)."""
    name = unicodedata.normalize("NFKC", value)
    for char in name:
        category = unicodedata.category(char)
        if category in _REFUSED_CATEGORIES or ord(char) in _INVISIBLE:
            character = _REFUSED_CATEGORIES.get(category) or gettext("an invisible character")
            raise DomainError(
                code,
                gettext("%(what)s may not contain %(character)s (U+%(code_point)04X)")
                % {"what": what, "character": character, "code_point": ord(char)},
            )
    _check_marks(name, what=what, code=code)
    name = _SPACES.sub(" ", name).strip()
    if not name:
        raise DomainError(code, gettext("%(what)s is empty") % {"what": what})
    if len(name) > max_length:
        raise DomainError(
            code,
            gettext("%(what)s is longer than %(max_length)s characters") % {"what": what, "max_length": max_length},
        )
    return name


def _check_marks(name: str, *, what: str, code: Code) -> None:
    """Refuses stacked combining marks: more than :data:`MAX_MARKS_PER_LETTER` on one letter, or one mark twice."""
    marks: list[str] = []
    for char in unicodedata.normalize("NFD", name):
        if unicodedata.category(char) not in _MARKS:
            marks = []
            continue
        if len(marks) >= MAX_MARKS_PER_LETTER or char in marks:
            raise DomainError(
                code,
                gettext("%(what)s may not stack more than %(count)s different combining marks on one letter")
                % {"what": what, "count": MAX_MARKS_PER_LETTER},
            )
        marks.append(char)


@lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """TR 39's mapping from a confusable character to its prototype (``а`` to ``a``, ``m`` to ``rn``), read from
    the package's data. That data lists, for each prototype, its look-alikes, and for each look-alike its one
    prototype; some of its strings carry left-to-right marks around right-to-left letters, which are dropped."""
    from confusable_homoglyphs.utils import load

    def bare(text: str) -> str:
        return text.replace("\u200e", "").replace("\u200f", "")

    mapping: dict[str, str] = {}
    for key, entries in load("confusables.json").items():
        source = bare(key)
        if len(source) != 1 or len(entries) != 1:
            continue
        prototype = bare(entries[0]["c"])
        if prototype and prototype != source:
            mapping[source] = prototype
    # two characters that name only each other: one of them (the lower code point) stands for both
    for source, prototype in list(mapping.items()):
        if mapping.get(prototype) == source and ord(source) < ord(prototype):
            del mapping[source]
    return mapping


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def skeleton(text: str) -> str:
    """TR 39's skeleton: decomposed, each character replaced by its prototype, decomposed again."""
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(char, char) for char in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def canonical_name(value: str) -> str:
    """The key two names share when people would take one for the other: NFKC and case folded, invisible
    characters dropped, spaces collapsed, reduced to its confusable skeleton and folded again. Defined for any
    text (names from before these rules included), so it never refuses: :func:`clean_name` does that."""
    text = "".join(char for char in _fold(value) if not is_invisible(char))
    text = _SPACES.sub(" ", text).strip()
    return _fold(skeleton(text))
