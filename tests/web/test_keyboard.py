"""A whole game played with the keyboard alone: Tab to a card, Enter to pick it (and its partner), D to draw;
the win is announced in the live region."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support import WINNABLE_ONE_LOOK, WINNING_LINE

from .helpers import wait_for_moves


def tab_until(page, found: str, what: str) -> None:
    """Press Tab (forwards through the page, round again at its end) until ``found`` (a script) is true."""
    for _ in range(120):
        page.keyboard.press("Tab")
        if page.evaluate(found):
            return
    pytest.fail(f"Tab never reached {what}")


def tab_to(page, location: str) -> None:
    tab_until(page, f"document.activeElement?.dataset?.loc === {location!r}", f"the card at {location}")


def tab_to_field(page, name: str) -> None:
    tab_until(page, f"document.activeElement?.name === {name!r}", f"the field {name}")


def test_a_whole_game_is_played_with_the_keyboard_alone(page):
    page.goto("/#/practice")
    tab_to_field(page, "rules")
    page.keyboard.type("one-look")  # a select picks the option its typed letters begin
    expect(page.get_by_label("Rules")).to_have_value("one-look")
    tab_to_field(page, "number")
    page.keyboard.type(str(WINNABLE_ONE_LOOK))
    page.keyboard.press("Enter")
    expect(page.locator(".title")).to_have_text(f"Deal #{WINNABLE_ONE_LOOK} · one-look")
    for ply, move in enumerate(WINNING_LINE, start=1):
        if move in ("draw", "redeal"):
            page.keyboard.press("d")
        else:
            for location in move.split("+"):
                tab_to(page, location)
                page.keyboard.press("Enter")
        wait_for_moves(page, ply)
    expect(page.locator(".result-card h2")).to_have_text("Cleared! The deal is won.")
    expect(page.locator("#announce")).to_contain_text("0 cards left")
