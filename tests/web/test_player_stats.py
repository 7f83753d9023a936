"""The player page's statistics and calendar, at phone and desktop width: the figures of the games played,
a month grid whose every day says what happened, nothing wider than the screen, no serious accessibility
violation; and another player sees the ranked figures but not the practice ones."""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import expect
from rest_framework.authtoken.models import Token

import engine
from games import services as game_services
from pyramid_site.clock import utc_today
from tests.support import PAR, UserFactory, daily_game, make_daily, play

from .conftest import screenshot
from .helpers import find_winning_line
from .test_accessibility import AXE

WIDTHS = {360: "phone", 1280: "desktop"}


def day(n: int) -> dt.date:
    return utc_today() - dt.timedelta(days=n)


@pytest.fixture
def season(db, winning_line):
    """ann: a one-look daily won three days ago (in 95 s), a classic one lost two days ago, yesterday's missed, today's
    not played yet; practice: a classic win, a loss and a relaxed loss. bob: nothing."""
    ann, bob = UserFactory(username="ann"), UserFactory(username="bob")
    daily_game(ann, make_daily(date=day(3)), seconds=95)
    daily_game(ann, make_daily(date=day(2), preset="classic", number=1), 0)
    make_daily(date=day(1), preset="classic", number=5)
    make_daily(date=day(0), preset="classic", number=14)
    line = find_winning_line(engine.replay(engine.deal_from_number(3), engine.preset("classic"), []).position)
    play(game_services.game_start(player=ann, number=3, rules="classic"), line)
    play(game_services.game_start(player=ann, number=10, rules="classic"), ["draw"])
    play(game_services.game_start(player=ann, number=9, rules="relaxed"), [])
    return {"ann": ann, "bob": bob, "practice_win_moves": len(line)}


def logged_in(browser, site, user, width):
    context = browser.new_context(viewport={"width": width, "height": 900}, base_url=site)
    token = Token.objects.create(user=user).key
    context.add_init_script(f"""localStorage.setItem('pyramid.token', '{token}');
        localStorage.setItem('pyramid.user', JSON.stringify({{id: {user.pk}, username: '{user.username}'}}));""")
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page


def cells(table) -> list[list[str]]:
    return [
        [cell.strip() for cell in row]
        for row in table.locator("tr").evaluate_all("rows => rows.map(r => [...r.children].map(c => c.textContent))")
    ]


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_statistics_page_at_phone_and_desktop_width(browser, site, season, width):
    context, page = logged_in(browser, site, season["ann"], width)
    try:
        page.goto("/#/players/ann")
        page.locator("#calendar .month").first.wait_for()
        page.wait_for_load_state("networkidle")
        ranked = page.locator("#ranked-figures")
        assert cells(ranked) == [
            ["Preset", "Played", "Won", "Cleared", "Best moves", "Best time"],
            ["classic", "1", "0 0%", "0", "—", "—"],
            ["one-look", "1", "1 100%", "1", str(PAR), "1:35"],
            ["All", "2", "1 50%", "1", "", ""],
        ]
        practice = cells(page.locator("#practice-figures"))
        assert practice[1][:5] == ["classic", "2", "1 50%", "1", str(season["practice_win_moves"])]
        assert practice[2][:4] == ["relaxed", "1", "0 0%", "0"] and practice[3][:4] == ["All", "3", "1 33%", "1"]

        # each day of the calendar says what happened, to the eye (its class) and in words (its label)
        expected = {
            day(3): ("won", f"one-look won in {PAR} moves"),
            day(2): ("lost", "classic lost, 28 cards left"),
            day(1): ("missed", "classic not played"),
            day(0): ("open", "classic not played yet"),
            day(4): ("none", "no daily deal"),
        }
        for date, (kind, words) in expected.items():
            cell = page.locator(f'#calendar td[data-date="{date.isoformat()}"]')
            expect(cell).to_have_attribute("data-kind", kind)
            expect(cell.locator(".sr-only")).to_have_text(f"{date.day} {date.strftime('%B %Y')}: {words}")
        days = page.locator("#calendar td[data-date]")
        assert days.count() >= 59  # three months, every day of them
        unlabelled = days.evaluate_all(
            "tds => tds.filter(td => !td.querySelector('.sr-only')?.textContent.trim()).length"
        )
        assert unlabelled == 0
        assert page.locator("#calendar .month caption").count() == 3

        # nothing wider than the screen, and the tables fit without scrolling inside themselves
        assert page.evaluate("document.documentElement.scrollWidth") <= page.evaluate("innerWidth")
        for table in ("#ranked-figures", "#practice-figures", "#calendar .month"):
            overflow = page.locator(table).first.evaluate("t => t.scrollWidth - t.clientWidth")
            assert overflow <= 0, f"{table} scrolls sideways by {overflow} px at {width} px"
        screenshot(page, f"player-stats-{WIDTHS[width]}.jpg")

        if AXE.exists():
            page.add_script_tag(path=str(AXE))
            violations = page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']}))
                .violations.filter(v => ['serious', 'critical'].includes(v.impact))
                .map(v => `${v.id}: ${v.nodes.length} × ${v.nodes[0].target.join(' ')}`)""")
            assert violations == []

        # a longer calendar on demand
        page.get_by_label("Show").select_option("6")
        expect(page.locator("#calendar .month caption")).to_have_count(6)
    finally:
        context.close()


def test_another_player_sees_the_ranked_figures_and_not_the_practice_ones(browser, site, season):
    context, page = logged_in(browser, site, season["bob"], 1280)
    try:
        page.goto("/#/players/ann")
        page.locator("#calendar .month").first.wait_for()
        expect(page.locator("#ranked-figures tfoot")).to_contain_text("All")
        expect(page.locator("#practice-figures")).to_have_text("Practice figures are private to each player.")
        expect(page.locator(f'#calendar td[data-date="{day(3).isoformat()}"]')).to_have_attribute("data-kind", "won")
    finally:
        context.close()
