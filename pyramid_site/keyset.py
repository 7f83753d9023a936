"""Rows past a row in an order of several columns (a keyset): what a cursor page takes, and what a rank counts."""

from __future__ import annotations

from django.db.models import Q


def rows_beyond(key: list[str], position: tuple, *, inclusive: bool = False) -> Q:
    """The rows after the row whose values of ``key`` (order_by names: a column, ``-`` for descending) are
    ``position``, in that order: the first column that differs decides. ``inclusive`` takes the equal rows too."""
    beyond = Q(pk__in=[])
    for index, column in enumerate(key):
        ties = {other.lstrip("-"): value for other, value in zip(key[:index], position[:index], strict=True)}
        lookup = "lt" if column.startswith("-") else "gt"
        beyond |= Q(**ties, **{f"{column.lstrip('-')}__{lookup}": position[index]})
    if inclusive:
        beyond |= Q(**{column.lstrip("-"): value for column, value in zip(key, position, strict=True)})
    return beyond


def reversed_order(key: list[str]) -> list[str]:
    return [column[1:] if column.startswith("-") else f"-{column}" for column in key]
