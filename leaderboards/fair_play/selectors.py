"""Reads of the fair-play audit record, newest first."""

from __future__ import annotations

from .models import Flag, Void

NEWEST_FIRST = ["-created_at", "-id"]  # unique, for a cursor


def voids():
    return Void.objects.order_by(*NEWEST_FIRST)


def flags(*, open_only: bool = False):
    found = Flag.objects.order_by(*NEWEST_FIRST)
    return found.filter(reviewed_at__isnull=True) if open_only else found
