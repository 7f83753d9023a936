"""Clubs and tournaments in the browser: one player creates a club and a tournament on today's daily
deal; a second joins the club by its code, joins the tournament and starts its deal."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .helpers import sign_up


def test_club_and_tournament_created_and_joined_by_a_second_player(browser, site, daily_line):
    # daily_line: today's daily deal, which the tournament is played on
    owner_context = browser.new_context(base_url=site)
    owner = owner_context.new_page()
    sign_up(owner, "club-owner")
    owner.get_by_role("link", name="Clubs").click()
    create = owner.locator("#club-create")
    create.get_by_label("Name").fill("Tuesday Pyramids")
    create.get_by_label("Description").fill("We play the daily deal together")
    create.get_by_role("button", name="Create club").click()
    expect(owner.locator("#club-name")).to_have_text("Tuesday Pyramids")
    code = owner.locator("#invite-code").inner_text()
    assert code

    form = owner.locator("#tournament-create")
    form.get_by_label("Name").fill("Daily duel")
    form.get_by_label("Play on").select_option("daily")
    form.get_by_role("button", name="Create tournament").click()
    expect(owner.locator("#tournament-name")).to_have_text("Daily duel")
    tournament_url = owner.url
    owner.get_by_role("button", name="Join").click()
    expect(owner.locator("#standings")).to_contain_text("club-owner")

    guest_context = browser.new_context(base_url=site)
    guest = guest_context.new_page()
    sign_up(guest, "club-guest")
    guest.get_by_role("link", name="Clubs").click()
    join = guest.locator("#club-join")
    join.get_by_label("Invite code").fill(code)
    join.get_by_role("button", name="Join club").click()
    expect(guest.locator("#club-name")).to_have_text("Tuesday Pyramids")
    expect(guest.locator("#members")).to_contain_text("club-owner")
    expect(guest.locator("#members")).to_contain_text("club-guest")
    guest.get_by_role("link", name="Daily duel").click()
    expect(guest).to_have_url(tournament_url)
    guest.get_by_role("button", name="Join").click()
    expect(guest.locator(".page-message")).to_have_text("You are in. Good luck!")
    expect(guest.locator("#joined")).to_have_text("You are in.")
    expect(guest.locator("#leave")).to_have_count(0)  # it has started: entries stay to its end
    expect(guest.locator("#standings")).to_contain_text("club-guest")
    expect(guest.locator("#standings-kind")).to_have_text("")  # not final yet
    # the test server serves no streams (WSGI): the page polls and says so, never "live"
    expect(guest.locator("#live-state")).to_have_text("updated every 10 s")

    # the tournament is reachable from the menu, and its next deal opens on the table
    guest.get_by_role("link", name="Tournaments").click()
    guest.get_by_role("link", name="Daily duel").click()
    guest.get_by_role("button", name="Play the next deal").click()
    expect(guest).to_have_url(re.compile(r"#/game/\d+$"))
    expect(guest.locator(".tag")).to_have_text("Ranked")
    expect(guest.locator(".pyramid .card")).to_have_count(28)

    # the owner's page shows the standings live, both players in
    owner.reload()
    expect(owner.locator("#standings")).to_contain_text("club-guest")
    owner_context.close()
    guest_context.close()


def test_a_tournament_shows_preparing_until_its_deals_are_ready(
    page, site, transactional_db, django_capture_on_commit_callbacks
):
    """The solver proves a tournament's deals after it is made: its page says so, offers no game, and looks
    again until they are ready."""
    import datetime as dt

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from leaderboards.clubs import services as clubs
    from leaderboards.tournaments import services

    sign_up(page, "arena-owner")
    owner = get_user_model().objects.get(username="arena-owner")
    club = clubs.club_create(user=owner, name="Arena Club")
    now = timezone.now()
    with django_capture_on_commit_callbacks():  # its preparation is not queued: the test runs it below
        arena = services.tournament_create(
            actor=owner,
            club_id=club.pk,
            name="Big arena",
            rules="classic",
            format="arena",
            deal_count=2,
            starts_at=now - dt.timedelta(hours=1),
            ends_at=now + dt.timedelta(hours=1),
        )
    page.goto(f"/#/tournaments/{arena.pk}")
    expect(page.locator("#tournament-name")).to_have_text("Big arena")
    expect(page.locator("#tournament-status")).to_have_text("preparing")
    play_next = page.get_by_role("button", name="Play the next deal")
    expect(play_next).to_be_disabled()
    services.tournament_deals_settle(tournament_id=arena.pk)
    expect(page.locator("#tournament-status")).to_have_text("ready")
    expect(play_next).to_be_enabled()
    page.get_by_role("button", name="Join").click()
    expect(page.locator("#joined")).to_have_text("You are in.")
    play_next.click()
    expect(page).to_have_url(re.compile(r"#/game/\d+$"))
