"""A real browser (Debian's Chromium, headless, driven by Playwright) against the live service.

The tests take screenshots as they go. They write them to ``tests/web/screenshots/`` (ignored by git), so
that a test run changes no tracked file. To refresh the README's pictures in ``docs/screenshots/``, run
the same tests with ``PYRAMID_REFRESH_SCREENSHOTS=1``, from the repository's root:

    PYRAMID_REFRESH_SCREENSHOTS=1 bash .ci/run tests/web

(or, with the services already up and the environment of ``.ci/run`` exported,
``PYRAMID_REFRESH_SCREENSHOTS=1 .venv/bin/python -m pytest tests/web``), then look at the pictures and
commit them.

The browser reads the test's clock: every context the ``browser`` fixture opens installs Playwright's clock at the
test's pinned time (tests/conftest.py ``pinned_clock``), running on at the real pace from there, as the server's
does. The page's dates, "today" and countdowns then agree with the server's whatever the hour of the run.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
from pathlib import Path

import pytest
from django.core.cache import cache

import engine
from games.daily import commitment, new_salt
from games.models import DailyDeal, Deal
from games.services.deals import deal_get_or_create, deal_solve
from pyramid_site.clock import utc_today

CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
# where screenshots go: an ignored folder, or the README's pictures when they are being refreshed
REFRESH_SCREENSHOTS = os.environ.get("PYRAMID_REFRESH_SCREENSHOTS", "").strip().lower() in ("1", "true", "yes")
DOCS_SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SCREENSHOTS = DOCS_SCREENSHOTS if REFRESH_SCREENSHOTS else Path(__file__).resolve().parent / "screenshots"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
DEAL_NUMBER = 3  # a classic deal the depth-first search wins at once
CLASSIC = engine.preset("classic")


@pytest.fixture(scope="session", autouse=True)
def collected_static(tmp_path_factory):
    """The page's files as production serves them: collected (collectstatic), each named by its content
    (pyramid_site/web/storage.py), before the live server starts serving them."""
    from django.core.management import call_command
    from django.test.utils import override_settings

    with override_settings(STATIC_ROOT=str(tmp_path_factory.mktemp("static"))):
        call_command("collectstatic", interactive=False, verbosity=0)
        yield


@pytest.fixture(scope="session")
def live_server(request, collected_static):
    """pytest-django's live server, its static files served as in production: by WhiteNoise, from the collected
    files (Django's development handler, which pytest-django puts in front, knows the apps' plain names only)."""
    from pytest_django.live_server_helper import LiveServer

    address = request.config.getvalue("liveserver") or os.getenv("DJANGO_LIVE_TEST_SERVER_ADDRESS") or "localhost"
    server = LiveServer(address, start=False)
    server.thread.static_handler = lambda application: application
    server.start()
    yield server
    server.stop()


class PinnedBrowser:
    """The browser, each of whose new contexts reads the clock of the test that opens it (the pinned clock, or the
    machine's in a test marked ``real_clock``): its ``Date``, timers and ``performance`` start at that time and run
    on from there."""

    def __init__(self, browser):
        self._browser = browser

    def new_context(self, **options):
        context = self._browser.new_context(**options)
        context.clock.install(time=dt.datetime.now(dt.UTC))
        return context

    def __getattr__(self, name):
        return getattr(self._browser, name)


@pytest.fixture(scope="module")
def browser(django_db_setup, django_db_blocker):
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is missing at {CHROMIUM}: apt-get install chromium (bash .ci/services does)")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop running in this thread, which Django takes for async
    # code; the database work of these tests is plain synchronous code, so the guard is lifted here only.
    guard = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM,
                args=[
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    "--no-first-run",
                ],
            )
            yield PinnedBrowser(browser)
            browser.close()
    finally:
        if guard is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = guard


@pytest.fixture
def site(live_server, settings):
    cache.clear()  # the sign-up throttle counts in the cache
    # the browser plays at machine speed, which the speed rule would flag (and hold off the boards)
    settings.PYRAMID_FLAG_FASTEST_MOVE_MS = 0
    return live_server.url


@pytest.fixture
def page(browser, site):
    context = browser.new_context(viewport=DESKTOP, base_url=site)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site)
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def screenshot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / name), full_page=True, type="jpeg", quality=85)


@pytest.fixture
def daily_line(db) -> list[str]:
    """Today's classic daily deal (DEAL_NUMBER), solved as the daily job solves it; its line is a
    fewest-moves win, which the engine confirms by replaying it."""
    deal = deal_solve(deal_id=deal_get_or_create(number=DEAL_NUMBER, rules=CLASSIC).pk)
    line = deal.solution.split()
    replayed = engine.replay(engine.deal_from_number(DEAL_NUMBER), CLASSIC, line)
    assert replayed.failed_at is None and replayed.position.status == engine.WON
    assert deal.status == Deal.Status.WINNABLE and len(line) == deal.par_moves
    salt = new_salt()
    DailyDeal.objects.create(
        date=utc_today(), preset="classic", deal=deal, attempt=0, salt=salt, commitment=commitment(deal.text, salt)
    )
    return line
