"""A real browser (Debian's Chromium, headless, driven by Playwright) against the live service."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from django.core.cache import cache

CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


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
                args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                      "--disable-component-update", "--disable-sync", "--no-first-run"],
            )
            yield browser
            browser.close()
    finally:
        if guard is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = guard


@pytest.fixture
def site(live_server):
    cache.clear()  # the sign-up throttle counts in the cache
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
