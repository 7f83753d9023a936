"""The table at the finger's speed: two quick taps on the stock are two draws (a mouse's clicks and a phone's taps,
the second one while the first card is still sliding over the stock); on a 360 x 740 phone the refusals, hints,
verdicts and the result are inside the first screen in English, Swedish and German, and the key caps are left
out; on a desktop they show letters of the translated words, and those letters work; a whole game is played
without a console error."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.support import WINNABLE_ONE_LOOK, WINNING_LINE

from .conftest import DEAL_NUMBER, DESKTOP, screenshot
from .helpers import card, play_move, wait_for_moves

SMALL_PHONE = {"width": 360, "height": 740}


def deal(page, number: int = DEAL_NUMBER, rules: str = "classic") -> None:
    """A practice deal, started as a visitor does (the first deal makes a guest)."""
    page.goto("/#/practice")
    page.get_by_label("Deal number").fill(str(number))
    page.get_by_label("Rules").select_option(rules)
    page.get_by_role("button", name="Deal").click()
    expect(page.locator(".pyramid .card")).to_have_count(28)


def moves_become(page, count: int) -> None:
    """Wait for the move counter to show `count`, looked at every frame (not every 100 ms as expect does)."""
    page.wait_for_function(f"document.querySelector('#moves')?.textContent === '{count}'", polling="raf")


@pytest.mark.parametrize("pointer", ["mouse", "touch"])
def test_two_quick_taps_on_the_stock_are_two_draws(browser, site, pointer):
    touch = pointer == "touch"
    context = browser.new_context(
        base_url=site, viewport=SMALL_PHONE if touch else DESKTOP, has_touch=touch, is_mobile=touch
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    deal(page)
    box = card(page, "stock").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    # the stock and the cards stay the same elements through the draws (marked here, found marked after)
    page.evaluate(
        "document.querySelectorAll('.board [data-loc]').forEach((el) => { el.dataset.kept = el.dataset.loc; })"
    )

    def tap():
        if touch:
            page.touchscreen.tap(x, y)
        else:
            page.mouse.click(x, y)

    tap()
    tap()  # before the first draw is answered: it waits its turn
    moves_become(page, 2)
    for count in (3, 4, 5):  # each the moment the card before it has landed and starts to slide over the stock
        tap()
        moves_become(page, count)
    wait_for_moves(page, 5)
    expect(page.locator("#waste-count")).to_have_text("5")
    expect(page.locator(".board .selected")).to_have_count(0)
    expect(page.locator("#message")).to_have_text("")
    assert page.evaluate(
        "[...document.querySelectorAll('.board .pyramid [data-loc], #stock-pile [data-loc]')]"
        ".every((el) => el.dataset.kept === el.dataset.loc)"
    )
    context.close()


def in_first_screen(page, selector: str, *, cards: bool = True) -> None:
    """`selector` lies whole inside the viewport of a page scrolled to its top, and so do the cards, if `cards`."""
    page.evaluate("window.scrollTo(0, 0)")
    for what in (selector, ".board .pyramid") if cards else (selector,):
        box = page.evaluate(
            "(s) => { const r = document.querySelector(s).getBoundingClientRect();"
            " return {top: r.top, bottom: r.bottom, height: r.height}; }",
            what,
        )
        assert box["height"] > 0 and box["top"] >= 0 and box["bottom"] <= SMALL_PHONE["height"], (what, box)
    assert page.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE["width"]


def test_messages_are_in_the_first_screen_of_a_phone_in_every_language(browser, site, settings):
    settings.PYRAMID_HINT_BUDGET_SECONDS = 0.5  # the hint and the verdict may say "not known": a message all the same
    context = browser.new_context(base_url=site, viewport=SMALL_PHONE, has_touch=True, is_mobile=True)
    # a phone's share sheet (Web Share API), which headless Chromium lacks: what it is given is kept
    context.add_init_script("navigator.share = async (data) => { window.shared = data; };")
    page = context.new_page()
    page.set_default_timeout(15_000)
    deal(page)
    message = page.locator("#message")
    for language in ("en", "sv", "de"):
        page.evaluate(f"localStorage.setItem('pyramid.language', '{language}')")
        page.reload()
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator(".pyramid .card")).to_have_count(28)
        expect(page.locator("kbd.key").first).to_be_hidden()  # a phone has no keys to press
        card(page, "0").tap()  # covered: refused on the page
        expect(message).to_have_class(re.compile(r"\brefusal\b"))
        in_first_screen(page, "#message")
        page.locator("#hint").tap()
        expect(message).to_have_class(re.compile(r"\bhint\b"), timeout=20_000)
        in_first_screen(page, "#message")
        screenshot(page, f"table-hint-360-{language}.jpg")
        page.locator("#can-win").tap()
        expect(message).to_have_class(re.compile(r"\bverdict\b"), timeout=20_000)
        in_first_screen(page, "#message")
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#resign").tap()
    for language in ("de", "sv", "en"):
        page.evaluate(f"localStorage.setItem('pyramid.language', '{language}')")
        page.reload()
        expect(page.locator(".result-card h2")).to_be_visible()
        expect(message).to_have_class(re.compile(r"\bresigned\b"))
        in_first_screen(page, ".result-card h2", cards=False)
        in_first_screen(page, "#message", cards=False)
        share = page.locator("#share-line")
        # the whole share line shows, wrapped: nothing is cut off
        assert share.evaluate("(el) => el.scrollHeight <= el.clientHeight + 1 && el.scrollWidth <= el.clientWidth + 1")
        # a guest is asked to sign up and keep the game
        expect(page.locator("#keep-game")).to_have_attribute("href", "#/signup")
        screenshot(page, f"result-360-{language}.jpg")
    # the phone's share sheet gets the whole line (no Copy button where the browser can share)
    expect(page.locator("#copy-share")).to_have_count(0)
    page.get_by_role("button", name="Share", exact=True).tap()
    page.wait_for_function("window.shared !== undefined")
    assert page.evaluate("window.shared.text") == page.locator("#share-line").input_value()
    context.close()


KEYS = {"en": ("D", "H", "U"), "sv": ("D", "T", "Å"), "de": ("Z", "T", "U")}


def test_key_caps_match_the_translated_labels_and_work(page):
    deal(page)
    for language, (draw, hint, undo) in KEYS.items():
        page.evaluate(f"localStorage.setItem('pyramid.language', '{language}')")
        page.reload()
        expect(page.locator("html")).to_have_attribute("lang", language)
        for button, letter in (("#draw", draw), ("#hint", hint), ("#undo", undo)):
            expect(page.locator(f"{button} kbd")).to_have_text(letter)
            expect(page.locator(f"{button} kbd")).to_be_visible()
            label = page.locator(button).inner_text().split(None, 1)[1]
            assert letter.lower() in label.lower(), (button, letter, label)
        moves = int(page.locator("#moves").inner_text())
        page.keyboard.press(draw.lower())
        wait_for_moves(page, moves + 1)
        # a key of a Swedish keyboard (Å) that the test's US keyboard lacks: its keydown, as the browser sends it
        page.evaluate(
            "(key) => document.dispatchEvent(new KeyboardEvent('keydown', {key, bubbles: true}))", undo.lower()
        )
        wait_for_moves(page, moves)


def test_a_whole_game_shows_no_console_error(page):
    errors: list[str] = []
    # the test server is WSGI: the game's live stream is answered 503 live_unavailable (the page polls instead),
    # which the browser itself logs as a failed load; nothing else may be
    page.on(
        "console",
        lambda message: (
            errors.append(message.text)
            if message.type == "error" and not message.location.get("url", "").endswith("/events/")
            else None
        ),
    )
    page.on("pageerror", lambda error: errors.append(str(error)))
    deal(page, WINNABLE_ONE_LOOK, "one-look")
    for ply, move in enumerate(WINNING_LINE, start=1):
        play_move(page, move, use_key=True)  # the stock's top card lies face up in one-look: D draws
        wait_for_moves(page, ply)
    expect(page.locator(".result-card h2")).to_have_text("Cleared! The deal is won.")
    expect(page.locator("#analyse")).to_be_visible(timeout=30_000)
    page.get_by_role("button", name="Copy").click()
    expect(page.locator("#message")).to_have_text("Share line copied.")
    page.goto("/#/rules/classic")  # and away: the table's page closes without a word
    expect(page.locator("h1")).to_be_visible()
    assert errors == []
