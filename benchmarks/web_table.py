"""The game table in a browser, before and after a change, in one run: a click on the stock to the table showing the
new stock count, and the first load of a game's address to its first card being pressable.

Each checkout given (``--root``, one or more source trees; the default is this one) is served as deployed:
gunicorn with one worker, DEBUG off, static files by WhiteNoise, SQLite in a fresh folder, tasks in-process, the
checkout's own code first on the Python path, all of them at once. Debian's Chromium (Playwright, headless) drives
them in turns (a new game's draws and a first load on each, then again), so that the load of the shared machine
falls on every checkout alike:

- **click to update**: a practice game of classic deal 3 whose stock is drawn card by card: the mouse pressed on
  the stock (the real input, at its place on the screen, once the previous card has stopped moving), to the
  DOM showing the stock count one less (a MutationObserver in the page) and to the next frame after it; a new
  game each turn (24 draws at most), ``--draws`` draws in all;
- **first load**: a new browser context opens ``/#/game/<id>`` of a game of its guest: from the navigation's
  start (``performance.timeOrigin``) to the first card of the board in the DOM as a button, median of ``--loads``.

    .venv/bin/python benchmarks/web_table.py --root ../table-before --root .
    (git worktree add ../table-before 4c2ecbe, then git worktree remove it)
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright
from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import start_service  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
DEAL = 3

# recorded in the page: the press on the stock, and when the stock count changes (and the frame after it)
PROBE = """
window.__t = {down: null, updated: null, painted: null, first: null, count: null};
document.addEventListener("pointerdown", () => { window.__t.down = performance.now(); }, true);
new MutationObserver(() => {
  const t = window.__t;
  const card = document.querySelector(".board button[data-loc]");
  if (card && t.first === null) t.first = performance.now();
  const count = document.getElementById("stock-count")?.textContent ?? null;
  if (count !== t.count) {
    t.count = count;
    t.updated = performance.now();
    requestAnimationFrame(() => { t.painted = performance.now(); });
  }
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


# the table is pressed far faster than a person plays: the throttles and the speed rule lifted
UNTHROTTLED = {
    "PYRAMID_THROTTLE_GAME_START": "100000/min",
    "PYRAMID_THROTTLE_GAME_START_ADDRESS": "100000/min",
    "PYRAMID_THROTTLE_MOVE": "100000/min",
    "PYRAMID_THROTTLE_MOVE_ADDRESS": "100000/min",
    "PYRAMID_THROTTLE_GUEST": "100000/hour",
    "PYRAMID_FLAG_FASTEST_MOVE_MS": "0",
}


def new_game(page) -> None:
    page.goto("/#/practice")
    page.get_by_label("Deal number").fill(str(DEAL))
    page.get_by_label("Rules").select_option("classic")
    page.get_by_role("button", name="Deal").click()
    page.locator('.board [data-loc="stock"]').wait_for()


def still(page) -> None:
    """Nothing moving on the page (a drawn card's slide over): the next press lands where the player sees."""
    page.wait_for_function("document.getAnimations().every((a) => a.playState !== 'running')", polling="raf")


def draws(browser, url: str, count: int) -> list[tuple[float, float]]:
    """`count` draws (at most one game's stock) in a new game: (press → DOM, press → next frame) of each."""
    context = browser.new_context(base_url=url, viewport={"width": 1280, "height": 900})
    context.add_init_script(PROBE)
    page = context.new_page()
    page.set_default_timeout(10_000)
    new_game(page)
    times = []
    while len(times) < count:
        stock = int(page.locator("#stock-count").inner_text())
        if stock == 0:
            break
        still(page)
        box = page.locator('.board [data-loc="stock"]').bounding_box()
        page.evaluate("window.__t.updated = window.__t.painted = null")
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_function(
            f"document.getElementById('stock-count')?.textContent === '{stock - 1}' && window.__t.painted !== null",
            polling="raf",
        )
        t = page.evaluate("window.__t")
        times.append((t["updated"] - t["down"], t["painted"] - t["down"]))
    context.close()
    return times


def game_address(browser, url: str) -> tuple[str, dict]:
    """A game of a new guest: its address and the browser storage that holds the guest's token."""
    setup = browser.new_context(base_url=url)
    page = setup.new_page()
    new_game(page)
    address, storage = page.url, setup.storage_state()
    setup.close()
    return address, storage


def first_load(browser, url: str, address: str, storage: dict) -> float:
    context = browser.new_context(base_url=url, viewport={"width": 1280, "height": 900}, storage_state=storage)
    context.add_init_script(PROBE)
    page = context.new_page()
    page.goto(address)
    page.wait_for_function("window.__t.first !== null", polling="raf")
    took = page.evaluate("window.__t.first")
    context.close()
    return took


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, action="append", help="a checkout to serve (repeat for several)")
    parser.add_argument("--draws", type=int, default=100)
    parser.add_argument("--loads", type=int, default=10)
    args = parser.parse_args()
    roots = [root.resolve() for root in (args.root or [ROOT])]
    console = Console(width=140)
    names, servers, urls = [], [], []
    folders = [tempfile.TemporaryDirectory() for _ in roots]
    try:
        for root, folder in zip(roots, folders, strict=True):
            commit = subprocess.run(
                ["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True
            ).stdout.strip()
            dirty = subprocess.run(
                ["git", "status", "--porcelain", "--", "pyramid_site"], cwd=root, capture_output=True, text=True
            ).stdout.strip()
            names.append(f"{root.name} ({commit}{'+' if dirty else ''})")
            console.print(f"[bold]{names[-1]}[/bold]: serving {root}")
            server, url = start_service(Path(folder.name), root, secret="web-table-benchmark", env=UNTHROTTLED)
            servers.append(server)
            urls.append(url)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            games = [game_address(browser, url) for url in urls]
            for url, (address, storage) in zip(urls, games, strict=True):  # the servers' first requests, not counted
                first_load(browser, url, address, storage)
            # the checkouts take turns, a game's draws and a first load each, so that the shared machine's
            # load falls on all of them alike
            clicks = [[] for _ in roots]
            loads = [[] for _ in roots]
            rounds = 0
            while any(len(c) < args.draws for c in clicks) or any(len(x) < args.loads for x in loads):
                rounds += 1
                for i, url in enumerate(urls):
                    if len(clicks[i]) < args.draws:
                        clicks[i] += draws(browser, url, min(24, args.draws - len(clicks[i])))
                    if len(loads[i]) < args.loads:
                        loads[i].append(first_load(browser, url, *games[i]))
            browser.close()
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=20)
        for folder in folders:
            folder.cleanup()
    results = [
        (name, [a for a, _ in c], [b for _, b in c], rounds, x) for name, c, x in zip(names, clicks, loads, strict=True)
    ]
    table = Table(title=f"the game table: {args.draws} draws by mouse, {args.loads} first loads")
    for column in (
        "checkout",
        "click → DOM p50",
        "p99",
        "click → next frame p50",
        "p99",
        "first load → card, median",
        "max",
    ):
        table.add_column(column, justify="right" if column != "checkout" else "left")
    for name, to_dom, to_frame, _rounds, loads in results:
        table.add_row(
            name,
            f"{statistics.median(to_dom):.1f} ms",
            f"{percentile(to_dom, 99):.1f} ms",
            f"{statistics.median(to_frame):.1f} ms",
            f"{percentile(to_frame, 99):.1f} ms",
            f"{statistics.median(loads):.0f} ms",
            f"{max(loads):.0f} ms",
        )
    console.print(table)
    console.print(f"{rounds} rounds, the checkouts taking turns: a new game's draws (24 at most) and a first load each")


if __name__ == "__main__":
    main()
