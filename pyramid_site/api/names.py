"""Names people read (usernames, club and tournament names): one spelling per look.

A name is NFKC-normalised (so fullwidth ``ＡＬＩＣＥ`` is ``ALICE``), refused if it holds a control or
format character (BEL, ESC, line breaks, right-to-left overrides, zero-width spaces), and its runs of
white space are collapsed to one space and trimmed. Where a name is unique it is unique whatever its
case (the callers compare ``casefold`` keys, and the database holds a case-insensitive constraint)."""

from __future__ import annotations

import re
import unicodedata

from django.utils.translation import gettext, gettext_lazy

from .errors import Invalid

_SPACES = re.compile(r"\s+")
_REFUSED_CATEGORIES = {"Cc": gettext_lazy("a control character"), "Cf": gettext_lazy("an invisible formatting character"),
                       "Co": gettext_lazy("a private-use character"), "Cs": gettext_lazy("a lone surrogate"),
                       "Cn": gettext_lazy("an unassigned character")}


def clean_name(value: str, *, what: str, code: str, max_length: int) -> str:
    """``value`` as it is kept, or a 400 with ``code`` that says what was wrong with it; ``what`` names the
    thing in the request's language (``gettext("a club name")``)."""
    name = unicodedata.normalize("NFKC", value)
    for char in name:
        category = unicodedata.category(char)
        if category in _REFUSED_CATEGORIES:
            raise Invalid(gettext("%(what)s may not contain %(character)s (U+%(code_point)04X)")
                          % {"what": what, "character": _REFUSED_CATEGORIES[category], "code_point": ord(char)},
                          code=code)
    name = _SPACES.sub(" ", name).strip()
    if not name:
        raise Invalid(gettext("%(what)s is empty") % {"what": what}, code=code)
    if len(name) > max_length:
        raise Invalid(gettext("%(what)s is longer than %(max_length)s characters") % {"what": what,
                      "max_length": max_length}, code=code)
    return name
