"""axe-core (from the npm registry, injected into the page) finds no accessibility violation of moderate or higher
impact on any page, at phone and desktop width, logged in, with a game on the table, in the dark and the light
theme (the system's preference, as `prefers-color-scheme` tells the page); and the header's bell, closed and open."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import menu_link, route_bell, sign_up

AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
PAGES = [
    "#/",
    "#/practice",
    "#/boards/weekly/classic",
    "#/boards/all-time/classic",
    "#/clubs",
    "#/tournaments",
    "#/rules/classic",
    "#/rules/quiz",
    "#/players/reader",
]
IMPACTS = ["moderate", "serious", "critical"]
# axe cannot read a text's contrast over a gradient (it calls it "incomplete", not a pass): the felt's gradient runs
# from --felt-light to --felt-dark, so the page is checked on a flat felt of each end in turn
FLAT_FELT = "body { background: var(--axe-felt) !important; }"
RUN = """async ([felt, rules]) => {
    document.body.style.setProperty('--axe-felt', `var(${felt})`);
    const options = rules ? {runOnly: rules, resultTypes: ['violations']} : {resultTypes: ['violations']};
    return (await axe.run(document, options)).violations.filter(v => IMPACTS.includes(v.impact))
        .map(v => `${v.id} (${v.impact}): ${v.nodes.length} × ${v.nodes[0].target.join(' ')}`);
}""".replace("IMPACTS", str(IMPACTS))


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed: npm ci --prefix tests/web (.ci/services does)")
@pytest.mark.parametrize("width", [360, 1280])
def test_no_accessibility_violation_in_either_theme(browser, site, width):
    context = browser.new_context(viewport={"width": width, "height": 900}, base_url=site)
    page = context.new_page()
    page.set_default_timeout(15_000)
    found = {}
    try:
        sign_up(page, "reader" if width == 360 else "reader2")
        menu_link(page, "Practice").click()
        page.get_by_role("button", name="Deal").click()
        page.locator(".pyramid .card").first.wait_for()
        routes = ["#" + page.url.split("#", 1)[1]] + PAGES  # the table first
        for route in routes:
            page.goto("/" + route)
            page.wait_for_load_state("networkidle")
            page.add_script_tag(path=str(AXE))
            page.add_style_tag(content=FLAT_FELT)
            grounds = {}
            for scheme in ("dark", "light"):
                page.emulate_media(color_scheme=scheme)
                grounds[scheme] = page.evaluate("getComputedStyle(document.body).backgroundColor")
                violations = page.evaluate(RUN, ["--felt-light", None])  # every rule
                violations += page.evaluate(RUN, ["--felt-dark", ["color-contrast"]])
                if violations:
                    found[f"{route} {scheme}"] = violations
            assert grounds["dark"] != grounds["light"], grounds  # the two themes were both on screen
    finally:
        context.close()
    assert found == {}


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed: npm ci --prefix tests/web (.ci/services does)")
@pytest.mark.parametrize("width", [360, 1280])
def test_the_bell_and_its_open_list_have_no_accessibility_violation(browser, site, width):
    """The header's bell with a count on it, then its list open (over stand-in answers of the notifications)."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": width, "height": 900}, base_url=site)
    page = context.new_page()
    page.set_default_timeout(15_000)
    found = {}
    try:
        route_bell(page)
        sign_up(page, f"bell-reader-{width}")
        button = page.locator("#bell-button")
        expect(page.locator(".bell-count")).to_have_text("2")
        page.add_script_tag(path=str(AXE))
        page.add_style_tag(content=FLAT_FELT)
        for state in ("closed", "open"):
            if state == "open":
                button.click()
                expect(page.locator("#bell-list")).to_be_visible()
            for scheme in ("dark", "light"):
                page.emulate_media(color_scheme=scheme)
                violations = page.evaluate(RUN, ["--felt-light", None])
                violations += page.evaluate(RUN, ["--felt-dark", ["color-contrast"]])
                if violations:
                    found[f"{state} {scheme}"] = violations
    finally:
        context.close()
    assert found == {}
