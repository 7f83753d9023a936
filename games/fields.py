"""A model field for deal numbers: 0 to 2**64 - 1, kept exactly by every database."""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

_OFFSET = 2**63


class UInt64Field(models.BigIntegerField):
    """Unsigned 64-bit numbers stored in a signed 64-bit column, shifted down by 2**63 (order is kept).

    A decimal column would do on PostgreSQL, but SQLite keeps big decimals as floating point and
    rounds deal numbers past 2**53."""

    description = "unsigned 64-bit integer"

    @property
    def validators(self):
        return [MinValueValidator(0), MaxValueValidator(2**64 - 1), *self._validators]

    def get_prep_value(self, value):
        value = super().get_prep_value(value)
        return None if value is None else value - _OFFSET

    def from_db_value(self, value, expression, connection):
        return None if value is None else value + _OFFSET
