"""Statements PostgreSQL plans once per connection.

The ORM binds parameters on the client, so PostgreSQL parses and plans every statement anew; for the
two statements of a move (the game read and the compare-and-swap write) that was most of the
database's CPU time. ``prepared_cursor`` binds on the server instead, and psycopg prepares each
statement on a connection the first time it runs there (``prepare_threshold`` in settings; with
``DATABASE_PREPARED_STATEMENTS=false``, for a pooler that cannot keep them, statements are only
bound on the server).
"""

from __future__ import annotations

from contextlib import contextmanager

from django.db import connection


@contextmanager
def prepared_cursor():
    """A cursor of the default database (PostgreSQL only) that binds on the server; Django's wrapper
    around it keeps query logging, execute wrappers and error translation as for any cursor."""
    from django.db.backends.postgresql.base import ServerBindingCursor

    connection.close_if_health_check_failed()
    connection.ensure_connection()
    with connection.wrap_database_errors:
        cursor = connection._prepare_cursor(ServerBindingCursor(connection.connection))
    with cursor:
        yield cursor
