"""What several benchmarks share: fresh PostgreSQL databases of their own, and a seeded player."""

from __future__ import annotations

import psycopg


def database_recreate(pg: str, name: str) -> None:
    """An empty database ``name`` on the server of ``pg`` (dropped first when it is there)."""
    with psycopg.connect(f"{pg}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def database_drop(pg: str, name: str) -> None:
    with psycopg.connect(f"{pg}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def seeded_line(position, rng) -> list[str]:
    """A whole game from ``position`` (played on a copy) by a seeded player that removes a pair whenever it can."""
    position, line = position.copy(), []
    while position.status == "playing":
        moves = position.legal_moves()
        removals = [m for m in moves if m.is_removal]
        move = rng.choice(removals) if removals else moves[0]
        position.apply(move)
        line.append(str(move))
    return line
