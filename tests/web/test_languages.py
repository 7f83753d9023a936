"""The page in Swedish and German: the switch in the header (remembered by the browser and by the account), a
move played and a hint read in each language, refusals in the player's language, and no English left on the
translated pages (their rendered text checked against the English of the page's catalogue)."""

from __future__ import annotations

import re
from pathlib import Path

import polib
from playwright.sync_api import expect

import engine
from games.models import Game
from pyramid_site.accounts.models import LanguageChoice

from .conftest import CLASSIC, DEAL_NUMBER, DESKTOP, PHONE, screenshot
from .helpers import card, has_class, play_move, wait_for_moves

CATALOGUES = Path(__file__).resolve().parents[2] / "pyramid_site" / "web" / "locale"
PLACEHOLDER = re.compile(r"%\(\w+\)s")
PRESETS = list(engine.PRESETS)
# the page's words that read the same in English and the language (checked against the catalogue too)
HINT_WORDS = {"sv": "Tips: ", "de": "Tipp: "}


def english_of(language: str) -> list[re.Pattern]:
    """Every piece of English text of the page's catalogue whose translation differs, as a whole-word pattern:
    the text between placeholders, where it has three letters or more."""
    patterns = set()
    for entry in polib.pofile(str(CATALOGUES / language / "LC_MESSAGES" / "djangojs.po")):
        sources = [entry.msgid, entry.msgid_plural] if entry.msgid_plural else [entry.msgid]
        translations = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        for source in sources:
            if source in translations:
                continue
            for piece in PLACEHOLDER.split(source):
                piece = piece.strip(" ,.:;()#·")
                if sum(c.isalpha() for c in piece) >= 3 and not any(piece in t for t in translations):
                    patterns.add(re.compile(rf"(?<![\w-]){re.escape(piece)}(?![\w-])"))
    return sorted(patterns, key=lambda p: p.pattern)


def page_words(page) -> str:
    """The page's text as a player meets it: visible text and the labels a screen reader or a tooltip says."""
    text = page.evaluate("""() => [document.body.innerText,
        ...[...document.querySelectorAll('[aria-label], [title], [placeholder]')].flatMap(
            (el) => [el.getAttribute('aria-label'), el.getAttribute('title'), el.getAttribute('placeholder')])
      ].filter(Boolean).join('\\n')""")
    # key caps are printed on the keyboard, not said by the page; presets' and players' names are names
    for name in {*page.evaluate("[...document.querySelectorAll('kbd')].map((el) => el.textContent)"), *PRESETS}:
        text = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", "", text)
    return re.sub(r"guest-[0-9a-z]{8}", "", text)


def english_left(page, patterns) -> list[str]:
    words = page_words(page)
    return sorted({match.group(0) for pattern in patterns for match in pattern.finditer(words)})


def choose_language(page, language: str) -> None:
    with page.expect_navigation():
        page.locator("#language").select_option(language)
    expect(page.locator("html")).to_have_attribute("lang", language)


def start_practice(page, number_label: str, deal_button: str) -> None:
    page.goto("/#/practice")
    form = page.locator("#practice-form")
    form.locator("select[name=rules]").select_option("classic")
    form.get_by_label(number_label).fill(str(DEAL_NUMBER))
    form.get_by_role("button", name=deal_button, exact=True).click()
    expect(page).to_have_url(re.compile(r"#/game/\d+$"))


def test_a_move_and_a_hint_in_swedish_then_in_german(page):
    position = engine.Position.start(engine.deal_from_number(DEAL_NUMBER), CLASSIC)
    page.goto("/#/practice")
    choose_language(page, "sv")
    expect(page.locator("#menu")).to_contain_text("Öva")
    expect(page.locator("h1")).to_have_text("Öva")
    start_practice(page, "Givnummer", "Giv")
    expect(page.locator(".tag")).to_have_text("Öva")
    expect(page.get_by_role("button", name="Tips")).to_be_visible()

    # a move, said in Swedish to a screen reader
    move = next(str(m) for m in position.legal_moves())
    play_move(page, move)
    wait_for_moves(page, 1)
    expect(page.locator("#announce")).to_contain_text("kvar.")
    position.apply(move)

    # a pair that does not make 13, refused by the server in Swedish, ranks as Swedish decks print them
    free = [loc for loc, _ in position.available() if loc < 28]
    wrong = next(
        f"{a}+{b}"
        for i, a in enumerate(free)
        for b in free[i + 1 :]
        if position.why_illegal(engine.parse_move(f"{a}+{b}")) is not None
    )
    play_move(page, wrong)
    expect(page.locator("#message")).to_have_text(re.compile(r" blir \d+, inte 13\.$"))
    expect(page.locator("#message")).not_to_contain_text("Q")

    # and a hint in Swedish
    page.keyboard.press("h")
    expect(page.locator("#message")).to_have_attribute("data-move", re.compile(r"^\S+$"), timeout=30_000)
    expect(page.locator("#message")).to_have_text(re.compile(r"^Tips: .+"))
    swedish_hint = page.locator("#message").inner_text()
    assert any(word in swedish_hint for word in ("Dra:", "Para ihop", "Ta bort", "ställningen", "drag"))
    screenshot(page, "table-sv-desktop.jpg")

    # the guest account remembers the choice too
    game_id = int(page.url.rsplit("/", 1)[1])
    player = Game.objects.get(pk=game_id).player
    assert LanguageChoice.objects.get(user=player).language == "sv"

    # German: the same table, a move and a hint
    choose_language(page, "de")
    expect(page.locator(".tag")).to_have_text("Üben")
    expect(page.locator("#draw")).to_contain_text("Ziehen")
    advised = None
    page.get_by_role("button", name="Tipp").click()
    expect(page.locator("#message")).to_have_attribute("data-move", re.compile(r"^\S+$"), timeout=30_000)
    expect(page.locator("#message")).to_have_text(re.compile(r"^Tipp: .+"))
    german_hint = page.locator("#message").inner_text()
    assert german_hint != swedish_hint
    assert any(word in german_hint for word in ("Ziehen:", "Lege", "Leg ", "Stellung", "Zügen"))
    advised = page.locator("#message").get_attribute("data-move")
    play_move(page, advised)
    wait_for_moves(page, 2)
    expect(page.locator("#announce")).to_contain_text("übrig.")
    assert LanguageChoice.objects.get(user=player).language == "de"
    assert page.evaluate("localStorage.getItem('pyramid.language')") == "de"

    # a new visit in this browser keeps German
    page.goto("/#/")
    page.reload()
    expect(page.locator("h1")).to_have_text("Die Spiele von heute")


def test_the_browsers_language_is_the_default(browser, site):
    context = browser.new_context(viewport=PHONE, base_url=site, locale="sv-SE")
    page = context.new_page()
    page.goto("/#/practice")
    expect(page.locator("html")).to_have_attribute("lang", "sv")
    expect(page.locator("h1")).to_have_text("Öva")
    start_practice(page, "Givnummer", "Giv")
    expect(page.locator(".tag")).to_have_text("Öva")
    # at phone width nothing runs past the screen's edge
    wide = page.evaluate("""() => [...document.querySelectorAll('body *')].filter((el) =>
        el.getBoundingClientRect().right > window.innerWidth + 1)
        .map((el) => el.tagName + '#' + el.id + '.' + el.className + ' '
             + Math.round(el.getBoundingClientRect().right))""")
    assert not wide, wide
    screenshot(page, "table-sv-phone.jpg")
    context.close()


def test_no_english_is_left_on_the_pages_in_swedish_or_german(browser, site, daily_line):
    # the check itself finds English where there is some: the same page in English
    context = browser.new_context(viewport=DESKTOP, base_url=site, locale="en-GB")
    english = context.new_page()
    english.goto("/#/rules/classic")
    expect(english.locator("#view h1")).to_have_text("Rules: classic")
    left = set(english_left(english, english_of("sv")))
    assert {"The goal", "Which card pairs with a free jack?", "Practice"} <= left
    context.close()
    for language, locale in (("sv", "sv-SE"), ("de", "de-DE")):
        patterns = english_of(language)
        context = browser.new_context(viewport=DESKTOP, base_url=site, locale=locale)
        page = context.new_page()
        page.set_default_timeout(15_000)
        found = {}
        routes = ["/#/", "/#/login", "/#/practice", *[f"/#/rules/{name}" for name in PRESETS]]
        for route in routes:
            page.goto(route)
            expect(page.locator("html")).to_have_attribute("lang", language)
            expect(page.locator("#view h1")).to_be_visible()
            if route.startswith("/#/rules/"):
                # every question answered, wrongly and rightly, so that each explanation shows
                for fieldset in page.locator("#quiz fieldset").all():
                    fieldset.locator("input").first.check()
            if route == "/#/":
                expect(page.locator(".daily").first).to_be_visible()
            found[route] = english_left(page, patterns)
        # a table of the daily deal and one of a practice deal, with a hint and a refusal said
        page.goto("/#/")
        page.locator(".play-daily").first.click()
        expect(page).to_have_url(re.compile(r"#/game/\d+$"))
        play_move(page, daily_line[0])
        wait_for_moves(page, 1)
        found["daily table"] = english_left(page, patterns)
        start_practice(page, {"sv": "Givnummer", "de": "Spielnummer"}[language], {"sv": "Giv", "de": "Spiel"}[language])
        card(page, "0").click()  # covered: refused on the page, in the language
        expect(page.locator("#message")).to_have_class(has_class("refusal"))
        found["practice table, refusal"] = english_left(page, patterns)
        page.keyboard.press("h")
        expect(page.locator("#message")).to_have_text(re.compile(rf"^{HINT_WORDS[language]}"), timeout=30_000)
        found["practice table, hint"] = english_left(page, patterns)
        # the game resigned: its result card, and its replay with the solver's analysis
        game_url = page.url.split("#", 1)[1]
        page.once("dialog", lambda dialog: dialog.accept())
        page.locator("#resign").click()
        expect(page.locator(".result-card")).to_be_visible()
        expect(page.locator("#analyse")).to_be_visible(timeout=30_000)
        found["result card"] = english_left(page, patterns)
        page.goto(f"/#{game_url}/replay")
        expect(page.locator(".replay .status-line")).to_be_visible()
        expect(page.locator("#replay-move")).not_to_be_empty()
        found["replay"] = english_left(page, patterns)
        # the pages over the boards and clubs, and the player's own page
        me = page.evaluate("JSON.parse(localStorage.getItem('pyramid.user')).username")
        for route in ("/#/boards", "/#/boards/weekly/classic", "/#/clubs", "/#/tournaments", f"/#/players/{me}"):
            page.goto(route)
            expect(page.locator("#view h1")).to_be_visible()
            expect(page.locator("#view .loading")).to_have_count(0)
            found[route.replace(me, "me")] = english_left(page, patterns)
        context.close()
        assert not {where: words for where, words in found.items() if words}, (language, found)
