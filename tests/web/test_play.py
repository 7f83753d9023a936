"""The web page in a real browser: sign up, play the daily deal to a win, practise with hints and
undo, refusals with the engine's reason, and a reload in the middle of a game."""

from __future__ import annotations

import datetime as dt
import re

from playwright.sync_api import expect

import engine
from games.daily import commitment, new_salt
from games.models import DailyDeal, Deal
from games.services.deals import deal_get_or_create
from pyramid_site.clock import utc_today

from .conftest import CLASSIC, DEAL_NUMBER, DESKTOP, PHONE, screenshot
from .helpers import card, find_winning_line, has_class, play_move, sign_up, wait_for_moves, walk_focus_to


def shown_date(day: dt.date) -> str:
    """A day as the page writes it in English (Intl's medium date): "Dec 1, 2026"."""
    return f"{day:%b} {day.day}, {day.year}"


def start_position() -> engine.Position:
    return engine.Position.start(engine.deal_from_number(DEAL_NUMBER), CLASSIC)


def test_sign_up_and_win_the_daily_deal(page, daily_line):
    sign_up(page, "daily-winner")
    page.goto("/#/")
    daily = page.locator(".daily", has_text="classic")
    difficulty = Deal.objects.get(number=DEAL_NUMBER, preset="classic").difficulty
    expect(daily.locator(".difficulty")).to_have_text("★" * difficulty + "☆" * (5 - difficulty))
    daily.get_by_role("button", name="Play today's deal").click()
    expect(page).to_have_url(re.compile(r"#/game/\d+$"))
    expect(page.locator(".tag")).to_have_text("Ranked")
    # ranked: no hint and no undo, neither as buttons nor as keys
    expect(page.locator("#hint")).to_have_count(0)
    expect(page.locator("#undo")).to_have_count(0)

    dragged = False
    for ply, move in enumerate(daily_line, start=1):
        drag = "+" in move and not dragged and not move.startswith(("W", "S")) and "W" not in move
        dragged |= drag
        play_move(page, move, use_key=(move == "draw" and ply % 2 == 0), drag=drag)
        wait_for_moves(page, ply)
    assert dragged, "the line has a pyramid pair to drag"

    result = page.locator(".result-card")
    expect(result.locator("h2")).to_have_text("Cleared! The deal is won.")
    expect(result.locator("#result-cards-left")).to_have_text("0")
    expect(result.locator("#result-moves")).to_have_text(str(len(daily_line)))
    expect(result.locator("#result-par")).to_have_text(str(len(daily_line)))
    expect(result.locator("#result-time")).to_have_text(re.compile(r"^\d+:\d\d$"))
    expect(result.locator("#result-rank")).to_have_text("#1 of 1")
    share = result.locator("#share-line")
    expect(share).to_have_value(
        re.compile(
            rf"^Pyramid #\d+ classic: cleared, {len(daily_line)} moves "
            rf"\(par {len(daily_line)}\)$"
        )
    )
    result.get_by_role("button", name="Copy").click()
    expect(page.locator("#message")).to_have_text("Share line copied.")
    assert page.evaluate("navigator.clipboard.readText()") == share.input_value()
    screenshot(page, "result-desktop.jpg")

    # the player is on the daily board
    result.get_by_role("link", name="See the daily board").click()
    row = page.locator(".board-table tr.me")
    expect(row).to_contain_text("daily-winner")
    expect(row.locator("td").first).to_have_text("1")
    expect(page.locator("#my-rank")).to_have_text("#1")

    # home now shows the result, the par of the day and the streak
    page.goto("/#/")
    expect(page.locator("#streak-days")).to_have_text("1")
    page.locator("#me").click()
    expect(page.locator("#player-streak")).to_have_text("1")
    expect(page.locator(".board-table.compact")).to_contain_text(shown_date(utc_today()))
    page.get_by_role("link", name="Boards").click()
    page.get_by_role("link", name="This week").click()
    expect(page.locator(".board-table tr.me")).to_contain_text("daily-winner")
    page.goto("/#/")
    page.set_viewport_size(PHONE)
    screenshot(page, "home-phone.jpg")
    page.set_viewport_size(DESKTOP)
    expect(page.locator(".daily .played")).to_have_text(
        re.compile(rf"won\s+in {len(daily_line)} moves · par {len(daily_line)}")
    )


def test_practice_with_hint_undo_refusals_and_reload(page):
    sign_up(page, "practiser")
    page.get_by_role("link", name="Practice").click()
    page.get_by_label("Deal number").fill(str(DEAL_NUMBER))
    page.get_by_label("Rules").select_option("classic")
    page.get_by_role("button", name="Deal").click()
    expect(page.locator(".tag")).to_have_text("Practice")
    position = start_position()
    expect(page.locator(".pyramid .card")).to_have_count(28)
    expect(page.locator(".pyramid .card.free")).to_have_count(7)
    expect(card(page, "0")).to_have_class(has_class("covered"))

    # illegal choices are refused with the engine's reason, and nothing is played
    card(page, "0").click()
    expect(page.locator("#message")).to_contain_text(position.why_illegal(engine.parse_move("0")))
    values = [engine.card_value(card) for card in position.board.pyramid_cards]
    non_pair = next(
        (a, b)
        for a in range(21, 28)
        for b in range(a + 1, 28)
        if values[a] + values[b] != 13 and 13 not in (values[a], values[b])
    )
    play_move(page, f"{non_pair[0]}+{non_pair[1]}")
    reason = position.why_illegal(engine.parse_move(f"{non_pair[0]}+{non_pair[1]}"))
    expect(page.locator("#message")).to_contain_text(reason)
    expect(page.locator("#moves")).to_have_text("0")

    # a picked card outlines exactly the partners the legal moves allow
    page.locator(".board").click(position={"x": 2, "y": 2})
    page.keyboard.press("Escape")
    line = find_winning_line(position)
    first_pair = next(m for m in line if "+" in m)
    # play up to the first pair so the coach has something to show
    for ply, move in enumerate(line[: line.index(first_pair)], start=1):
        play_move(page, move)
        wait_for_moves(page, ply)
    played = line.index(first_pair)
    for move in line[:played]:
        position.apply(engine.parse_move(move))
    left, right = first_pair.split("+")
    card(page, left).click()
    partners = {
        b if a == left else a
        for a, b in (str(m).split("+") for m in position.legal_moves() if "+" in str(m))
        if left in (a, b)
    }
    outlined = {el.get_attribute("data-loc") for el in page.locator(".board .card.partner").all()}
    assert outlined == partners and right in outlined
    screenshot(page, "table-desktop.jpg")
    page.set_viewport_size(PHONE)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the table is {width}px wide at phone width"
    screenshot(page, "table-phone.jpg")
    card(page, right).click()  # a tap on the partner plays the pair, at phone width too
    wait_for_moves(page, played + 1)
    page.keyboard.press("u")
    wait_for_moves(page, played)
    page.set_viewport_size(DESKTOP)
    page.keyboard.press("Escape")
    expect(page.locator(".board .card.partner")).to_have_count(0)

    # keyboard: Enter picks the focused card, the arrows walk to its partner, Enter plays the pair
    card(page, left).focus()
    page.keyboard.press("Enter")
    expect(card(page, left)).to_have_class(has_class("selected"))
    walk_focus_to(page, right)
    assert page.evaluate("document.activeElement.dataset.loc") == right
    page.keyboard.press("Enter")
    wait_for_moves(page, played + 1)
    page.keyboard.press("u")
    wait_for_moves(page, played)

    # play on towards the end of the line, where the solver answers within the hint's time budget
    near_end = len(line) - 6
    for ply in range(played + 1, near_end + 1):
        play_move(page, line[ply - 1], use_key=ply % 2 == 0)
        wait_for_moves(page, ply)
    position = engine.replay(engine.deal_from_number(DEAL_NUMBER), CLASSIC, line[:near_end]).position

    # a hint explains a move (named on the message's data-move) and lights up its cards
    page.keyboard.press("h")
    expect(page.locator("#message")).to_have_attribute("data-move", re.compile(r"^\S+$"), timeout=30_000)
    expect(page.locator("#message")).to_have_text(re.compile(r"^Hint: .+"))
    advised = page.locator("#message").get_attribute("data-move")
    assert engine.parse_move(advised) in position.legal_moves()
    expected = ["stock"] if advised in ("draw", "redeal") else advised.split("+")
    expect(page.locator(".board .hinted")).to_have_count(len(expected))
    assert sorted(el.get_attribute("data-loc") for el in page.locator(".board .hinted").all()) == sorted(expected)
    screenshot(page, "hint-desktop.jpg")

    # play the hinted move and take it back
    play_move(page, advised)
    wait_for_moves(page, near_end + 1)
    page.keyboard.press("u")
    wait_for_moves(page, near_end)
    expect(page.locator("#message")).to_have_text("Move taken back.")
    expect(page.locator(".board .hinted")).to_have_count(0)

    # the solver says whether the position can still be won
    page.get_by_role("button", name="Can this still be won?").click()
    expect(page.locator("#message")).to_have_text(re.compile(r"^Yes: this position can still be won"), timeout=30_000)

    # a reload continues the same game where it was
    play_move(page, line[near_end])
    wait_for_moves(page, near_end + 1)
    url = page.url
    page.reload()
    expect(page).to_have_url(url)
    wait_for_moves(page, near_end + 1)
    expect(page.locator(".pyramid .card")).to_have_count(
        engine.replay(engine.deal_from_number(DEAL_NUMBER), CLASSIC, line[: near_end + 1]).position.pyramid_left
    )
    play_move(page, line[near_end + 1])
    wait_for_moves(page, near_end + 2)

    # a preset with a reserve row and a live stock top draws both
    page.get_by_role("link", name="Practice").click()
    page.get_by_label("Deal number").fill("12")
    page.get_by_label("Rules").select_option("reserve")
    page.get_by_role("button", name="Deal").click()
    reserve = engine.Position.start(engine.deal_from_number(12), engine.preset("reserve"))
    expect(page.locator(".reserve .card")).to_have_count(7)
    expect(page.locator(".title")).to_have_text("Deal #12 · reserve")
    stock_top = engine.player_view(reserve)["stock"]["top"]
    expect(card(page, "S")).to_have_attribute("data-card", stock_top)
    expect(page.locator("#stock-count")).to_have_text(str(reserve.stock_count))

    # deal numbers past 2**53 stay exact, from the form to the table
    big = 2**64 - 3
    page.get_by_role("link", name="Practice").click()
    page.get_by_label("Deal number").fill(str(big))
    page.get_by_label("Rules").select_option("classic")
    page.get_by_role("button", name="Deal").click()
    expect(page.locator(".title")).to_have_text(f"Deal #{big} · classic")
    expect(card(page, "21")).to_have_attribute("data-card", engine.deal_from_number(big).text.split()[21])


def test_rules_page_has_pairs_table_and_quiz(page):
    page.goto("/#/rules/one-look")
    expect(page.locator("h1")).to_have_text("Rules: one-look")
    expect(page.locator("#rules-passes")).to_contain_text("once: there is no redeal")
    expect(page.locator("#rules-tops")).to_contain_text("The waste is dead")
    expect(page.locator("#pairs-table tr")).to_have_count(7)
    quiz = page.locator("#quiz fieldset")
    expect(quiz).to_have_count(6)
    # each answer is marked at once and explained under the preset's own rules
    quiz.nth(0).get_by_label("A free queen").check()
    expect(quiz.nth(0)).to_have_class("wrong")
    expect(quiz.nth(0).locator(".why")).to_have_text(re.compile(r"^Not quite: A free 2\. A jack counts 11"))
    quiz.nth(4).get_by_label("None of them").check()
    expect(quiz.nth(4)).to_have_class("right")
    expect(quiz.nth(4).locator(".why")).to_contain_text("the waste is dead")
    quiz.nth(5).get_by_label("Once").check()
    expect(quiz.nth(5)).to_have_class("right")
    expect(page.locator("#quiz-score")).to_have_text("2 of 3 right so far, 3 to go.")
    page.goto("/#/rules/overlap")
    expect(page.locator("#rules-tops")).to_contain_text("may pair with the card it covers")
    page.locator("#quiz fieldset").nth(3).get_by_label("Yes").check()
    expect(page.locator("#quiz fieldset").nth(3)).to_have_class("right")
    screenshot(page, "rules-desktop.jpg")


def test_the_fair_page_lists_the_commitments_of_the_coming_days(page, db):
    tomorrow = utc_today() + dt.timedelta(days=1)
    deal = deal_get_or_create(number=5, rules=CLASSIC)
    salt = new_salt()
    DailyDeal.objects.create(
        date=tomorrow, preset="classic", deal=deal, attempt=0, salt=salt, commitment=commitment(deal.text, salt)
    )
    page.goto("/#/")
    # nobody is logged in: the home page invites play, with no log-in forms and no hex; the commitments are on
    # the page that explains them
    expect(page.locator("#login-form")).to_have_count(0)
    expect(page.locator("#signup-form")).to_have_count(0)
    expect(page.locator(".home code")).to_have_count(0)
    page.locator("#fair-link").click()
    coming = page.locator("#coming li")
    expect(coming).to_have_count(1)
    expect(coming).to_contain_text(f"{shown_date(tomorrow)} classic {commitment(deal.text, salt)}")
    expect(coming.locator("code")).to_have_text(commitment(deal.text, salt))
