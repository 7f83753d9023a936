"""A slow page never leaks into the next one: a page whose answer comes after the player has moved on draws
nothing, and binds no key, on the page now shown."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from pyramid_site.clock import utc_today

from .conftest import DESKTOP
from .helpers import menu_link


def held(page, pattern: re.Pattern) -> list:
    """Requests to `pattern` are held (their routes kept, unanswered) until the test lets them go."""
    routes = []
    page.route(pattern, lambda route: routes.append(route))
    return routes


def wait_held(page, routes: list, count: int = 1) -> None:
    """Wait until `count` requests are held: the page may show its loading line before its request reaches the
    route, which this process hears of only while it waits on the page."""
    for _ in range(250):
        if len(routes) >= count:
            return
        page.wait_for_timeout(20)
    raise AssertionError(f"{len(routes)} requests held, not {count}")


def let_go(page, routes: list) -> None:
    """Answer the held requests, and wait until the page has had them, or had given up on them (a closed page
    aborts its requests: they fail at once)."""
    for route in routes:
        request = route.request
        ended = []
        for event in ("requestfinished", "requestfailed"):
            page.on(event, lambda r, request=request, ended=ended: r == request and ended.append(r))
        try:
            route.continue_()
        except Exception:  # noqa: BLE001 - the page had aborted it already
            continue
        if not ended and request.failure is None:
            page.wait_for_event("requestfinished", predicate=lambda r, request=request: r == request, timeout=5_000)
    # one more turn of the page's event loop after the answers' own continuations
    page.evaluate("new Promise((resolve) => setTimeout(resolve, 0))")


def test_a_slow_game_or_board_draws_nothing_on_the_page_shown_after_it(browser, site, daily_line):
    context = browser.new_context(viewport=DESKTOP, base_url=site)
    page = context.new_page()
    page.set_default_timeout(15_000)
    moves = []
    page.on("request", lambda request: "/moves/" in request.url and moves.append(request.url))

    # a slow board, then Today: no board on Today
    board = re.compile(r"/api/boards/daily/")
    routes = held(page, board)
    page.goto(f"/#/boards/daily/{utc_today().isoformat()}/classic")
    expect(page.locator("#board.loading")).to_be_visible()
    wait_held(page, routes)
    menu_link(page, "Today").click()
    expect(page.locator("h1")).to_have_text("Today's deals")
    let_go(page, routes)
    expect(page.locator("h1")).to_have_text("Today's deals")
    expect(page.locator(".board-table")).to_have_count(0)
    expect(page.locator("#board")).to_have_count(0)
    expect(page.locator(".play-daily")).to_be_visible()
    page.unroute(board)

    # a practice game of the visitor's (a guest's)
    page.goto("/#/practice")
    page.get_by_role("button", name="Deal").click()
    expect(page).to_have_url(re.compile(r"#/game/\d+$"))
    game_id = int(page.url.rsplit("/", 1)[1])
    expect(page.locator(".pyramid .card")).to_have_count(28)
    page.goto("/#/rules/classic")
    expect(page.locator("h1")).to_have_text("Rules: classic")

    # the game's GET is slow: the player goes to Rules before it answers
    game = re.compile(rf"/api/games/{game_id}/$")
    routes = held(page, game)
    page.goto(f"/#/game/{game_id}")
    expect(page.locator(".loading")).to_be_visible()
    wait_held(page, routes)
    assert len(routes) == 1
    menu_link(page, "Rules").click()
    expect(page.locator("h1")).to_have_text("Rules: classic")
    let_go(page, routes)
    expect(page.locator("h1")).to_have_text("Rules: classic")
    expect(page.locator(".pyramid")).to_have_count(0)
    expect(page.locator("#quiz fieldset")).to_have_count(6)
    page.unroute(game)

    # on the Boards page, D is nobody's draw (the closed table bound no key)
    menu_link(page, "Boards").click()
    expect(page.locator("h1")).to_have_text("Boards")
    page.keyboard.press("d")
    page.evaluate("fetch('/api/daily/').then((answer) => answer.text())")  # a round trip after the key
    assert moves == []
    context.close()
