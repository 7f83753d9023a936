"""With no beat (no Redis), the first request of a day makes today's and tomorrow's daily deals itself."""

from __future__ import annotations

import datetime as dt

import pytest
from rest_framework.test import APIClient

from games.models import DailyDeal, Deal
from games.services.daily import daily_deals_ensure
from pyramid_site.clock import utc_today

pytestmark = pytest.mark.django_db


@pytest.fixture
def auto_prepare(settings):
    settings.PYRAMID_DAILY_AUTO_PREPARE = True
    settings.PYRAMID_DAILY_PRESETS = ["relaxed"]  # proved winnable in milliseconds


def test_the_first_request_of_a_day_finds_a_playable_daily_deal(auto_prepare):
    assert not DailyDeal.objects.exists()
    listed = APIClient().get("/api/daily/").json()
    today, tomorrow = utc_today(), utc_today() + dt.timedelta(days=1)
    assert [(d["date"], d["preset"]) for d in listed["results"]] == [(today.isoformat(), "relaxed")]
    assert listed["results"][0]["par_moves"] > 0
    assert set(DailyDeal.objects.values_list("date", "preset")) == {(today, "relaxed"), (tomorrow, "relaxed")}
    for daily in DailyDeal.objects.select_related("deal"):
        assert daily.deal.status == Deal.Status.WINNABLE
    solved = Deal.objects.count()
    APIClient().get("/api/daily/")
    assert Deal.objects.count() == solved  # settled once: later requests of the day find it ready


def test_with_a_beat_the_web_process_leaves_it_to_the_beat(settings):
    settings.PYRAMID_DAILY_AUTO_PREPARE = False
    assert APIClient().get("/api/daily/").json()["count"] == 0
    assert not DailyDeal.objects.exists()


def test_a_second_process_at_the_same_moment_does_nothing_twice(auto_prepare):
    from django.core.cache import cache

    today = utc_today()
    cache.add(f"pyramid:daily-ensure:{today.isoformat()}", True, timeout=300)  # another process is at it
    assert daily_deals_ensure(today=today) == 0
    assert not DailyDeal.objects.exists()
    cache.delete(f"pyramid:daily-ensure:{today.isoformat()}")
    assert daily_deals_ensure(today=today) == 2
    assert daily_deals_ensure(today=today) == 0  # nothing left to settle
