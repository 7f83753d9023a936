"""The translation catalogues: every message of the code has a Swedish and a German translation (none missing,
none fuzzy, the same placeholders), and every compiled catalogue (.mo, what the service reads) says what its
.po says. tools/messages writes both (docs/api.md, "Languages")."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ["sv", "de"]
# every folder with a catalogue of its own: the apps, and pyramid_site/locale for the shared plumbing
CATALOGUE_HOMES = [
    "games",
    "leaderboards",
    "pyramid_site",
    "pyramid_site/accounts",
    "pyramid_site/operations",
    "pyramid_site/web",
]
PO_FILES = sorted(path for home in CATALOGUE_HOMES for path in (ROOT / home / "locale").glob("*/LC_MESSAGES/*.po"))
PLACEHOLDER = re.compile(r"%\(\w+\)[-#0 +]*\d*[sdifxX]|%%|%[sd]")


def test_every_catalogue_home_has_swedish_and_german():
    found = {str(path.relative_to(ROOT)) for path in PO_FILES}
    for home in CATALOGUE_HOMES:
        for language in LANGUAGES:
            assert f"{home}/locale/{language}/LC_MESSAGES/django.po" in found
    for language in LANGUAGES:
        assert f"pyramid_site/web/locale/{language}/LC_MESSAGES/djangojs.po" in found
    assert not [path for path in PO_FILES if path.parts[-3] not in LANGUAGES]


def _entries(path: Path) -> list[polib.POEntry]:
    return [entry for entry in polib.pofile(str(path)) if not entry.obsolete]


@pytest.mark.parametrize("path", PO_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_message_is_translated_and_none_is_fuzzy(path):
    entries = _entries(path)
    assert entries, "an empty catalogue: tools/messages gathers the messages"
    untranslated = [entry.msgid for entry in entries if not entry.translated()]
    fuzzy = [entry.msgid for entry in entries if "fuzzy" in entry.flags]
    assert not untranslated, f"{len(untranslated)} untranslated, e.g. {untranslated[:5]}"
    assert not fuzzy, (
        f"{len(fuzzy)} fuzzy (the English changed: check the translation and drop the flag), e.g. {fuzzy[:5]}"
    )


@pytest.mark.parametrize("path", PO_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_translations_keep_the_placeholders(path):
    for entry in _entries(path):
        wanted = sorted(set(PLACEHOLDER.findall(entry.msgid)))
        translations = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
        for text in translations:
            assert sorted(set(PLACEHOLDER.findall(text))) == wanted, (entry.msgid, text)


@pytest.mark.parametrize("path", PO_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_compiled_catalogue_is_up_to_date(path):
    """The .mo says what the .po says: compare the messages, not the bytes (msgfmt versions order them alike
    but may differ in the header)."""
    compiled = path.with_suffix(".mo")
    assert compiled.exists(), f"{compiled} is missing: run tools/messages compile"
    with compiled.open("rb") as handle:
        read = gettext.GNUTranslations(handle)._catalog  # what Django itself reads (a GNUTranslations subclass)
    expected = {}
    for entry in _entries(path):
        key = f"{entry.msgctxt}\x04{entry.msgid}" if entry.msgctxt else entry.msgid
        if entry.msgid_plural:
            for index, text in entry.msgstr_plural.items():
                expected[(key, int(index))] = text
        else:
            expected[key] = entry.msgstr
    read = {key: value for key, value in read.items() if key != ""}  # the header
    assert read == expected, f"{compiled} is out of date with its .po: run tools/messages compile"
