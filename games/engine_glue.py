"""Engine objects for database rows: deals and rule sets are parsed once per process."""

from __future__ import annotations

from functools import lru_cache

import engine

from .models import Deal, Game


@lru_cache(maxsize=4096)
def engine_deal(text: str) -> engine.Deal:
    return engine.parse_deal(text)


@lru_cache(maxsize=256)
def engine_rules(text: str) -> engine.Rules:
    return engine.Rules.parse(text)


def start_position(deal: Deal) -> engine.Position:
    return engine.Position.start(engine_deal(deal.text), engine_rules(deal.rules))


def game_position(game: Game) -> engine.Position:
    return engine.Position.loads(game.state, engine_deal(game.deal.text), engine_rules(game.deal.rules))
