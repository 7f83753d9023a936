"""axe-core (from the npm registry, injected into the page) finds no serious or critical accessibility
violation on any page, at phone and desktop width, logged in, with a game on the table."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import menu_link, sign_up

AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
PAGES = ["#/", "#/practice", "#/boards/weekly/classic", "#/boards/all-time/classic", "#/clubs", "#/tournaments",
         "#/rules/classic", "#/rules/quiz", "#/players/reader"]


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed: npm ci --prefix tests/web (.ci/services does)")
@pytest.mark.parametrize("width", [360, 1280])
def test_no_serious_accessibility_violation(browser, site, width):
    context = browser.new_context(viewport={"width": width, "height": 900}, base_url=site)
    page = context.new_page()
    page.set_default_timeout(15_000)
    found = {}
    try:
        sign_up(page, "reader" if width == 360 else "reader2")
        menu_link(page, "Practice").click()
        page.get_by_role("button", name="Deal").click()
        page.locator(".pyramid .card").first.wait_for()
        routes = [page.url.split("/", 3)[3]] + PAGES  # the table first
        for route in routes:
            page.goto("/" + route.lstrip("/"))
            page.wait_for_load_state("networkidle")
            page.add_script_tag(path=str(AXE))
            violations = page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']}))
                .violations.filter(v => ['serious', 'critical'].includes(v.impact))
                .map(v => `${v.id}: ${v.nodes.length} × ${v.nodes[0].target.join(' ')}`)""")
            if violations:
                found[route] = violations
    finally:
        context.close()
    assert found == {}
