"""The page's live updates (live.js, docs/web.md "Live updates"): the event-stream parser against the HTML standard's
rules; a stream followed over fetch() that resumes with Last-Event-ID and re-reads after a reset; the WSGI test
server (which serves no streams: 503 live_unavailable) answered by polling with ETags; the header's bell over
stand-in answers of its endpoints; a move from another device reaching the table (polled, then streamed); and a
real uvicorn process whose stream brings a standing onto the tournament page without a reload, falls back to
polling when the server goes away and is live again when it comes back."""

from __future__ import annotations

import json
import os
import tempfile
import uuid

import httpx
import pytest
import redis
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone
from playwright.sync_api import expect

from tests.asgi_server import AsgiServer

from .conftest import DESKTOP, PHONE, screenshot
from .helpers import route_bell, sign_up

LIVE_JS = "/static/web/live.js"
PASSWORD = "a-long-pass-phrase"
WAIT = 30_000  # ms any one awaited change may take on a loaded machine (reconnects back off)


def parse(page, pieces) -> dict:
    return page.evaluate(
        """async (pieces) => (await import(LIVE_JS)).parseEventStream(pieces)""".replace("LIVE_JS", repr(LIVE_JS)),
        pieces,
    )


def test_the_event_stream_parser_follows_the_html_standard(page):
    page.goto("/")
    ev = lambda type_, data, id_="": {"type": type_, "data": data, "id": id_}  # noqa: E731

    got = parse(page, 'retry: 1234\n\nid: 5-0\n\nid: 5-1\nevent: standing\ndata: {"a":1}\n\n')
    assert got == {"events": [ev("standing", '{"a":1}', "5-1")], "retry": [1234], "lastEventId": "5-1"}
    # data lines joined by LF; one space after the colon dropped, no more; a field with no colon has ""
    got = parse(page, "data: a\ndata:b\ndata:  c\ndata\n\n")
    assert got["events"] == [ev("message", "a\nb\n c\n")]
    # CRLF, CR and LF line ends, and a CRLF split between two pieces, end one line each (no empty line between)
    got = parse(page, ["data: x\r", "\n", "\r\ndata: y\r\rdata: z\n", "\n"])
    assert [e["data"] for e in got["events"]] == ["x", "y", "z"]
    got = parse(page, ["data: a\r", "\ndata: b\r\n\r\n"])
    assert [e["data"] for e in got["events"]] == ["a\nb"]
    # a line or a character split anywhere between pieces
    text = 'id: 1-0\nevent: result\ndata: {"player": "Åsa"}\n\n'
    assert [parse(page, [text[:i], text[i:]])["events"] for i in range(len(text))] == [
        [ev("result", '{"player": "Åsa"}', "1-0")]
    ] * len(text)
    # comments (the keep-alive) and unknown fields are ignored; the type is reset after each event
    got = parse(page, ": keep-alive\n\nfoo: bar\nevent: joined\ndata: 1\n\ndata: 2\n\n")
    assert got["events"] == [ev("joined", "1"), ev("message", "2")]
    # a block without data dispatches nothing, and its type does not carry over
    got = parse(page, "event: joined\n\ndata: 3\n\n")
    assert got["events"] == [ev("message", "3")]
    # the id stays from one event to the next; an id holding NUL is ignored; an empty id clears it
    got = parse(page, "id: 7\ndata: a\n\ndata: b\n\nid: 8\u0000\ndata: c\n\nid\ndata: d\n\n")
    assert [e["id"] for e in got["events"]] == ["7", "7", "7", ""]
    # retry only with ASCII digits; a BOM at the very start dropped; an event left unfinished is not dispatched
    got = parse(page, "\ufeffretry: 12a\nretry: 50\ndata: first\n\ndata: lost")
    assert got["retry"] == [50] and got["events"] == [ev("message", "first")]


FOLLOW = """async ({path, wanted}) => {
    const { follow } = await import(LIVE_JS);
    const seen = { events: [], states: [], polls: 0 };
    window.followed = seen;
    window.following = follow(path, {
        onEvent: (type, payload, id) => seen.events.push([type, payload, id]),
        onState: (state) => seen.states.push(state),
        poll: async () => { seen.polls += 1; },
        pollMs: 60000,
    });
}""".replace("LIVE_JS", repr(LIVE_JS))


def test_a_stream_followed_over_fetch_resumes_with_last_event_id_and_reads_again_after_a_reset(page):
    """Each answer of the stand-in stream ends it: the client comes back after the `retry:` it was told, with the
    id of the last event it saw, and a `reset` makes it read the resource again."""
    answers = [
        'retry: 20\n\nid: 1-0\n\nid: 1-1\nevent: joined\ndata: {"player": {"username": "ann"}}\n\n',
        'id: 1-2\nevent: standing\ndata: {"score": 3}\n\n',
        'id: 2-0\nevent: reset\ndata: {"type": "reset"}\n\n: keep-alive\n\n',
    ]
    asked = []

    def stream(route):
        request = route.request
        asked.append(
            {
                "last": request.headers.get("last-event-id"),
                "accept": request.headers.get("accept"),
                "authorization": request.headers.get("authorization"),
            }
        )
        if len(asked) > len(answers):
            route.fulfill(status=503, json={"code": "live_unavailable", "message": "not here"})
            return
        route.fulfill(status=200, content_type="text/event-stream", body=answers[len(asked) - 1])

    page.route("**/api/test-stream/", stream)
    page.goto("/")
    page.evaluate("localStorage.setItem('pyramid.token', 'abc123')")
    page.evaluate(FOLLOW, {"path": "/api/test-stream/", "wanted": 0})
    page.wait_for_function("window.followed.states.at(-1) === 'polling'", timeout=WAIT)
    seen = page.evaluate("window.followed")
    page.evaluate("window.following.close()")
    assert [a["last"] for a in asked] == [None, "1-1", "1-2", "2-0"]
    assert {a["accept"] for a in asked} == {"text/event-stream"}
    assert {a["authorization"] for a in asked} == {"Token abc123"}
    assert seen["events"] == [["joined", {"player": {"username": "ann"}}, "1-1"], ["standing", {"score": 3}, "1-2"]]
    # the read at the start, one after the reset, and one when the stream fell while it was live
    assert seen["polls"] == 3
    assert seen["states"][:2] == ["connecting", "live"] and seen["states"][-1] == "polling"


@pytest.fixture
def contexts(browser):
    """Browser contexts closed after the test, whatever became of it (a page left open goes on polling)."""
    opened = []

    def new(base_url: str, viewport: dict = DESKTOP, *, username: str | None = None):
        context = browser.new_context(viewport=viewport, base_url=base_url)
        opened.append(context)
        if username:  # signed in as the page keeps it: the token the API's log-in gave
            answer = httpx.post(
                f"{base_url}/api/accounts/login/", json={"username": username, "password": PASSWORD}, timeout=30
            )
            assert answer.status_code in (200, 201), answer.text
            user = answer.json()
            token = user.pop("token")
            context.add_init_script(
                f"localStorage.setItem('pyramid.token', {json.dumps(token)});"
                f"localStorage.setItem('pyramid.user', {json.dumps(json.dumps(user))});"
            )
        page = context.new_page()
        page.set_default_timeout(WAIT)
        return page

    yield new
    for context in opened:
        context.close()


def _tournament(owner_name: str = "live-owner", *, members: list[str] = ()):
    """A club with a tournament running now, and members who may join it (committed: the server reads them)."""
    import datetime as dt

    from leaderboards.clubs import services as clubs
    from leaderboards.tournaments import services

    users = get_user_model()
    owner = users.objects.create_user(username=owner_name, password=PASSWORD)
    club = clubs.club_create(user=owner, name=f"{owner_name} club")
    now = timezone.now()
    tournament = services.tournament_create(
        actor=owner,
        club_id=club.pk,
        name="Live arena",
        rules="classic",
        format="arena",
        deal_count=2,
        starts_at=now - dt.timedelta(hours=1),
        ends_at=now + dt.timedelta(hours=2),
    )
    joiners = []
    for name in members:
        user = users.objects.create_user(username=name, password=PASSWORD)
        clubs.club_join(user=user, invite_code=club.invite_code)
        joiners.append(user)
    return tournament, joiners


def _join(user, tournament) -> None:
    from leaderboards.tournaments import services

    services.tournament_join(user=user, tournament_id=tournament.pk)


def test_without_streams_the_tournament_page_polls_with_etags_and_says_so(
    contexts, site, transactional_db, django_capture_on_commit_callbacks
):
    """The test server is WSGI: its streams answer 503 live_unavailable, and the page reads the standings every
    10 s instead, answered 304 while nothing changed; it never claims to be live."""
    with django_capture_on_commit_callbacks():  # its deals' preparation is not queued: not needed here
        tournament, (late,) = _tournament("poll-owner", members=["poll-late"])
    page = contexts(site, username="poll-owner")
    streams, standings = [], []
    page.on("response", lambda r: streams.append(r.status) if r.url.endswith("/events/") else None)
    page.on("response", lambda r: standings.append(r.status) if r.url.endswith("/standings/") else None)
    page.goto(f"/#/tournaments/{tournament.pk}")
    expect(page.locator("#tournament-name")).to_have_text("Live arena")
    state = page.locator("#live-state")
    expect(state).to_have_attribute("data-state", "polling")
    expect(state).to_have_text("updated every 10 s")
    # the tournament's stream, or the bell's, or both (asked at the same moment): the first 503 stops the tab's others
    asked = list(streams)
    assert 1 <= len(asked) <= 2 and set(asked) == {503}, asked
    with page.expect_response(lambda r: r.url.endswith("/standings/") and r.status == 304, timeout=WAIT):
        page.clock.run_for(10_000)  # the page's clock, not the test, waits the ten seconds: nothing changed
    _join(late, tournament)
    page.clock.run_for(10_000)
    expect(page.locator("#standings")).to_contain_text("poll-late", timeout=WAIT)
    expect(state).to_have_attribute("data-state", "polling")
    assert streams == asked  # asked no more: a server without streams is left alone for minutes
    assert 200 in standings[1:]
    page.set_viewport_size(PHONE)
    screenshot(page, "live-polling-phone.jpg")


def test_the_daily_board_says_it_polls_where_the_server_serves_no_streams(page, daily_line):
    page.goto("/#/boards")
    expect(page.locator("#board table, #board p").first).to_be_visible()
    expect(page.locator("#live-state")).to_have_attribute("data-state", "polling")


# --- the bell ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_bell_counts_what_is_new_lists_it_and_marks_it_seen(contexts, site, viewport):
    page = contexts(site, viewport)
    route_bell(page)
    sign_up(page, f"bell-{viewport['width']}")
    button = page.locator("#bell-button")
    expect(button).to_have_attribute("aria-label", "Notifications: 2 new")
    expect(button).to_have_attribute("aria-expanded", "false")
    expect(page.locator(".bell-count")).to_have_text("2")
    screenshot(page, f"bell-{viewport['width']}-closed.jpg")
    button.click()
    expect(button).to_have_attribute("aria-expanded", "true")
    box = page.locator("#bell-list")
    expect(box).to_be_visible()
    links = box.get_by_role("link")
    expect(links).to_have_count(2)
    expect(links.first).to_contain_text("Friday arena starts")  # the newest first (told at 17:45, the other at 12)
    expect(links.nth(1)).to_have_text("Lunch match has started")
    expect(links.nth(1)).to_have_attribute("href", "#/tournaments/42")
    expect(page.locator(".bell-count")).to_be_hidden()
    expect(button).to_have_attribute("aria-label", "Notifications")
    box_size = box.bounding_box()
    assert box_size["x"] >= 0 and box_size["x"] + box_size["width"] <= viewport["width"]
    screenshot(page, f"bell-{viewport['width']}-open.jpg")
    page.keyboard.press("Escape")
    expect(box).to_be_hidden()
    expect(button).to_be_focused()
    expect(button).to_have_attribute("aria-expanded", "false")
    # seen stays seen in this browser
    page.reload()
    expect(button).to_have_attribute("aria-label", "Notifications")
    # a link takes the player to the tournament and closes the list
    button.click()
    page.route("**/api/tournaments/42/**", lambda route: route.fulfill(status=404, json={"code": "x", "message": "x"}))
    page.route("**/api/tournaments/42/", lambda route: route.fulfill(status=404, json={"code": "x", "message": "x"}))
    links.nth(1).click()
    expect(page).to_have_url(f"{site}/#/tournaments/42")
    expect(box).to_be_hidden()


def test_the_bell_hides_where_the_server_has_no_notifications_and_for_guests(page):
    refused = {"code": "not_found", "message": "Not found."}
    page.route("**/api/accounts/me/notifications/", lambda route: route.fulfill(status=404, json=refused))
    asked = []
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/me/events/") else None)
    sign_up(page, "bell-none")
    page.wait_for_load_state("networkidle")
    expect(page.locator("#bell")).to_be_hidden()
    assert asked == []  # no list, no stream
    page.unroute("**/api/accounts/me/notifications/")
    route_bell(page)
    page.locator("#logout").click()
    expect(page.locator("#login-link")).to_be_visible()
    page.goto("/#/practice")  # a visitor's first deal makes them a guest
    page.get_by_role("button", name="Deal").click()
    expect(page.locator("#guest-badge")).to_have_count(1)
    expect(page.locator("#bell")).to_be_hidden()


# --- a real ASGI server --------------------------------------------------------------------------------------


def _redis_answers() -> bool:
    try:
        return bool(redis.Redis.from_url(django_settings.REDIS_URL, socket_connect_timeout=0.5).ping())
    except (redis.RedisError, ValueError):
        return False


@pytest.fixture
def uvicorn(transactional_db, settings):
    """The tests' database (committed rows are the server's too) and a Redis key prefix of the test's own,
    which this process publishes to as well: an event of a service called here reaches the server's streams."""
    if not _redis_answers():
        pytest.skip("needs Redis (REDIS_URL)")
    prefix = f"test-web-live-{uuid.uuid4().hex[:8]}:"
    settings.PYRAMID_LIVE_REDIS_URL = django_settings.REDIS_URL
    settings.PYRAMID_LIVE_KEY_PREFIX = prefix
    database = connection.settings_dict
    host = f"{database['HOST'] or '127.0.0.1'}:{database['PORT'] or 5432}"
    url = f"postgres://{database['USER']}@{host}/{database['NAME']}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYRAMID_", "CELERY_"))} | {
        "DATABASE_URL": url,
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": "web-live",
        "PYRAMID_DAILY_SECRET": "web-live",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SETTINGS_MODULE": "pyramid_site.settings",
        "REDIS_URL": django_settings.REDIS_URL,
        "PYRAMID_LIVE_REDIS_URL": django_settings.REDIS_URL,
        "PYRAMID_LIVE_KEY_PREFIX": prefix,
        "CELERY_QUEUE": f"{prefix}jobs",
        "PYRAMID_LIVE_KEEPALIVE_SECONDS": "1",
        "PYRAMID_LIVE_RETRY_MS": "300",
        "STATIC_ROOT": tempfile.mkdtemp(prefix="web-live-static-"),  # nothing collected: the files by their names
    }
    server = AsgiServer(env, graceful_seconds=5)
    server.start()
    try:
        yield server
    finally:
        server.stop()
        client = redis.Redis.from_url(django_settings.REDIS_URL)
        for key in client.scan_iter(f"{prefix}*"):
            client.delete(key)


@pytest.mark.real_clock  # the server reads its own clock
def test_a_standing_lands_live_and_the_page_polls_while_the_server_is_away(
    contexts, uvicorn, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks():  # its deals' preparation is not queued: not needed here
        tournament, (first, second) = _tournament("stream-owner", members=["stream-first", "stream-second"])
    page = contexts(uvicorn.url, username="stream-owner")
    standings_reads = []
    page.on("request", lambda r: standings_reads.append(r.url) if r.url.endswith("/standings/") else None)
    page.goto(f"/#/tournaments/{tournament.pk}")
    expect(page.locator("#tournament-name")).to_have_text("Live arena")
    state = page.locator("#live-state")
    expect(state).to_have_attribute("data-state", "live", timeout=WAIT)
    expect(state).to_have_text("live")
    screenshot(page, "live-tournament-desktop.jpg")
    reads = len(standings_reads)

    # a join publishes its standing (from this process, over Redis): the page reads the standings again, live
    # (no poll runs while the stream is open: nothing else could bring the row)
    _join(first, tournament)
    expect(page.locator("#standings")).to_contain_text("stream-first", timeout=WAIT)
    expect(state).to_have_attribute("data-state", "live", timeout=WAIT)
    assert len(standings_reads) > reads
    page.set_viewport_size(PHONE)
    screenshot(page, "live-tournament-phone.jpg")
    page.set_viewport_size(DESKTOP)

    # the server goes away: its stream ends (retry:), the reconnect fails, the page polls and says so
    uvicorn.stop()
    expect(state).to_have_attribute("data-state", "polling", timeout=WAIT)
    expect(state).to_have_text("updated every 10 s")
    expect(page.locator("#standings")).to_contain_text("stream-first")  # a failed read keeps what was shown
    _join(second, tournament)  # while it is away

    # back: the stream resumes after the last event it saw (Last-Event-ID), and brings what it missed
    uvicorn.start()
    expect(state).to_have_attribute("data-state", "live", timeout=2 * WAIT)  # after the back-off's next turn
    expect(page.locator("#standings")).to_contain_text("stream-second", timeout=WAIT)


def test_a_move_made_on_another_device_reaches_the_table(page):
    """The same game played elsewhere (here through the server's own service): the table catches up by itself,
    says so, and plays on from there. The test server serves no streams, so the table's poll brings it."""
    from games.models import Game
    from games.services.play import move_submit

    from .conftest import DEAL_NUMBER
    from .helpers import play_move, wait_for_moves

    page.goto("/#/practice")
    page.get_by_label("Deal number").fill(str(DEAL_NUMBER))
    page.get_by_label("Rules").select_option("classic")
    page.get_by_role("button", name="Deal").click()
    expect(page.locator(".pyramid .card")).to_have_count(28)
    game_id = int(page.url.rsplit("/", 1)[1])
    assert move_submit(game_id=game_id, player=Game.objects.get(pk=game_id).player, ply=1, move="24").applied
    page.clock.run_for(10_000)  # the page's clock to its next poll
    expect(page.locator("#moves")).to_have_text("1", timeout=WAIT)
    expect(page.locator("#message")).to_have_text(
        "The game moved on in another tab or device: this table now shows it."
    )
    play_move(page, "21+25")  # this tab plays on from the game as it is
    wait_for_moves(page, 2)
    assert _notations(game_id) == ["24", "21+25"]


def _notations(game_id: int) -> list[str]:
    from games.models import Game
    from games.move_log import log_notations

    return log_notations(Game.objects.get(pk=game_id).move_log)


@pytest.mark.real_clock  # the server reads its own clock
def test_a_move_made_on_another_device_lands_on_the_table_live(contexts, uvicorn):
    """The game's stream (uvicorn) brings another device's move to the table: no poll runs while it is open."""
    from .conftest import DEAL_NUMBER

    get_user_model().objects.create_user(username="table-live", password=PASSWORD)
    page = contexts(uvicorn.url, username="table-live")
    page.goto("/")
    token = page.evaluate("localStorage.getItem('pyramid.token')")
    headers = {"Authorization": f"Token {token}"}
    started = httpx.post(
        f"{uvicorn.url}/api/games/", json={"number": DEAL_NUMBER, "rules": "classic"}, headers=headers, timeout=30
    )
    assert started.status_code == 201, started.text
    game_id = started.json()["id"]
    streams = []
    page.on("request", lambda r: streams.append(r.url) if r.url.endswith("/events/") else None)
    with page.expect_response(lambda r: r.url.endswith(f"/api/games/{game_id}/events/") and r.status == 200):
        page.goto(f"/#/game/{game_id}")
    expect(page.locator(".pyramid .card")).to_have_count(28)
    moved = httpx.post(
        f"{uvicorn.url}/api/games/{game_id}/moves/", json={"ply": 1, "move": "24"}, headers=headers, timeout=30
    )
    assert moved.status_code == 201, moved.text
    expect(page.locator("#moves")).to_have_text("1", timeout=WAIT)
    expect(page.locator("#message")).to_have_text(
        "The game moved on in another tab or device: this table now shows it."
    )
    assert streams == [f"{uvicorn.url}/api/games/{game_id}/events/"]  # open all along: nothing was polled
