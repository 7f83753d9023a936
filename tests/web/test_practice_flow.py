"""After a practice win: the par shows at once (asked for at the end of the game), and the deal can be
played again or a new one dealt from the result card."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from playwright.sync_api import expect

from pyramid_site.celery import app as celery_app
from tests.support import PAR, WINNABLE_ONE_LOOK, WINNING_LINE

from .helpers import play_move, sign_up, wait_for_moves


@pytest.fixture
def tasks_in_process():
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True  # the solve the page asks for runs at once, as without Redis
    yield
    celery_app.conf.task_always_eager = eager


def test_a_practice_win_shows_par_and_offers_the_deal_again(page, db, tasks_in_process):
    sign_up(page, "practiser")
    page.get_by_role("link", name="Practice").click()
    page.get_by_label("Deal number").fill(str(WINNABLE_ONE_LOOK))
    page.get_by_label("Rules").select_option("one-look")
    page.get_by_role("button", name="Deal").click()
    expect(page.locator(".title")).to_have_text(f"Deal #{WINNABLE_ONE_LOOK} · one-look")
    line = list(WINNING_LINE)
    for ply, move in enumerate(line, start=1):
        play_move(page, move, use_key=True)  # a live stock top shows its card where the stock is clicked
        wait_for_moves(page, ply)
    result = page.locator(".result-card")
    expect(result).to_be_visible()
    expect(result.locator("#result-par")).to_have_text(str(PAR))  # nobody had asked for this deal's par before
    first_game = page.url
    result.get_by_role("button", name="Play this deal again").click()
    expect(page).not_to_have_url(first_game)
    expect(page.locator(".title")).to_have_text(f"Deal #{WINNABLE_ONE_LOOK} · one-look")
    expect(page.locator("#moves")).to_have_text("0")


@pytest.mark.parametrize("motion, animated", [("no-preference", True), ("reduce", False)])
def test_cards_move_unless_the_player_asks_for_reduced_motion(browser, site, motion, animated):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=site, reduced_motion=motion)
    # count the Web Animations the page starts
    context.add_init_script("""window.animations = 0; const animate = Element.prototype.animate;
        Element.prototype.animate = function (...args) {
            window.animations += 1; return animate.apply(this, args);
        };""")
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        sign_up(page, f"mover-{motion}")
        page.get_by_role("link", name="Practice").click()
        page.get_by_label("Deal number").fill(str(WINNABLE_ONE_LOOK))
        page.get_by_label("Rules").select_option("one-look")
        page.get_by_role("button", name="Deal").click()
        for ply, move in enumerate(list(WINNING_LINE)[:2], start=1):  # a removal, then a draw
            play_move(page, move, use_key=True)
            wait_for_moves(page, ply)
        assert (page.evaluate("window.animations") > 0) is animated
    finally:
        context.close()


def test_the_home_page_counts_down_to_the_next_daily_deal(page):
    page.goto("/")
    clock = page.locator("#next-daily")
    expect(clock).to_have_text(re.compile(r"^The next daily deal in \d{1,2}:\d\d:\d\d$"))
    first = clock.inner_text()
    # the browser reads the test's pinned clock (noon UTC, running on): the time left to the next UTC midnight is
    # the server's, whatever the hour of the run
    now = dt.datetime.now(dt.UTC)
    left = dt.datetime.combine(now.date() + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC) - now
    hours, minutes, seconds = (int(part) for part in first.rsplit(" ", 1)[1].split(":"))
    assert abs(hours * 3600 + minutes * 60 + seconds - left.total_seconds()) < 5
    page.wait_for_timeout(1200)
    assert clock.inner_text() != first  # it ticks


def test_practice_deals_a_proved_deal_of_the_difficulty_asked_for(page, db, tasks_in_process):
    from games.models import Game

    page.goto("/#/practice")
    page.get_by_label("Rules").select_option("classic")
    page.locator("select[name=kind]").select_option("1")
    page.get_by_role("button", name="Deal").click()
    expect(page).to_have_url(re.compile(r"#/game/\d+$"))
    deal = Game.objects.get(pk=int(page.url.rsplit("/", 1)[1])).deal
    assert (deal.status, deal.difficulty) == ("winnable", 1)
    expect(page.locator(".title")).to_have_text(f"Deal #{deal.number} · classic")


def test_a_practice_player_may_hear_after_every_move_whether_the_deal_can_still_be_won(page, db):
    from games.models import Game

    page.goto("/#/practice")
    page.get_by_label("Deal number").fill(str(WINNABLE_ONE_LOOK))
    page.get_by_label("Rules").select_option("one-look")
    page.get_by_role("button", name="Deal").click()
    toggle = page.get_by_role("button", name="After every move: off")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(page.get_by_role("button", name="After every move: on")).to_have_attribute("aria-pressed", "true")
    for ply, move in enumerate(list(WINNING_LINE)[:2], start=1):
        play_move(page, move, use_key=True)
        wait_for_moves(page, ply)
        expect(page.locator("#message")).to_have_text(
            f"Yes: this position can still be won in {PAR - ply} more moves with best play.", timeout=30_000
        )
    assert Game.objects.get().hint_count == 0  # not a hint
    page.reload()  # the choice is the browser's
    expect(page.get_by_role("button", name="After every move: on")).to_be_visible()
