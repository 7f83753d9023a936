"""Finish: when the server's player view lists the moves left as forced (`position.forced`), the table offers a Finish
button that plays them through its queue, and, with "finish forced moves by itself" turned on in this browser,
plays them after a short pause without being asked.

The position is one-look deal 25 after the 25 moves below: from there each position has exactly one legal move
until the game ends (the test walks it here, one legal move at a time), so the list is forced in the strictest
sense, and the server's view must list exactly those moves."""

from __future__ import annotations

from playwright.sync_api import expect

import engine
from games.models import Game
from games.move_log import log_notations
from games.services.play import move_submit

from .helpers import wait_for_moves

DEAL = 25
RULES = engine.preset("one-look")
PREFIX = [
    "22+24",
    "draw",
    "draw",
    "draw",
    "draw",
    "S",
    "21+S",
    "draw",
    "15+S",
    "25+S",
    "S",
    "23+S",
    "draw",
    "draw",
    "16+S",
    "draw",
    "17+S",
    "draw",
    "draw",
    "draw",
    "10+S",
    "draw",
    "draw",
    "draw",
    "26+S",
]


def forced_from(position: engine.Position) -> list[str] | None:
    """The moves left when each position from here to the end has exactly one legal move, else None."""
    moves = []
    while position.status == engine.PLAYING:
        legal = list(position.legal_moves())
        if len(legal) != 1:
            return None
        moves.append(str(legal[0]))
        position = position.play(legal[0])
    return moves


FORCED = forced_from(engine.replay(engine.deal_from_number(DEAL), RULES, PREFIX).position)


def game_at_the_forced_end(page) -> int:
    """A practice game of the deal, its first moves played by the server's own service, shown on the table."""
    page.goto("/#/practice")
    page.get_by_label("Deal number").fill(str(DEAL))
    page.get_by_label("Rules").select_option("one-look")
    page.get_by_role("button", name="Deal").click()
    expect(page.locator(".pyramid .card")).to_have_count(28)
    expect(page.locator("#finish")).to_have_count(0)  # choices are left: nothing to finish
    game_id = int(page.url.rsplit("/", 1)[1])
    player = Game.objects.get(pk=game_id).player
    for ply, move in enumerate(PREFIX, start=1):
        assert move_submit(game_id=game_id, player=player, ply=ply, move=move).applied
    return game_id


def server_forced(page, game_id: int) -> list[str] | None:
    view = page.evaluate(
        """async (id) => (await fetch(`/api/games/${id}/`, {headers:
        {Authorization: `Token ${localStorage.getItem("pyramid.token")}`}})).json()""",
        game_id,
    )
    return view["position"]["forced"]


def test_finish_plays_the_forced_moves_left(page):
    assert FORCED and len(FORCED) >= 3
    game_id = game_at_the_forced_end(page)
    assert server_forced(page, game_id) == FORCED
    page.reload()
    wait_for_moves(page, len(PREFIX))
    finish = page.get_by_role("button", name="Finish", exact=True)
    expect(finish).to_be_visible()
    finish.click()
    wait_for_moves(page, len(PREFIX) + len(FORCED))
    expect(page.locator(".result-card h2")).to_be_visible()
    assert log_notations(Game.objects.get(pk=game_id).move_log) == PREFIX + FORCED


def test_finish_by_itself_when_the_player_turned_it_on(page):
    game_id = game_at_the_forced_end(page)
    assert server_forced(page, game_id) == FORCED
    page.reload()
    wait_for_moves(page, len(PREFIX))
    expect(page.locator("#finish")).to_be_visible()
    auto = page.locator("#auto-finish")
    expect(auto).to_have_attribute("aria-pressed", "false")
    auto.click()  # the choice is this browser's, kept for the next games too
    expect(auto).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("localStorage.getItem('pyramid.autoFinish')") == "on"
    wait_for_moves(page, len(PREFIX) + len(FORCED))
    expect(page.locator(".result-card h2")).to_be_visible()
    assert log_notations(Game.objects.get(pk=game_id).move_log) == PREFIX + FORCED
