"""The game read of every move: the same game, deal and daily deal as the ORM's query, in one query
(on PostgreSQL it is SQL of its own)."""

import pytest

from games import selectors, services
from games.models import Game
from pyramid_site.errors import Code, DomainError
from tests.support import make_daily

pytestmark = pytest.mark.django_db


def fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


@pytest.mark.parametrize("kind", ["practice, a deal number past 2**63", "ranked daily"])
def test_game_of_player_is_the_orms_game_with_deal_and_daily(player, django_assert_num_queries, kind):
    if kind.startswith("practice"):
        started = services.game_start(player=player, number=2**64 - 5, rules="classic")
    else:
        started = services.game_start(player=player, daily_id=make_daily().pk)
    services.move_submit(game_id=started.pk, player=player, ply=1, move="draw")
    expected = Game.objects.select_related("deal", "daily").get(pk=started.pk)

    with django_assert_num_queries(1):
        game = selectors.game_of_player(game_id=started.pk, player=player)
        deal, daily = game.deal, game.daily

    assert fields(game) == fields(expected) and game.version == 1
    assert fields(deal) == fields(expected.deal)
    assert (daily is None) == (expected.daily is None) and (daily is None or fields(daily) == fields(expected.daily))
    if kind.startswith("practice"):
        assert deal.number == 2**64 - 5
    # a game read is an instance like any other: it saves as one
    game.version += 1
    game.save(update_fields=["version"])
    assert Game.objects.get(pk=game.pk).version == 2


def test_game_of_player_hides_other_players_games(player, other_player):
    game = services.game_start(player=player, number=3, rules="classic")
    with pytest.raises(DomainError) as refused:
        selectors.game_of_player(game_id=game.pk, player=other_player)
    assert refused.value.code is Code.GAME_NOT_FOUND
    missing = Game.objects.order_by("-pk").values_list("pk", flat=True).first() + 1
    with pytest.raises(DomainError):
        selectors.game_of_player(game_id=missing, player=player)
