"""A visitor with no account looks around first: today's board, the week's, a public club, its tournament and
standings, a player's page, all without meeting a log-in wall; acting (joining a tournament) asks for an account
at that place, and after logging in the visitor is back where they were."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import DESKTOP
from .helpers import menu_link
from .visitor_world import visitor_world


def test_a_visitor_reads_boards_clubs_and_tournaments_and_logs_in_only_to_join(browser, site, db):
    world = visitor_world()
    context = browser.new_context(viewport=DESKTOP, base_url=site)
    page = context.new_page()
    page.set_default_timeout(15_000)
    writes = []
    page.on("request", lambda request: request.method != "GET" and "/api/" in request.url and writes.append(request.url))
    today = world["daily"].date.isoformat()

    # home: today's deal first, no log-in forms; how the deals are kept fair is a page of its own
    page.goto("/#/")
    expect(page.locator(".play-daily")).to_be_visible()
    expect(page.locator("#login-form")).to_have_count(0)
    expect(page.locator(".home code")).to_have_count(0)  # no hex on the home page
    page.locator("#fair-link").click()
    expect(page.locator("h1")).to_have_text("How we keep it fair")
    expect(page.locator("#coming code").first).to_have_text(world["daily"].commitment)

    # the day's board and the week's, as a visitor
    page.goto(f"/#/boards/daily/{today}/one-look")
    board = page.locator("#board .board-table")
    expect(board).to_contain_text("open-owner")
    expect(board).to_contain_text("open-member")
    expect(page.locator("#my-rank")).to_have_count(0)
    page.get_by_role("link", name="This week").click()
    expect(page.locator("#board .board-table")).to_contain_text("open-owner")
    page.locator("#board").get_by_role("link", name="open-member").click()
    expect(page.locator("h1")).to_have_text("open-member")
    expect(page.locator("#player-streak")).to_have_text("1")
    expect(page.locator("#player")).to_contain_text("Open Club")

    # the public clubs (not the hidden one), a club, its tournaments and the final standings of one over
    menu_link(page, "Clubs").click()
    expect(page.locator("#club-list")).to_contain_text("Open Club")
    expect(page.locator("#club-list")).not_to_contain_text("Hidden Club")
    page.get_by_role("link", name="Open Club").click()
    expect(page.locator("#club-name")).to_have_text("Open Club")
    expect(page.locator("#tournaments")).to_contain_text("Open Cup")
    page.get_by_role("link", name="Past Cup").click()
    expect(page.locator("#tournament-name")).to_have_text("Past Cup")
    expect(page.locator("#standings-kind")).to_have_text("(final)")
    expect(page.locator("#standings .board-table")).to_contain_text("open-member")
    menu_link(page, "Tournaments").click()
    expect(page.locator("#list")).to_contain_text("Open Cup")
    expect(page.locator("#list")).not_to_contain_text("Hidden Cup")

    # a private club's tournament is not there for a visitor
    page.goto(f"/#/tournaments/{world['Hidden Cup'].pk}")
    expect(page.locator(".page-message")).to_contain_text("no tournament")
    expect(page).to_have_url(f"{site}/#/tournaments/{world['Hidden Cup'].pk}")

    # joining asks for an account, there; nothing is sent
    page.goto(f"/#/tournaments/{world['Open Cup'].pk}")
    expect(page.locator("#tournament-name")).to_have_text("Open Cup")
    page.get_by_role("button", name="Join").click()
    ask = page.locator(".ask-account")
    expect(ask).to_contain_text("needs an account")
    expect(page).to_have_url(f"{site}/#/tournaments/{world['Open Cup'].pk}")
    assert writes == []
    ask.get_by_role("link", name="Sign up").click()
    form = page.locator("#signup-form")
    form.get_by_label("Username").fill("came-to-look")
    form.get_by_label("Password").fill("a-long-pass-phrase")
    form.get_by_role("button", name="Create account").click()
    # back at the tournament, signed in: joining needs the club (a member joins), and says so
    expect(page).to_have_url(f"{site}/#/tournaments/{world['Open Cup'].pk}")
    expect(page.locator("#me")).to_have_text("came-to-look")
    page.get_by_role("button", name="Join").click()
    expect(page.locator(".page-message")).not_to_be_empty()
    context.close()
