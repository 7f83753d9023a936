"""At 360 px, in English, Swedish and German, no page of the visitor's round scrolls sideways: home, the boards,
a player's page (their own too), the clubs, a club, the tournaments, a tournament's standings and the fair page. A
table wider than the screen scrolls in a box of its own, which says so; every page has its h1; no English is left
in Swedish or German; and (in English) axe finds nothing of moderate impact or worse."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from .test_languages import english_left, english_of
from .visitor_world import visitor_world

AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"

NARROW = {"width": 360, "height": 740}


@pytest.mark.parametrize("language", ["en", "sv", "de"])
def test_no_visitor_page_scrolls_sideways_at_360_px(browser, site, db, language):
    world = visitor_world()
    context = browser.new_context(viewport=NARROW, base_url=site, has_touch=True, is_mobile=True)
    context.add_init_script(f"localStorage.setItem('pyramid.language', '{language}')")
    page = context.new_page()
    page.set_default_timeout(15_000)
    today = world["daily"].date.isoformat()
    pages = [
        "/#/",
        f"/#/boards/daily/{today}/one-look",
        "/#/boards/weekly/one-look",
        "/#/boards/all-time/one-look",
        "/#/players/open-member",
        "/#/clubs",
        f"/#/clubs/{world['public'].pk}",
        "/#/tournaments",
        f"/#/tournaments/{world['Past Trophy'].pk}",
    ]
    overflowing = 0
    english = english_of(language) if language != "en" else []
    for address in [*pages, "log in", "/#/players/open-member", "/#/", "/#/fair"]:
        if address == "log in":  # and the player's own page, with their games, and their home
            page.goto("/#/login")
            form = page.locator("#login-form")
            form.locator("input[name=username]").fill("open-member")
            form.locator("input[name=password]").fill("a-long-pass-phrase")
            form.locator("button[type=submit]").click()
            expect(page.locator("#me")).to_have_text("open-member")
            continue
        page.goto(address)
        expect(page.locator("#view h1")).to_have_count(1)
        expect(page.locator("#view .loading")).to_have_count(0)
        if address.startswith("/#/tournaments/"):
            expect(page.locator("#standings .board-table")).to_have_count(1)
        if address == "/#/players/open-member" and page.locator("#me").count():
            expect(page.locator("#my-games-table")).to_be_visible()
        if english:  # and all of it in the page's language
            assert english_left(page, english) == [], address
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"{address} in {language}: {width} px wide"
        # each table box that overflows says it scrolls, and takes the keyboard's focus; the others say nothing
        boxes = page.evaluate("""[...document.querySelectorAll('.table-scroll')].map((box) => ({
            over: box.scrollWidth > box.clientWidth + 1, cue: !box.previousElementSibling.hidden,
            focusable: box.tabIndex === 0}))""")
        assert all(box["over"] == box["cue"] == box["focusable"] for box in boxes), (address, boxes)
        overflowing += sum(box["over"] for box in boxes)
        if language == "en" and AXE.exists():  # and a visitor's pages pass axe (moderate and worse), in one language
            page.add_script_tag(path=str(AXE))
            violations = page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']}))
                .violations.filter(v => ['moderate', 'serious', 'critical'].includes(v.impact))
                .map(v => `${v.id}: ${v.nodes.length} × ${v.nodes[0].target.join(' ')}`)""")
            assert violations == [], address
    assert overflowing  # the daily board's six columns do not fit 360 px: its cue showed
    context.close()
