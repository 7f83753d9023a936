"""A visitor with no account looks around first: today's board, the week's, a public club, its tournament and
standings, a player's page, all without meeting a log-in wall; acting (joining a tournament or a club) asks for an
account at that place, where a visitor joining a club by its code may go on as a guest."""

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
    page.on(
        "request", lambda request: request.method != "GET" and "/api/" in request.url and writes.append(request.url)
    )
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
    expect(page.locator("#player")).to_contain_text("Zebra Zone")

    # the public clubs (not the hidden one), a club, its tournaments and the final standings of one over
    menu_link(page, "Clubs").click()
    expect(page.locator("#club-list")).to_contain_text("Zebra Zone")
    expect(page.locator("#club-list")).not_to_contain_text("Yak Den")
    page.get_by_role("link", name="Zebra Zone").click()
    expect(page.locator("#club-name")).to_have_text("Zebra Zone")
    expect(page.locator("#tournaments")).to_contain_text("Zebra Trophy")
    page.get_by_role("link", name="Past Trophy").click()
    expect(page.locator("#tournament-name")).to_have_text("Past Trophy")
    expect(page.locator("#standings-kind")).to_have_text("(final)")
    expect(page.locator("#standings .board-table")).to_contain_text("open-member")
    menu_link(page, "Tournaments").click()
    expect(page.locator("#list")).to_contain_text("Zebra Trophy")
    expect(page.locator("#list")).not_to_contain_text("Yak Trophy")

    # a private club's tournament is not there for a visitor
    page.goto(f"/#/tournaments/{world['Yak Trophy'].pk}")
    expect(page.locator(".page-message")).to_contain_text("no tournament")
    expect(page).to_have_url(f"{site}/#/tournaments/{world['Yak Trophy'].pk}")

    # joining asks for an account, there; nothing is sent
    page.goto(f"/#/tournaments/{world['Zebra Trophy'].pk}")
    expect(page.locator("#tournament-name")).to_have_text("Zebra Trophy")
    page.get_by_role("button", name="Join").click()
    ask = page.locator(".ask-account")
    expect(ask).to_contain_text("needs an account and a place in its club")
    expect(page).to_have_url(f"{site}/#/tournaments/{world['Zebra Trophy'].pk}")
    assert writes == []
    ask.get_by_role("link", name="Log in").click()
    expect(page.locator("#login-form")).to_be_visible()

    # joining the club by its code asks too, and a visitor may go on as a guest: then in the club, and in the cup
    menu_link(page, "Clubs").click()
    join = page.locator("#club-join")
    join.get_by_label("Invite code").fill(world["public"].invite_code)
    join.get_by_role("button", name="Join club").click()
    expect(join.locator(".ask-account")).to_contain_text("Joining a club needs an account")
    assert writes == []
    join.get_by_role("button", name="Go on as a guest").click()
    expect(page.locator("#club-name")).to_have_text("Zebra Zone")
    expect(page.locator("#guest-badge")).to_be_visible()
    expect(page.locator("#members")).to_contain_text("guest-")
    page.get_by_role("link", name="Zebra Trophy").click()
    page.get_by_role("button", name="Join").click()
    expect(page.locator("#joined")).to_have_text("You are in.")
    expect(page.locator("#standings")).to_contain_text("guest-")
    context.close()
