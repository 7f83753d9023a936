"""Reads of the fair-play audit record, newest first."""

from __future__ import annotations

from .models import Flag, Void


def voids():
    return Void.objects.order_by("-created_at", "-pk")


def flags(*, open_only: bool = False):
    found = Flag.objects.order_by("-created_at", "-pk")
    return found.filter(reviewed_at__isnull=True) if open_only else found
