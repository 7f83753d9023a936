"""Names people read (usernames, club and tournament names): one spelling per look.

A name is NFKC-normalised (so fullwidth ``ＡＬＩＣＥ`` is ``ALICE``), refused if it holds a control or
format character (BEL, ESC, line breaks, right-to-left overrides, zero-width spaces), and its runs of
white space are collapsed to one space and trimmed. Where a name is unique it is unique whatever its
case (the callers compare ``casefold`` keys, and the database holds a case-insensitive constraint)."""

from __future__ import annotations

import re
import unicodedata

from .errors import Invalid

_SPACES = re.compile(r"\s+")
_REFUSED_CATEGORIES = {"Cc": "a control character", "Cf": "an invisible formatting character",
                       "Co": "a private-use character", "Cs": "a lone surrogate", "Cn": "an unassigned character"}


def clean_name(value: str, *, what: str, code: str, max_length: int) -> str:
    """``value`` as it is kept, or a 400 with ``code`` that says what was wrong with it."""
    name = unicodedata.normalize("NFKC", value)
    for char in name:
        category = unicodedata.category(char)
        if category in _REFUSED_CATEGORIES:
            raise Invalid(f"{what} may not contain {_REFUSED_CATEGORIES[category]} "
                          f"(U+{ord(char):04X})", code=code)
    name = _SPACES.sub(" ", name).strip()
    if not name:
        raise Invalid(f"{what} is empty", code=code)
    if len(name) > max_length:
        raise Invalid(f"{what} is longer than {max_length} characters", code=code)
    return name
