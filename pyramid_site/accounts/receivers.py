"""Every write of a username, whoever makes it (sign-up, a guest's naming, the admin, ``createsuperuser``), writes
its canonical key in the same transaction: a name that looks like a taken one fails there, in the database."""

from __future__ import annotations

from django.db import transaction

from pyramid_site.names import canonical_name

from .models import AccountName


def username_key_write(sender, instance, created, update_fields=None, raw=False, **kwargs):
    if raw or (update_fields is not None and "username" not in update_fields):
        return
    key = canonical_name(instance.username)
    with transaction.atomic():  # a taken key rolls back to here, and the caller's transaction sees the error
        if created:
            AccountName.objects.create(user_id=instance.pk, key=key)
        else:
            AccountName.objects.update_or_create(user_id=instance.pk, defaults={"key": key})
