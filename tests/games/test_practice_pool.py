"""Practice deals proved winnable, drawn at random and by difficulty: each checked by replaying its stored
line through the engine and, for its grade, by the rules-of-thumb bot the grading is defined by."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

import engine
from engine.solver import bot
from games.models import Deal, Game
from games.services import practice_pool_fill
from games.tasks import fill_practice_pools
from tests.support import client_for

pytestmark = pytest.mark.django_db
CLASSIC = engine.preset("classic")


def proved_by_replay(deal: Deal) -> bool:
    rules = engine.Rules.parse(deal.rules)
    played = engine.replay(engine.deal_from_number(deal.number), rules, deal.solution)
    return played.ok and played.position.is_won and len(played.moves) == deal.par_moves


def start(api, body):
    return api.post("/api/games/", body, format="json")


def test_a_player_asking_for_a_winnable_deal_gets_one_proved_even_from_an_empty_pool(service_settings, player):
    answer = start(client_for(player), {"winnable": True})
    assert answer.status_code == 201, answer.json()
    deal = Game.objects.get(pk=answer.json()["id"]).deal
    assert deal.status == Deal.Status.WINNABLE and proved_by_replay(deal)
    assert answer.json()["mode"] == "practice"


def test_a_difficulty_one_deal_is_one_the_bot_wins_within_sixty_moves_of_par(service_settings, player):
    # the draw stops at the first deal of that grade; a loaded machine must not run out of seconds first
    service_settings.PYRAMID_PRACTICE_DRAW_SECONDS = 60.0
    answer = start(client_for(player), {"difficulty": 1, "rules": "classic"})
    assert answer.status_code == 201, answer.json()
    deal = Game.objects.get(pk=answer.json()["id"]).deal
    assert deal.difficulty == 1 and proved_by_replay(deal)
    assert bot.play(engine.Position.start(engine.deal_from_number(deal.number), CLASSIC)).won
    assert deal.par_moves <= 60


def make_proved(number: int, difficulty: int, **fields) -> Deal:
    return Deal.objects.create(
        number=number,
        rules=CLASSIC.to_text(),
        preset="classic",
        text=engine.deal_from_number(number).text,
        status=Deal.Status.WINNABLE,
        par_moves=40,
        best_cards_left=0,
        best_moves=40,
        solution="",
        difficulty=difficulty,
        solved_at=timezone.now(),
        **fields,
    )


def test_draws_come_from_the_pool_at_random_and_never_a_secret_deal(service_settings, player, monkeypatch):
    # spread over the numbers, as random ones are: each is the first after a quarter of the pivots
    pool = {make_proved(n, 3).number for n in (2**62, 2**63, 3 * 2**62, 2**64 - 9)}
    # a tournament's deal, say: the first after an eighth of the pivots, were it not secret
    make_proved(5 * 2**61, 3, secret_until=timezone.now() + dt.timedelta(hours=5))
    monkeypatch.setattr("games.services.play.practice_pool_fill", lambda **kwargs: pytest.fail("the pool had deals"))
    api = client_for(player)
    drawn = {Game.objects.get(pk=start(api, {"difficulty": 3}).json()["id"]).deal.number for _ in range(40)}
    assert drawn <= pool and len(drawn) >= 3


def test_no_proved_deal_ready_is_a_clear_conflict(service_settings, player, monkeypatch):
    monkeypatch.setattr("games.services.play.practice_pool_fill", lambda **kwargs: 0)
    refused = start(client_for(player), {"difficulty": 5})
    assert refused.status_code == 409 and refused.json()["code"] == "no_deal_ready"
    assert "difficulty 5" in refused.json()["message"]
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        {"number": 5, "winnable": True},
        {"number": "5", "difficulty": 2},
        {"daily": 1, "difficulty": 2},
        {"difficulty": 0},
        {"difficulty": 6},
        {"difficulty": "hard"},
        {"winnable": "maybe"},
    ],
)
def test_odd_requests_for_a_proved_deal_are_refused(service_settings, player, body):
    refused = start(client_for(player), body)
    assert refused.status_code == 400 and refused.json()["code"] == "invalid"
    assert not Game.objects.exists()


def test_the_beat_job_fills_the_pools_of_the_featured_presets(service_settings):
    service_settings.PYRAMID_DAILY_PRESETS = ["relaxed"]
    service_settings.PYRAMID_PRACTICE_POOL_SIZE = 1
    service_settings.PYRAMID_PRACTICE_FILL_SECONDS = 0.5
    proved = fill_practice_pools()
    kept = Deal.objects.filter(preset="relaxed", status=Deal.Status.WINNABLE)
    assert proved == kept.count() >= 1
    assert all(proved_by_replay(deal) for deal in kept)
    assert practice_pool_fill(rules=engine.preset("relaxed"), seconds=0) == 0
