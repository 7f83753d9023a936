"""A race on its tournament page: the lobby counts down to the start and lists the entrants; a race over shows
its final standings."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace

from django.utils import timezone
from playwright.sync_api import expect

import engine
from benchmarks.common import clock_at
from games import services as game_services
from games.services.deals import deal_get_or_create
from leaderboards.clubs import services as clubs
from leaderboards.models import Tournament, TournamentDeal
from leaderboards.tournaments import services
from leaderboards.tournaments.services import tournaments
from tests.support import WINNABLE_ONE_LOOK, UserFactory, winnable_deal

from .helpers import sign_up

MINUTE = dt.timedelta(minutes=1)


def race_of(owner, others, monkeypatch, name: str, number: int = WINNABLE_ONE_LOOK) -> Tournament:
    monkeypatch.setattr(tournaments, "settle_sequence", SimpleNamespace(delay=lambda *args: None))
    club = clubs.club_create(user=owner, name=f"{name} club")
    for user in others:
        clubs.club_join(user=user, invite_code=club.invite_code)
    now = timezone.now()
    race = services.tournament_create(
        actor=owner,
        club_id=club.pk,
        name=name,
        rules="one-look",
        format="race",
        starts_at=now + 10 * MINUTE,
        ends_at=now + 70 * MINUTE,
    )
    deal = (
        winnable_deal()
        if number == WINNABLE_ONE_LOOK
        else deal_get_or_create(number=number, rules=engine.preset("one-look"))
    )
    TournamentDeal.objects.create(tournament=race, index=0, deal=deal)
    game_services.deal_keep_secret(deal_id=deal.pk, until=race.ends_at)
    Tournament.objects.filter(pk=race.pk).update(status=Tournament.Status.READY)
    for user in [owner, *others]:
        services.tournament_join(user=user, tournament_id=race.pk)
    race.refresh_from_db()
    return race


def test_a_race_lobby_counts_down_and_a_race_over_shows_its_standings(page, transactional_db, monkeypatch):
    from django.contrib.auth import get_user_model

    sign_up(page, "race-host")
    host = get_user_model().objects.get(username="race-host")
    rival = UserFactory(username="race-rival")
    lobby = race_of(host, [rival], monkeypatch, "Lobby sprint")
    page.goto(f"/#/tournaments/{lobby.pk}")
    expect(page.locator("#race-clock")).to_contain_text("The race starts in")
    expect(page.locator(".race-runners")).to_contain_text("race-host")
    expect(page.locator(".race-runners")).to_contain_text("race-rival")

    over = race_of(host, [rival], monkeypatch, "Done sprint", number=7)  # a race's deal is its own
    with clock_at(over.starts_at + MINUTE):
        for user in (host, rival):
            game = services.tournament_game_start(user=user, tournament_id=over.pk)
            game_services.game_resign(game_id=game.pk, player=user)
    over.refresh_from_db()
    assert over.finished_at is not None  # every entrant's game is over: so is the race
    page.goto(f"/#/tournaments/{over.pk}")
    expect(page.locator("#race-clock")).to_have_text("The race is over.")
    expect(page.locator("#race-standings")).to_contain_text("race-rival")
