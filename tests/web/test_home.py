"""Home invites play: a visitor sees today's deal and a big Play button, no log-in forms; a player reads their
day in plain words; "Continue your last game" shows only while that game is still being played."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .conftest import DESKTOP

RESIGN = """(id) => fetch(`/api/games/${id}/resign/`, {method: 'POST', headers: {
    Authorization: `Token ${localStorage.getItem('pyramid.token')}`, Accept: 'application/json'}})
    .then((r) => r.status)"""


def test_home_leads_with_the_deal_and_continues_only_a_game_still_playing(browser, site, daily_line):
    context = browser.new_context(viewport=DESKTOP, base_url=site)
    page = context.new_page()
    page.set_default_timeout(15_000)

    # a visitor: today's deal with its Play button, an invitation, no forms, no day of theirs
    page.goto("/#/")
    expect(page.locator(".play-daily.big")).to_have_text("Play today's deal")
    expect(page.locator("#visitor-note")).to_be_visible()
    expect(page.locator("#login-form")).to_have_count(0)
    expect(page.locator("#my-day")).to_be_hidden()
    expect(page.locator("#continue-game")).to_have_count(0)

    # a practice game under way (the visitor is a guest now): home offers to continue it
    page.goto("/#/practice")
    page.get_by_role("button", name="Deal").click()
    expect(page).to_have_url(re.compile(r"#/game/\d+$"))
    practice = int(page.url.rsplit("/", 1)[1])
    expect(page.locator(".pyramid .card")).to_have_count(28)
    page.goto("/#/")
    expect(page.locator("#my-day")).to_have_text("You have not played today's deal yet.")
    expect(page.locator("#continue-game")).to_have_attribute("href", f"#/game/{practice}")
    expect(page.locator("#visitor-note")).to_have_count(0)

    # once that game is over, "Continue" is gone, and so is the browser's note of it
    assert page.evaluate(RESIGN, practice) == 200
    page.reload()
    expect(page.locator("#my-day")).to_be_visible()
    expect(page.locator("#continue-game")).to_have_count(0)
    assert page.evaluate("localStorage.getItem('pyramid.lastGame')") is None

    # today's deal started: the day says so, and the deal's own button continues it (no second "Continue")
    page.locator(".play-daily").click()
    expect(page).to_have_url(re.compile(r"#/game/\d+$"))
    expect(page.locator(".pyramid .card")).to_have_count(28)
    page.goto("/#/")
    expect(page.locator("#my-day")).to_have_text("You have a game of today's deal under way: go on with it.")
    expect(page.locator(".dailies").get_by_role("link", name="Continue")).to_be_visible()
    expect(page.locator("#continue-game")).to_have_count(0)
    context.close()
