"""What several benchmarks share: fresh PostgreSQL databases of their own."""

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
