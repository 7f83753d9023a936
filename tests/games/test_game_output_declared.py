"""The move's answer is built by hand for speed (``game_output``); ``GameOutput`` declares it. Over many real
games (every preset, random legal play, undo, resignation, a ranked game with its secret deal) the two print
the same JSON, key order included. The other hand-built answers (a replay: a position per ply; ``player_ref``)
are held equal to their serializers here too."""

import json
import random

import pytest
from rest_framework.utils.encoders import JSONEncoder

import engine
from games import services
from games.api.serializers import GameOutput, GameReplayOutput, MoveOutcomeOutput, game_output, replay_output
from games.engine_glue import game_position
from pyramid_site.api.output import PlayerRefOutput, player_ref
from tests.support import daily_game, make_daily

pytestmark = pytest.mark.django_db


def wire(data: dict) -> str:
    return json.dumps(data, cls=JSONEncoder)


def assert_same(game, position, applied=None):
    hand = game_output(game, position)
    if applied is None:
        declared = GameOutput(game, context={"position": position}).data
    else:
        hand = hand | {"applied": applied}
        declared = MoveOutcomeOutput(game, context={"position": position, "applied": applied}).data
    assert wire(hand) == wire(declared)


def test_the_hand_built_game_answer_is_the_declared_one(player, other_player):
    rng = random.Random(25)
    seen, replays = set(), 0
    for preset in engine.PRESETS:
        for _ in range(2):
            game = services.game_start(player=player, number=rng.randrange(2**64), rules=preset)
            assert_same(game, game_position(game))
            for ply in range(1, rng.randrange(5, 60)):
                position = game_position(game)
                if position.status != "playing":
                    break
                if ply > 2 and rng.random() < 0.08:
                    game = services.game_undo(game_id=game.pk, player=player)
                    assert_same(game, game_position(game))
                    continue
                legal = [str(m) for m in position.legal_moves()]
                outcome = services.move_submit(
                    game_id=game.pk, player=player, ply=game.moves + 1, move=rng.choice(legal)
                )
                assert_same(outcome.game, outcome.position, applied=outcome.applied)
                game = outcome.game
            if not game.is_over and rng.random() < 0.5:
                game = services.game_resign(game_id=game.pk, player=player)
            assert_same(game, game_position(game))
            seen.add(game.status)
            if game.is_over and game.moves:
                assert_replay_declared(game, best_from=rng.randrange(game.moves))
                replays += 1
    assert {"playing", "resigned"} <= seen  # both branches of the view (over or not) were compared
    assert replays >= 3
    ranked = daily_game(other_player, make_daily(), moves=3)  # resigned; its deal secret all its day
    assert game_output(ranked, game_position(ranked))["deal"]["number"] is None
    assert_same(ranked, game_position(ranked))


def assert_replay_declared(game, best_from):
    game, moves, positions, best = services.game_replay(
        game_id=game.pk, user=game.player, best_from=best_from, budget_seconds=0.5
    )
    replay = replay_output(game, moves, positions, best)
    assert len(replay["plies"]) == game.moves + 1
    assert wire(replay) == wire(GameReplayOutput(replay).data)


def test_the_hand_built_player_reference_is_the_declared_one(player):
    assert wire(player_ref(player.pk, player.username)) == wire(PlayerRefOutput(player).data)
