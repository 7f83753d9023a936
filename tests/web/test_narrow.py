"""Phones: at 360 and 390 px no page scrolls sideways, the header is one line with a Menu button that opens the
pages' menu, and focus goes to the new page's heading after a page change."""

from __future__ import annotations

import pytest

PAGES = [
    "#/",
    "#/practice",
    "#/boards/weekly/classic",
    "#/boards/all-time/classic",
    "#/clubs",
    "#/tournaments",
    "#/rules",
]


@pytest.mark.parametrize("width", [360, 390])
def test_no_page_scrolls_sideways_on_a_phone(browser, site, width):
    context = browser.new_context(viewport={"width": width, "height": 800}, base_url=site)
    page = context.new_page()
    try:
        page.goto("/")
        answer = page.evaluate("""async () => {
            const r = await fetch('/api/accounts/signup/', {
                method: 'POST', headers: {'Content-Type': 'application/json'},
                body: JSON.stringify({username: 'narrow' + innerWidth, password: 'a-long-pass-phrase'})});
            return [r.status, await r.json()];
        }""")
        assert answer[0] == 201, answer
        page.evaluate(
            """([user]) => {
            localStorage.setItem('pyramid.token', user.token);
            const {token, ...rest} = user; localStorage.setItem('pyramid.user', JSON.stringify(rest));
        }""",
            [answer[1]],
        )
        for route in PAGES:
            page.goto("/" + route)
            page.wait_for_load_state("networkidle")
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= width, f"{route} is {wide} px wide at {width} px"
            header = page.locator("header.bar").bounding_box()
            assert header["height"] <= 56, f"{route}: the header is {header['height']} px high"
            assert not page.locator("#menu").is_visible()
    finally:
        context.close()


def test_the_menu_button_opens_the_pages_and_focus_goes_to_the_new_pages_heading(browser, site):
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 360, "height": 800}, base_url=site)
    page = context.new_page()
    try:
        page.goto("/#/rules")
        button = page.get_by_role("button", name="Menu")
        expect(button).to_have_attribute("aria-expanded", "false")
        button.click()
        expect(button).to_have_attribute("aria-expanded", "true")
        links = page.locator("#menu a")
        expect(links).to_have_count(6)
        for link in links.all():
            box = link.bounding_box()
            assert box["height"] >= 40 and box["width"] >= 100, box  # a tap target, one page a line
        page.get_by_role("link", name="Practice").click()
        expect(page.locator("h1")).to_have_text("Practice")
        expect(button).to_have_attribute("aria-expanded", "false")
        expect(page.locator("#menu")).to_be_hidden()
        expect(page.locator("h1")).to_be_focused()
    finally:
        context.close()
