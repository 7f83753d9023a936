"""Phones: at 360 and 390 px no page scrolls sideways, and the menu is one line."""

from __future__ import annotations

import pytest

PAGES = ["#/", "#/practice", "#/boards/weekly/classic", "#/boards/all-time/classic", "#/clubs", "#/tournaments",
         "#/rules"]


@pytest.mark.parametrize("width", [360, 390])
def test_no_page_scrolls_sideways_on_a_phone(browser, site, width):
    context = browser.new_context(viewport={"width": width, "height": 800}, base_url=site)
    page = context.new_page()
    try:
        page.goto("/")
        answer = page.evaluate("""async () => {
            const r = await fetch('/api/accounts/signup/', {method: 'POST', headers: {'Content-Type': 'application/json'},
                                  body: JSON.stringify({username: 'narrow' + innerWidth, password: 'a-long-pass-phrase'})});
            return [r.status, await r.json()];
        }""")
        assert answer[0] == 201, answer
        page.evaluate("""([user]) => {
            localStorage.setItem('pyramid.token', user.token);
            const {token, ...rest} = user; localStorage.setItem('pyramid.user', JSON.stringify(rest));
        }""", [answer[1]])
        for route in PAGES:
            page.goto("/" + route)
            page.wait_for_load_state("networkidle")
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= width, f"{route} is {wide} px wide at {width} px"
            menu = page.locator("#menu").bounding_box()
            assert menu["height"] < 60, f"{route}: the menu is {menu['height']} px high"
    finally:
        context.close()
