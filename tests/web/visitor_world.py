"""What a visitor finds to read: today's one-look daily deal played by two members of a public club, a tournament of
that club under way and one over, and a private club with a tournament of its own."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from games import services as game_services
from leaderboards.clubs import services
from leaderboards.models import Tournament
from leaderboards.tournaments import services as tournament_services
from tests.support import UserFactory, daily_game, make_daily

HOUR = dt.timedelta(hours=1)


def visitor_world() -> dict:
    owner, member = UserFactory(username="open-owner"), UserFactory(username="open-member")
    hidden = UserFactory(username="hider")
    for user in (owner, member, hidden):
        user.save()  # the factory's password ("a-long-pass-phrase") too, for a test that logs in
    public = services.club_create(user=owner, name="Zebra Zone", description="Anyone may look")
    services.club_join(user=member, invite_code=public.invite_code)
    private = services.club_create(user=hidden, name="Yak Den", is_private=True)
    daily = make_daily()
    daily_game(owner, daily)
    daily_game(member, daily, 5)
    for preset in ("classic", "tuts-tomb", "overlap"):  # practice of the member's own, on their page to them alone
        game = game_services.game_start(player=member, number=5, rules=preset)
        game_services.game_resign(game_id=game.pk, player=member)
    now = timezone.now()
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    cups = {}
    for name, club, actor in (
        ("Zebra Trophy", public, owner),
        ("Past Trophy", public, owner),
        ("Yak Trophy", private, hidden),
    ):
        cups[name] = tournament_services.tournament_create(
            actor=actor,
            club_id=club.pk,
            name=name,
            rules="one-look",
            format="match",
            source="daily",
            starts_at=midnight,
            ends_at=midnight + 24 * HOUR,
        )
        tournament_services.tournament_join(user=member if club == public else hidden, tournament_id=cups[name].pk)
    # the past cup is over: its standings are final, and everyone's to read
    Tournament.objects.filter(pk=cups["Past Trophy"].pk).update(ends_at=now - dt.timedelta(minutes=1))
    return {"public": public, "private": private, "daily": daily, "owner": owner, "member": member, **cups}
