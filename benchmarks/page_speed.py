"""The web page as a player meets it: from opening the practice page to a playable table, and from a click
to the board drawn again.

Starts the service as the README's run command does (SQLite in a fresh folder, tasks in-process; gunicorn
with one worker and DEBUG off, static files by WhiteNoise, as deployed), and drives Debian's Chromium
(Playwright, headless, cache off, each run a new browser context):

- **first load to a playable table**: open ``/#/practice``, deal a practice deal by number, until the
  table's cards are drawn: the requests made, the bytes they fetched (bodies as sent, compressed where
  they were) and the milliseconds, median of ``--runs``;
- **click to board update**: each move of a winning line played by clicks (draws by the D key), from the
  click on its last card to the board showing the new move count: median and 95th percentile over every move.

    .venv/bin/python benchmarks/page_speed.py
    .venv/bin/python benchmarks/page_speed.py --root /tmp/before   # a checkout of an older commit
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import start_service  # noqa: E402
from engine import Position, deal_from_number, preset  # noqa: E402
from engine.solver import WINNABLE, solve  # noqa: E402


def winnable_deal() -> tuple[int, list[str]]:
    """The first one-look deal the solver wins, and its line."""
    for number in range(1, 1000):
        solution = solve(Position.start(deal_from_number(number), preset("one-look")), grade=False)
        if solution.verdict == WINNABLE:
            return number, solution.solution
    raise SystemExit("no winnable one-look deal among 1 to 999")


WINNABLE_ONE_LOOK, WINNING_LINE = winnable_deal()


def deal(page) -> None:
    """The practice page opened, the winnable deal dealt by number, until its cards are drawn. A page that
    asks for an account first (older versions) gets one made through its API, as a newcomer would sign up."""
    page.goto("/#/practice")
    field = page.get_by_label("Deal number")
    page.wait_for_selector("input[name=number], input[name=username]")
    if not field.count():
        page.evaluate("""async () => {
            const r = await fetch('/api/accounts/signup/', {
                method: 'POST', headers: {'Content-Type': 'application/json'},
                body: JSON.stringify({username: 'p' + Math.random().toString(36).slice(2, 12),
                                      password: 'a-long-pass-phrase'})});
            const {token, ...user} = await r.json();
            localStorage.setItem('pyramid.token', token);
            localStorage.setItem('pyramid.user', JSON.stringify(user));
        }""")
        page.goto("/#/practice")
    field.fill(str(WINNABLE_ONE_LOOK))
    page.get_by_label("Rules").select_option("one-look")
    page.get_by_role("button", name="Deal").click()
    page.locator(".pyramid .card").first.wait_for()


def first_load(browser, url: str) -> tuple[int, int, float]:
    context = browser.new_context(base_url=url, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    fetched = []
    page.on("requestfinished", lambda request: fetched.append(request))
    started = time.perf_counter()
    deal(page)
    took = (time.perf_counter() - started) * 1000
    sizes = sum(request.sizes()["responseBodySize"] for request in fetched)
    context.close()
    return len(fetched), sizes, took


def clicks(browser, url: str) -> list[float]:
    context = browser.new_context(base_url=url, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    deal(page)
    times = []
    for ply, move in enumerate(WINNING_LINE, start=1):
        if move in ("draw", "redeal"):  # D, as the stock's own card may be face up and playable here
            started = time.perf_counter()
            page.keyboard.press("d")
        else:
            locations = move.split("+")
            for location in locations[:-1]:
                page.locator(f'.board [data-loc="{location}"]').click()
            last = page.locator(f'.board [data-loc="{locations[-1]}"]')
            last.wait_for()
            started = time.perf_counter()
            last.click()
        page.wait_for_function(f"document.getElementById('moves')?.textContent === '{ply}'")
        times.append((time.perf_counter() - started) * 1000)
    context.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument(
        "--root", type=Path, default=ROOT, help="the source tree to serve (an older checkout, for a before-and-after)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server, url = start_service(
            Path(folder), args.root, secret="page-speed-benchmark", env={"PYRAMID_THROTTLE_SIGNUP": "100000/hour"}
        )
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
                first_load(browser, url)  # the server's first requests (imports, the day's deals) not counted
                loads = [first_load(browser, url) for _ in range(args.runs)]
                moves = [t for _ in range(2) for t in clicks(browser, url)]
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=20)
    requests, sizes = loads[-1][0], statistics.median(s for _, s, _ in loads)
    print(
        f"first load to a playable table: {requests} requests, {sizes / 1024:.1f} KiB, "
        f"median {statistics.median(t for *_, t in loads):.0f} ms over {args.runs} new browser contexts"
    )
    ordered = sorted(moves)
    print(
        f"click to board update: median {statistics.median(moves):.0f} ms, p95 "
        f"{ordered[int(0.95 * (len(ordered) - 1))]:.0f} ms over {len(moves)} moves"
    )


if __name__ == "__main__":
    main()
