"""The page's shell: the light and dark themes (the system's, or the switch's, kept by the browser and applied
before anything is drawn), the web app manifest and its icons, the content-named static files cached for good,
the service worker that shows the shell and an offline banner when the network is gone, and a header on one line
in Swedish and German, on a phone and a desktop."""

from __future__ import annotations

import json
import re
import struct

from playwright.sync_api import expect

from .conftest import DESKTOP
from .helpers import route_bell

HASHED = re.compile(r"^/static/web/(?:[\w/-]+/)?[\w-]+\.[0-9a-f]{12}\.(?:js|css|svg|png)$")
A_YEAR = 365 * 24 * 3600


def background(page) -> str:
    return page.evaluate("getComputedStyle(document.documentElement).backgroundColor")


def test_the_theme_follows_the_system_and_the_switch_overrides_it_for_good(browser, site):
    # no service worker: the reload below must reach the server, where the modules are held back
    context = browser.new_context(viewport=DESKTOP, base_url=site, color_scheme="light", service_workers="block")
    page = context.new_page()
    try:
        page.goto("/")
        switch = page.get_by_role("combobox", name="Theme")
        expect(switch).to_have_value("system")
        light = background(page)
        theme_colours = page.locator('meta[name="theme-color"]')
        light_bar = theme_colours.nth(1).get_attribute("content")
        page.emulate_media(color_scheme="dark")
        dark = background(page)
        assert light != dark, "the page follows prefers-color-scheme"
        assert page.evaluate("document.documentElement.dataset.theme") is None

        # the system is dark; the player chooses light: it shows at once and is kept
        switch.select_option("light")
        expect(page.locator("html")).to_have_attribute("data-theme", "light")
        assert background(page) == light
        assert page.evaluate("localStorage.getItem('pyramid.theme')") == "light"
        # the browser's bar follows the choice too
        assert theme_colours.evaluate_all("(metas) => metas.map((m) => m.content)") == [light_bar, light_bar]

        # a new visit shows light before any module runs (no flash of the dark theme): the modules are held back
        page.route(re.compile(r"/static/web/.*\.js$"), lambda route: route.abort())
        page.reload(wait_until="domcontentloaded")
        expect(page.locator("html")).to_have_attribute("data-theme", "light")
        assert background(page) == light
        page.unroute(re.compile(r"/static/web/.*\.js$"))
        page.reload()
        expect(switch).to_have_value("light")

        # dark chosen on a light system; then the system's again
        page.emulate_media(color_scheme="light")
        switch.select_option("dark")
        assert background(page) == dark
        switch.select_option("system")
        expect(page.locator("html")).not_to_have_attribute("data-theme", re.compile("."))
        assert background(page) == light
        assert page.evaluate("localStorage.getItem('pyramid.theme')") is None
    finally:
        context.close()


def png_size(body: bytes) -> tuple[int, int]:
    assert body[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", body[16:24])


def test_the_manifest_names_the_app_and_its_icons(browser, site):
    context = browser.new_context(base_url=site, service_workers="block")
    page = context.new_page()
    try:
        page.goto("/")
        href = page.locator('link[rel="manifest"]').get_attribute("href")
        answer = page.request.get(href)
        assert answer.ok and answer.headers["content-type"] == "application/manifest+json"
        manifest = json.loads(answer.body())
        assert manifest["name"] and manifest["short_name"] == "Pyramid"
        assert manifest["start_url"] == "/" and manifest["scope"] == "/" and manifest["display"] == "standalone"
        assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
        assert re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])
        light = manifest["user_preferences"]["color_scheme_light"]
        assert light["theme_color"] != manifest["theme_color"]
        # the two schemes' bar colours are the page's too
        metas = page.locator('meta[name="theme-color"]')
        assert metas.evaluate_all("(ms) => ms.map((m) => [m.media, m.content])") == [
            ["(prefers-color-scheme: dark)", manifest["theme_color"]],
            ["(prefers-color-scheme: light)", light["theme_color"]],
        ]

        icons = {(icon["sizes"], icon["purpose"]): icon for icon in manifest["icons"]}
        assert set(icons) == {("any", "any"), ("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
        for (sizes, _), icon in icons.items():
            answer = page.request.get(icon["src"])
            assert answer.ok and answer.headers["content-type"] == icon["type"], icon
            if icon["type"] == "image/png":
                assert png_size(answer.body()) == tuple(map(int, sizes.split("x")))
            else:
                assert b"<svg" in answer.body()
        touch = page.request.get(page.locator('link[rel="apple-touch-icon"]').get_attribute("href"))
        assert touch.ok and png_size(touch.body()) == (180, 180)
    finally:
        context.close()


def test_the_static_files_are_named_by_their_content_and_cached_for_good(browser, site):
    context = browser.new_context(base_url=site, service_workers="block")
    page = context.new_page()
    answers = []
    page.on("response", lambda response: answers.append(response) if "/static/" in response.url else None)
    try:
        page.goto("/")
        page.wait_for_load_state("networkidle")
        paths = {re.sub(r"^https?://[^/]+", "", answer.url): answer for answer in answers}
        # the style sheet, the icon, every module the page imported (lit-html's too, where a page uses it)
        assert {"style", "app", "shell", "api", "i18n", "table"} <= {
            path.rsplit("/", 1)[1].split(".")[0] for path in paths
        }
        for path, answer in paths.items():
            assert HASHED.match(path), f"{path} is not named by its content"
            assert answer.status == 200, path
            cache = answer.headers["cache-control"]
            assert "immutable" in cache and int(re.search(r"max-age=(\d+)", cache)[1]) >= A_YEAR, (path, cache)
        # a module's imports name the other modules by their content too (collectstatic rewrote them)
        app = next(answer for path, answer in paths.items() if "/app." in path).text()
        imports = re.findall(r'from "(\./[^"]+)"', app)
        assert imports and all(re.fullmatch(r"\./[\w-]+\.[0-9a-f]{12}\.js", name) for name in imports), imports
    finally:
        context.close()


def test_offline_after_one_visit_the_shell_shows_with_an_offline_banner(browser, site):
    context = browser.new_context(viewport=DESKTOP, base_url=site, service_workers="allow")
    page = context.new_page()
    try:
        # a cache of an earlier release, which the new worker deletes when it takes over
        page.goto("/manifest.webmanifest")
        page.evaluate("caches.open('pyramid-shell-0123456789abcdef').then((c) => c.put('/x', new Response('old')))")
        answer = page.goto("/")
        version = answer.headers["x-shell-version"]
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        assert page.evaluate("caches.keys()") == [f"pyramid-shell-{version}"]
        cached = page.evaluate("""async () => (await (await caches.open((await caches.keys())[0])).keys())
            .map((request) => new URL(request.url).pathname)""")
        assert "/" in cached and "/i18n/sv.json" in cached and "/manifest.webmanifest" in cached
        assert any(re.fullmatch(r"/static/web/app\.[0-9a-f]{12}\.js", path) for path in cached)
        assert not any(path.startswith("/api/") for path in cached)  # the API is never kept
        expect(page.locator("#network")).to_be_empty()

        context.set_offline(True)
        page.reload()
        expect(page.locator("header.bar")).to_be_visible()
        banner = page.get_by_role("status").filter(has_text="You are offline")
        expect(banner).to_be_visible()
        expect(page.locator("#view")).not_to_be_empty()  # the page itself, not the browser's error page
        context.set_offline(False)
        expect(banner).to_have_count(0)

        # a request that fails for the network's sake says so (the event api.js may send, network.js)
        page.evaluate("dispatchEvent(new CustomEvent('network', {detail: {online: false}}))")
        expect(page.get_by_role("status").filter(has_text="The server cannot be reached")).to_be_visible()
        page.evaluate("dispatchEvent(new CustomEvent('network', {detail: {online: true}}))")
        expect(page.locator("#network")).to_be_empty()
    finally:
        context.close()


def make_account(page, kind: str, name: str) -> None:
    """A guest or a signed-up player in this browser, as the page keeps them."""
    answer = page.evaluate(
        """async ([kind, name]) => {
        const r = await fetch(kind === 'guest' ? '/api/accounts/guest/' : '/api/accounts/signup/', {
            method: 'POST', credentials: 'omit',
            headers: {'Content-Type': 'application/json'},
            body: kind === 'guest' ? '{}' : JSON.stringify({username: name, password: 'a-long-pass-phrase'})});
        const user = await r.json();
        localStorage.setItem('pyramid.token', user.token);
        const {token, ...rest} = user; localStorage.setItem('pyramid.user', JSON.stringify(rest));
        return [r.status, user];
    }""",
        [kind, name],
    )
    assert answer[0] == 201, answer


def test_the_header_is_one_line_in_swedish_and_german_on_a_phone_and_a_desktop(browser, site):
    context = browser.new_context(viewport={"width": 360, "height": 740}, base_url=site, service_workers="block")
    page = context.new_page()
    try:
        route_bell(page)  # a player's header has the bell too, a count on it
        page.goto("/")
        for who in ("visitor", "guest", "player"):
            if who != "visitor":
                make_account(page, who, "Långtnamnpåspelaren")
            for language in ("sv", "de"):
                page.evaluate("(code) => localStorage.setItem('pyramid.language', code)", language)
                for width in (360, 1280):
                    page.set_viewport_size({"width": width, "height": 740})
                    page.goto("/#/rules/classic")
                    page.reload()
                    expect(page.locator("html")).to_have_attribute("lang", language)
                    expect(page.locator("#menu a").first).not_to_have_text("Today")  # the catalogue is in
                    where = f"{who}, {language}, {width} px"
                    if who == "player":
                        expect(page.locator(".bell-count")).to_have_text("2")
                    row = page.locator("header.bar > :visible").evaluate_all(
                        "(items) => items.map((item) => item.getBoundingClientRect()).map((r) => [r.top, r.bottom])"
                    )
                    tops = {round(top) for top, _ in row}
                    assert len(tops) == 1 or max(tops) - min(tops) < 12, f"{where}: the header wraps: {row}"
                    assert page.locator("header.bar").bounding_box()["height"] <= 56, where
                    assert page.evaluate("document.documentElement.scrollWidth") <= width, where
                    if width == 360:  # the pages, the language and the theme open under the Menu button
                        page.locator("#menu-button").click()
                        expect(page.locator("#language")).to_be_visible()
                        expect(page.locator("#theme")).to_be_visible()
                        assert page.evaluate("document.documentElement.scrollWidth") <= width, where
    finally:
        context.close()
