"""Finding winning lines for test deals, playing moves by clicking the table, and stand-in answers of the
bell's endpoints."""

from __future__ import annotations

import json
import re
import sys

from playwright.sync_api import Page, expect

import engine


def find_winning_line(position: engine.Position, *, max_positions: int = 200_000) -> list[str] | None:
    """A winning line of ``position``, found by depth-first search, removals before draws; not the
    shortest one (unlike the solver's). Not the ``winning_line`` fixture of tests/conftest.py."""
    seen: set = set()
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))

    def search(pos: engine.Position) -> list[str] | None:
        if pos.status == engine.WON:
            return []
        if pos.status != engine.PLAYING or len(seen) > max_positions or pos.key() in seen:
            return None
        seen.add(pos.key())
        for move in sorted(pos.legal_moves(), key=lambda m: str(m) in ("draw", "redeal")):
            rest = search(pos.play(move))
            if rest is not None:
                return [str(move), *rest]
        return None

    try:
        return search(position)
    finally:
        sys.setrecursionlimit(limit)


def card(page: Page, location: str):
    return page.locator(f'.board [data-loc="{location}"]')


def play_move(page: Page, move: str, *, use_key: bool = False, drag: bool = False) -> None:
    """Play one move the way a player does: the stock for draws, one click for a king, two for a pair."""
    if move in ("draw", "redeal"):
        if use_key:
            page.keyboard.press("d")
        else:
            card(page, "stock").click()
    elif "+" in move:
        first, second = move.split("+")
        if drag:
            card(page, first).drag_to(card(page, second))
        else:
            card(page, first).click()
            expect(card(page, first)).to_have_class(has_class("selected"))
            card(page, second).click()
    else:
        card(page, move).click()


def has_class(name: str) -> re.Pattern:
    return re.compile(rf"(^|\s){name}(\s|$)")


def walk_focus_to(page: Page, location: str, *, presses: int = 10) -> None:
    """Move the keyboard focus to a card with the arrow keys alone: up or down to its row, then along it."""
    target = card(page, location).bounding_box()
    for _ in range(presses):
        if page.evaluate("document.activeElement.dataset.loc") == location:
            return
        here = page.evaluate("(({x, y}) => ({x, y}))(document.activeElement.getBoundingClientRect())")
        if abs(target["y"] - here["y"]) > 4:
            page.keyboard.press("ArrowDown" if target["y"] > here["y"] else "ArrowUp")
        else:
            page.keyboard.press("ArrowRight" if target["x"] > here["x"] else "ArrowLeft")


def wait_for_moves(page: Page, count: int) -> None:
    expect(page.locator("#moves")).to_have_text(str(count))


def sign_up(page: Page, username: str, password: str = "a-long-pass-phrase") -> None:
    page.goto("/#/login")
    form = page.locator("#signup-form")
    form.get_by_label("Username").fill(username)
    form.get_by_label("Password").fill(password)
    form.get_by_role("button", name="Create account").click()
    expect(page.locator("#me")).to_have_text(username)


def menu_link(page, name: str):
    """A page of the header's menu, opened first where a phone's header keeps it behind its Menu button."""
    button = page.locator("#menu-button")
    if button.is_visible() and button.get_attribute("aria-expanded") == "false":
        button.click()
    return page.locator("#menu").get_by_role("link", name=name, exact=True)


# The header's bell reads my notifications and follows their stream: stand-in answers for the tests
NOTICES = [
    {
        "type": "tournament_soon",
        "tournament": 41,
        "name": "Friday arena",
        "club": 7,
        "club_name": "Tuesday Pyramids",
        "format": "arena",
        "starts_at": "2030-01-01T18:00:00Z",
        "ends_at": "2030-01-01T20:00:00Z",
        "server_time": "2030-01-01T17:45:00Z",
    }
]
STARTED = {
    "type": "tournament_started",
    "version": 1,
    "tournament": 42,
    "name": "Lunch match",
    "club": 7,
    "club_name": "Tuesday Pyramids",
    "format": "match",
    "starts_at": "2030-01-01T12:00:00Z",
    "ends_at": "2030-01-01T13:00:00Z",
    "server_time": "2030-01-01T12:00:00Z",
}


def route_bell(page, notices=NOTICES, events=(STARTED,)) -> None:
    """Stand-in answers of the notifications and their stream (built by another change of the API)."""
    page.route("**/api/accounts/me/notifications/", lambda route: route.fulfill(json=notices))
    body = "retry: 600000\n\nid: 1-0\n\n" + "".join(
        f"id: 1-{i}\nevent: {e['type']}\ndata: {json.dumps(e)}\n\n" for i, e in enumerate(events, start=1)
    )
    page.route(
        "**/api/accounts/me/events/",
        lambda route: route.fulfill(status=200, content_type="text/event-stream", body=body),
    )
