"""The table's move queue against a failing network: a script of taps with the connection lost, answers lost
after the server played the move, 503 with Retry-After and 500, an undo whose answer is lost, and another tab
playing meanwhile (409 wrong_ply). The table says it is reconnecting, sends the same ply again, resumes by itself,
and in the end the server's move log is exactly what the player did: nothing lost, nothing played twice."""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect

import engine
from games.models import Game
from games.move_log import log_notations
from games.services.play import move_submit

from .conftest import CLASSIC, DEAL_NUMBER
from .helpers import card, find_winning_line, play_move, wait_for_moves

MOVES = "**/api/games/*/moves/"


def lose_the_answer(route):
    """The request reaches the server (which plays the move), the answer never comes back."""
    route.fetch()
    route.abort("connectionreset")


def test_taps_through_a_failing_network_reach_the_server_once_each_in_order(page):
    line = find_winning_line(engine.Position.start(engine.deal_from_number(DEAL_NUMBER), CLASSIC))
    assert line[:12] == ["24", "21+25", "draw", "18+W", "draw", "draw", "23+W", "draw", "17+W", "12", "draw", "draw"]
    sent: list[dict] = []
    page.on(
        "request",
        lambda request: (
            sent.append(json.loads(request.post_data))
            if request.method == "POST" and request.url.endswith("/moves/")
            else None
        ),
    )
    page.goto("/#/practice")
    page.get_by_label("Deal number").fill(str(DEAL_NUMBER))
    page.get_by_label("Rules").select_option("classic")
    page.get_by_role("button", name="Deal").click()
    expect(page.locator(".tag")).to_have_text("Practice")
    game_id = int(page.url.rsplit("/", 1)[1])
    connection = page.locator("#connection[role=status]")

    for ply in range(1, 5):  # '24', '21+25', 'draw', '18+W' on a good network
        play_move(page, line[ply - 1])
        wait_for_moves(page, ply)

    # offline: two quick taps on the stock wait in the queue, the table says so, and both are played once online
    page.context.set_offline(True)
    stock = card(page, "stock")
    stock.click()
    stock.click()
    expect(connection).to_have_text(re.compile(r"^Reconnecting…"))
    expect(page.locator("#moves")).to_have_text("4")
    page.context.set_offline(False)
    wait_for_moves(page, 6)
    expect(connection).to_have_text("")

    # the server plays the pair but its answer is lost: the same ply is sent again and answered `applied: false`
    page.route(MOVES, lose_the_answer, times=1)
    before = len(sent)
    play_move(page, "23+W")
    wait_for_moves(page, 7)
    assert [body["ply"] for body in sent[before:]] == [7, 7], sent[before:]

    # 503 with Retry-After, then a 500: each is tried again after its wait, the table resumes by itself
    page.route(
        MOVES,
        lambda route: route.fulfill(
            status=503,
            headers={"Retry-After": "1"},
            content_type="application/json",
            body='{"code": "database_unavailable", "message": "not answering"}',
        ),
        times=1,
    )
    play_move(page, "draw")
    expect(connection).to_have_text(re.compile(r"^Reconnecting…"))
    wait_for_moves(page, 8)
    page.route(
        MOVES,
        lambda route: route.fulfill(
            status=500, content_type="application/json", body='{"code": "server_error", "message": "oops"}'
        ),
        times=1,
    )
    play_move(page, "17+W")
    wait_for_moves(page, 9)
    play_move(page, "12")
    wait_for_moves(page, 10)

    # an undo whose answer is lost is not sent again once the game shows it went through: one move taken back
    page.route("**/api/games/*/undo/", lose_the_answer, times=1)
    page.keyboard.press("u")
    wait_for_moves(page, 9)
    expect(page.locator("#message")).to_have_text("Move taken back.")

    # another tab draws meanwhile: this table's king (sent as ply 10, held on the way) meets 409 wrong_ply; the
    # table takes the game from the server, drops the tap on the stock still waiting behind it, and says so
    game = Game.objects.get(pk=game_id)
    held = []
    page.route(MOVES, lambda route: held.append(route), times=1)
    with page.expect_request(MOVES):
        card(page, "12").click()
    stock.click()  # waits in the queue behind the king
    assert move_submit(game_id=game_id, player=game.player, ply=10, move="draw").applied
    held[0].continue_()
    expect(page.locator("#message")).to_have_text(
        "This table was behind the game: it now shows the game as the server has it. "
        "1 move you asked for was not played."
    )
    wait_for_moves(page, 10)
    play_move(page, "12")  # and the table goes on
    wait_for_moves(page, 11)
    play_move(page, "draw")
    wait_for_moves(page, 12)

    game.refresh_from_db()
    assert log_notations(game.move_log) == [*line[:9], "draw", "12", "draw"]
    assert game.undo_count == 1


def test_a_table_left_while_its_game_loads_draws_nothing_and_plays_nothing(page):
    page.goto("/#/practice")
    page.get_by_label("Deal number").fill(str(DEAL_NUMBER))
    page.get_by_label("Rules").select_option("classic")
    page.get_by_role("button", name="Deal").click()
    expect(page.locator(".tag")).to_have_text("Practice")
    address = page.url
    moves = []
    page.on("request", lambda request: moves.append(request.url) if request.method == "POST" else None)
    held = []
    page.route("**/api/games/*/", lambda route: held.append(route), times=1)
    page.goto("/#/rules/classic")
    with page.expect_request("**/api/games/*/"):
        page.goto(address)
    page.goto("/#/rules/classic")  # left before the game's answer came
    expect(page.locator("h1")).to_have_text("Rules: classic")
    try:
        held[0].continue_()
    except Exception:  # noqa: BLE001 - the page aborted the request when it closed: nothing to answer
        pass
    page.keyboard.press("d")
    page.keyboard.press("u")
    expect(page.locator("h1")).to_have_text("Rules: classic")
    expect(page.locator(".table")).to_have_count(0)
    assert page.evaluate("fetch('/health/live/').then((r) => r.status)") == 200  # a round trip: the keys had their turn
    assert moves == []
