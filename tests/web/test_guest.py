"""A visitor plays at once, without signing up: the first deal makes them a guest, silently; the header says so
and offers to sign up; signing up keeps the practice game and today's daily game, which the player page shows."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.models import Game
from pyramid_site.accounts.models import Guest
from pyramid_site.celery import app as celery_app
from tests.support import WINNABLE_ONE_LOOK, WINNING_LINE

from .conftest import screenshot
from .helpers import menu_link, play_move, wait_for_moves


@pytest.fixture
def tasks_in_process():
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True  # the par the result card asks for is solved at once
    yield
    celery_app.conf.task_always_eager = eager


def test_a_guest_plays_practice_and_the_daily_deal_then_signs_up_and_keeps_them(page, daily_line, tasks_in_process):
    page.goto("/#/practice")
    expect(page.locator("#login-link")).to_have_text("Log in / Sign up")  # nobody yet, and no log-in asked for
    page.get_by_label("Deal number").fill(str(WINNABLE_ONE_LOOK))
    page.get_by_label("Rules").select_option("one-look")
    page.get_by_role("button", name="Deal").click()
    expect(page.locator(".title")).to_have_text(f"Deal #{WINNABLE_ONE_LOOK} · one-look")
    badge = page.locator("#guest-badge")
    expect(badge).to_have_text(re.compile(r"^Guest: guest-[0-9a-z]{8}$"))
    expect(page.get_by_role("link", name="Sign up to keep your games")).to_be_visible()
    desktop = page.viewport_size
    page.set_viewport_size({"width": 360, "height": 740})  # the short words on a phone: three lines at most, not four
    expect(page.get_by_role("link", name="Sign up", exact=True)).to_be_visible()
    header = page.locator("header").bounding_box()
    assert header["height"] < 160, header  # a line is about 45 px
    page.set_viewport_size(desktop)
    guest_name = page.locator("#me").inner_text()
    for ply, move in enumerate(WINNING_LINE, start=1):
        play_move(page, move, use_key=True)
        wait_for_moves(page, ply)
    expect(page.locator(".result-card h2")).to_have_text("Cleared! The deal is won.")

    menu_link(page, "Today").click()
    daily = page.locator(".daily", has_text="classic")
    daily.get_by_role("button", name="Play today's deal").click()
    expect(page).to_have_url(re.compile(r"#/game/\d+$"))
    expect(page.locator(".tag")).to_have_text("Ranked")
    for ply, move in enumerate(daily_line, start=1):
        play_move(page, move, use_key=(move == "draw"))
        wait_for_moves(page, ply)
    result = page.locator(".result-card")
    expect(result.locator("#result-rank")).to_have_text("#1 of 1")
    expect(page.locator("#me")).to_have_text(guest_name)  # the same guest played both
    screenshot(page, "guest-result-desktop.jpg")

    page.get_by_role("link", name="Sign up to keep your games").click()
    expect(page.locator("h1")).to_have_text("Sign up to keep your games")
    expect(page.locator("#login-form")).to_have_count(0)
    form = page.locator("#signup-form")
    form.get_by_label("Username").fill("nefertiti")
    form.get_by_label("Password").fill("a-long-pass-phrase")
    form.get_by_role("button", name="Create account").click()
    expect(page.locator("#me")).to_have_text("nefertiti")
    expect(page.locator("#guest-badge")).to_have_count(0)
    expect(page.get_by_role("link", name="Sign up to keep your games")).to_have_count(0)

    page.locator("#me").click()
    expect(page.locator(".player h1")).to_have_text("nefertiti")
    history = page.locator(".player table.compact")  # the daily results
    expect(history.locator("tbody tr")).to_have_count(1)
    expect(history).to_contain_text("classic")
    expect(history).to_contain_text("won")
    games = page.locator("#my-games-table tbody tr")
    expect(games).to_have_count(2)
    expect(games.nth(0)).to_contain_text("daily")
    expect(games.nth(1)).to_contain_text(f"practice #{WINNABLE_ONE_LOOK}")
    expect(games.nth(1)).to_contain_text("won")
    screenshot(page, "guest-signed-up-player-desktop.jpg")

    # one account throughout: the guest's, named now, with both games
    account = get_user_model().objects.get(username="nefertiti")
    assert Guest.objects.get(user=account).name == guest_name
    assert sorted(Game.objects.filter(player=account).values_list("mode", "status")) == [
        ("practice", "won"),
        ("ranked", "won"),
    ]
    assert get_user_model().objects.count() == 1


def test_a_guest_is_asked_to_sign_up_before_creating_a_club(page):
    page.goto("/#/practice")
    page.get_by_role("button", name="Deal").click()
    expect(page).to_have_url(re.compile(r"#/game/\d+$"))
    page.locator(".pyramid .card").first.wait_for()  # the table is drawn before the page changes
    expect(page.locator("#guest-badge")).to_be_visible()
    menu_link(page, "Clubs").click()
    expect(page).to_have_url(re.compile(r"#/clubs$"))
    expect(page.locator("#club-create")).to_contain_text("Sign up to create a club")
    expect(page.locator("#club-join").get_by_role("button", name="Join club")).to_be_visible()
