"""The replay and the post-game analysis in the browser: a practice game thrown away at a known move is
stepped through with the keys and the slider, its chart marks where the win slipped away, the solver's best
line from there plays as a ghost to a win; at phone width nothing scrolls sideways and axe-core finds no
serious violation. A daily game's result card says when its analysis opens, and offers it after the day."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from playwright.sync_api import expect

import engine
from engine.solver import UNWINNABLE, solve_reference
from games.models import GameAnalysis
from pyramid_site.celery import app as celery_app
from tests.support import PAR, WINNABLE_ONE_LOOK, WINNING_LINE, UserFactory, client_for, clock_at, during, make_daily

from .conftest import screenshot
from .helpers import sign_up

AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
ONE_LOOK = engine.preset("one-look")
PLAYED = 20  # moves of the winning line before the game goes its own way
SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


@pytest.fixture
def tasks_in_process():
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True  # the analysis job runs at once, as without Redis
    yield
    celery_app.conf.task_always_eager = eager


def positions(moves: list[str]) -> list[engine.Position]:
    """The start and the position after each move."""
    position = engine.Position.start(engine.deal_from_number(WINNABLE_ONE_LOOK), ONE_LOOK)
    found = [position.copy()]
    for notation in moves:
        position.apply(notation)
        found.append(position.copy())
    return found


def losing_move() -> str:
    """A move after PLAYED moves of the winning line that the reference search proves loses the win."""
    position = positions(list(WINNING_LINE[:PLAYED]))[-1]
    for move in position.legal_moves():
        if solve_reference(position.copy().apply(move), max_nodes=200_000).verdict == UNWINNABLE:
            return str(move)
    pytest.fail("no move there throws the win away: pick another ply")


def card_words(position: engine.Position, move: str) -> list[str]:
    """The cards a move names, as the page writes them (7♣, 10♦)."""
    view = engine.player_view(position)
    found = []
    for location in move.split("+"):
        card = (
            view["stock"]["top"]
            if location == "S"
            else view["waste"][-1]
            if location == "W"
            else view["reserve"][int(location[1:])]
            if location.startswith("R")
            else view["pyramid"][int(location)]["card"]
        )
        found.append(("10" if card[0] == "T" else card[0]) + SUITS[card[1]])
    return found


def thrown_away_game(username: str) -> tuple[int, list[str]]:
    """A practice game of the proved deal: PLAYED moves of its winning line, a move that loses the win,
    resigned. Its analysis is then forgotten, so the page finds it pending and asks again until it is in."""
    api = client_for(get_user_model().objects.get(username=username))
    game_id = api.post("/api/games/", {"number": str(WINNABLE_ONE_LOOK), "rules": "one-look"}, format="json").json()[
        "id"
    ]
    moves = [*WINNING_LINE[:PLAYED], losing_move()]
    for ply, move in enumerate(moves, start=1):
        assert api.post(f"/api/games/{game_id}/moves/", {"ply": ply, "move": move}, format="json").status_code == 201
    assert api.post(f"/api/games/{game_id}/resign/", format="json").status_code == 200
    GameAnalysis.objects.filter(game_id=game_id).delete()
    cache.delete(f"analysis-queued:{game_id}")
    return game_id, moves


def board_state(page) -> str:
    return page.evaluate("""() => [...document.querySelectorAll('.board .card')]
        .map(c => c.dataset.card || c.getAttribute('aria-label')).join(' ')""")


def no_serious_violation(page) -> list[str]:
    page.add_script_tag(path=str(AXE))
    return page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']}))
        .violations.filter(v => ['serious', 'critical'].includes(v.impact))
        .map(v => `${v.id}: ${v.nodes.length} × ${v.nodes[0].target.join(' ')}`)""")


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed: npm ci --prefix tests/web (.ci/services does)")
def test_step_through_a_thrown_away_game_and_watch_the_best_line(page, browser, site, tasks_in_process):
    sign_up(page, "replayer")
    game_id, moves = thrown_away_game("replayer")
    lost_at = PLAYED + 1
    played = positions(moves)

    # the result card leads to the analysis, which the page asks for until the solver is through
    page.goto(f"/#/game/{game_id}")
    expect(page.locator(".result-card h2")).to_have_text(re.compile(r"^Resigned"))
    expect(page.locator("#analysis-note")).to_have_text(
        f"The win slipped away at move {lost_at} of {len(moves)}. See which move would have kept it.", timeout=30_000
    )
    page.get_by_role("link", name="Analyse this game").click()
    expect(page).to_have_url(re.compile(rf"#/game/{game_id}/replay(/0)?$"))
    expect(page.locator("#replay-ply")).to_have_text("0")
    expect(page.locator("#replay-move")).to_have_text("The start: the deal as it was dealt.")
    expect(page.locator("#replay-verdict")).to_have_text(f"Winnable: {PAR} moves to win", timeout=30_000)

    # the chart marks the move that lost the win, named in players' words, with the move that kept it
    marker = page.locator('#chart [data-kind="lost"]')
    expect(marker).to_have_count(1)
    label = marker.get_attribute("aria-label")
    assert label.startswith(f"Move {lost_at}: ") and "the win slipped away here" in label, label
    for name in card_words(played[PLAYED], moves[-1]) if moves[-1] not in ("draw", "redeal") else ["drew"]:
        assert name in label, (name, label)
    assert "would have kept it" in label
    summary = page.locator("#analysis-summary")
    expect(summary).to_contain_text(f"Move {lost_at}")
    expect(summary).to_contain_text("the win slipped away here")
    expect(page.locator("#face-down-note")).to_contain_text("the solver saw the whole deal")

    # → steps through every move: the board, the move count and the cards left follow the log
    seen = board_state(page)
    for ply in range(1, len(moves) + 1):
        page.keyboard.press("ArrowRight")
        expect(page.locator("#replay-ply")).to_have_text(str(ply))
        expect(page.locator("#cards-left")).to_have_text(str(played[ply].cards_left))
        expect(page.locator("#stock-count")).to_have_text(str(played[ply].stock_count))
        expect(page.locator("#replay-move")).to_have_text(re.compile(rf"^Move {ply} of {len(moves)}: "))
        now = board_state(page)
        assert now != seen, f"the board did not change at ply {ply}"
        seen = now
    expect(page.locator("#replay-verdict")).to_have_text(re.compile(r"^No longer winnable: best \d+ cards? left$"))
    page.keyboard.press("ArrowRight")  # past the end stays at the end
    expect(page.locator("#replay-ply")).to_have_text(str(len(moves)))

    # the slider goes anywhere, and the arrows step it too
    slider = page.locator("#replay-slider")
    slider.fill("0")
    expect(page.locator("#replay-ply")).to_have_text("0")
    expect(page.locator("#cards-left")).to_have_text(str(played[0].cards_left))
    slider.fill(str(PLAYED - 5))
    expect(page.locator("#replay-ply")).to_have_text(str(PLAYED - 5))
    slider.focus()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-ply")).to_have_text(str(PLAYED - 4))  # one step, not two
    expect(page.locator("#cards-left")).to_have_text(str(played[PLAYED - 4].cards_left))

    # a click on the chart's marker goes to the move; the move before it shows what would have kept the win
    marker.click()
    expect(page.locator("#replay-ply")).to_have_text(str(lost_at))
    expect(page).to_have_url(re.compile(rf"#/game/{game_id}/replay/{lost_at}$"))
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#replay-ply")).to_have_text(str(PLAYED))
    expect(page.locator("#replay-verdict")).to_have_text(f"Still winnable: {PAR - PLAYED} moves to win")
    expect(page.locator("#replay-next")).to_contain_text("would have kept it")
    expect(page.locator(".board .hinted").first).to_be_visible()
    screenshot(page, "replay-desktop.jpg")

    # the best line from here plays as a ghost to a win, and leaves the game's place alone
    page.get_by_role("button", name="Show the best line from here").click()
    banner = page.locator("#ghost-banner")
    expect(banner).to_contain_text(f"wins in {PAR - PLAYED} moves")
    expect(banner).to_have_attribute("data-status", "won", timeout=30_000)
    expect(banner).to_contain_text("won, the deal is cleared")
    expect(page.locator(".board.ghost")).to_be_visible()
    expect(page.locator("#ghost-moves li")).to_have_count(PAR - PLAYED)
    expect(page.locator("#replay-ply")).to_have_text(str(PLAYED))
    screenshot(page, "replay-ghost-desktop.jpg")
    page.get_by_role("button", name="Back to my game").click()
    expect(banner).to_be_hidden()
    expect(page.locator("#cards-left")).to_have_text(str(played[PLAYED].cards_left))
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-ply")).to_have_text(str(lost_at))
    assert no_serious_violation(page) == []

    # a phone: no sideways scroll, tap targets of 40 px, and the ghost jumps to its end for reduced motion
    context = browser.new_context(viewport={"width": 360, "height": 800}, base_url=site, reduced_motion="reduce")
    context.add_init_script("""window.animations = 0; const animate = Element.prototype.animate;
        Element.prototype.animate = function (...args) {
            window.animations += 1; return animate.apply(this, args);
        };""")
    phone = context.new_page()
    phone.set_default_timeout(15_000)
    try:
        phone.goto("/")
        phone.evaluate(
            "([token, user]) => { localStorage.setItem('pyramid.token', token); "
            "localStorage.setItem('pyramid.user', user); }",
            [
                page.evaluate("localStorage.getItem('pyramid.token')"),
                page.evaluate("localStorage.getItem('pyramid.user')"),
            ],
        )
        phone.goto(f"/#/game/{game_id}/replay/{PLAYED}")
        phone.reload()  # the page starts again logged in
        expect(phone.locator("#me")).to_have_text("replayer")
        expect(phone.locator("#replay-verdict")).to_have_text(
            f"Still winnable: {PAR - PLAYED} moves to win", timeout=30_000
        )
        phone.wait_for_load_state("networkidle")
        assert phone.evaluate("document.documentElement.scrollWidth") <= phone.evaluate("innerWidth")
        small = phone.evaluate("""() => [...document.querySelectorAll('.replay button, .replay input, .replay a')]
            .filter(el => el.offsetParent !== null)
            .map(el => [el.id || el.textContent.trim() || el.getAttribute('aria-label'), el.getBoundingClientRect()])
            .filter(([, r]) => r.height < 40 || r.width < 40).map(([name, r]) => `${name}: ${r.width}×${r.height}`)""")
        assert small == []
        assert no_serious_violation(phone) == []
        screenshot(phone, "replay-phone.jpg")
        phone.get_by_role("button", name="Show the best line from here").click()
        expect(phone.locator("#ghost-banner")).to_have_attribute("data-status", "won")
        expect(phone.locator("#ghost-moves li.current")).to_have_count(1)
        assert phone.evaluate("window.animations") == 0
        assert phone.evaluate("document.documentElement.scrollWidth") <= phone.evaluate("innerWidth")
    finally:
        context.close()


def test_a_daily_games_analysis_waits_for_the_day_and_then_opens(page, tasks_in_process):
    sign_up(page, "daily-analyst")
    api = client_for(get_user_model().objects.get(username="daily-analyst"))
    yesterday = dt.date.today() - dt.timedelta(days=1)
    other = client_for(UserFactory())  # yesterday's game is another player's: anyone may see it after the day
    with clock_at(during(yesterday)):
        old = other.post("/api/games/", {"daily": make_daily(date=yesterday).pk}, format="json").json()["id"]
        for ply, move in enumerate(WINNING_LINE[:6], start=1):
            other.post(f"/api/games/{old}/moves/", {"ply": ply, "move": move}, format="json")
        other.post(f"/api/games/{old}/resign/", format="json")
    # today's deal is another number: a number still in a window keeps every game of it secret, yesterday's too
    today = api.post("/api/games/", {"daily": make_daily(number=99).pk}, format="json").json()["id"]
    for ply in range(1, 5):
        assert api.post(f"/api/games/{today}/moves/", {"ply": ply, "move": "draw"}, format="json").status_code == 201
    api.post(f"/api/games/{today}/resign/", format="json")

    # today's: when it opens, in players' words; the browser's clock is the test's (noon UTC, running on), so the
    # day ends in about twelve hours whatever the hour of the run
    page.goto(f"/#/game/{today}")
    expect(page.locator("#analysis-note")).to_have_text(
        re.compile(
            r"^The analysis opens when the day is over, so that it cannot give the deal away: in "
            r"(11 hours( \d+ minutes?)?|12 hours) \((today|tomorrow) at [^,]+, your time\)\.$"
        )
    )
    expect(page.get_by_role("link", name="Analyse this game")).to_have_count(0)
    page.goto(f"/#/game/{today}/replay")
    expect(page.locator(".replay .page-message")).to_contain_text("The analysis opens when the day is over")

    # yesterday's, another player's: open to anyone now
    page.goto(f"/#/game/{old}")
    page.get_by_role("link", name="Analyse this game").click()
    expect(page.locator("#replay-verdict")).to_have_text(f"Winnable: {PAR} moves to win", timeout=30_000)
    page.keyboard.press("End")
    expect(page.locator("#replay-ply")).to_have_text("6")
