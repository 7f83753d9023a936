"""Guest accounts: the accounts the server makes for visitors who play without signing up, marked by a row of
their own that stays when the guest signs up."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_username_unique_whatever_case"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Guest",
            fields=[
                ("user", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True,
                                              related_name="guest", serialize=False, to=settings.AUTH_USER_MODEL)),
                ("name", models.CharField(help_text="the name the server gave it (guest-XXXXXXXX)", max_length=14,
                                          unique=True)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("signed_up_at", models.DateTimeField(
                    blank=True, help_text="when the guest signed up (then the account is a named one)", null=True)),
            ],
            options={
                "constraints": [
                    models.CheckConstraint(condition=models.Q(("name__regex", "^guest-[0-9a-z]{8}$")),
                                           name="guest_name_pattern"),
                    models.CheckConstraint(condition=models.Q(("signed_up_at__isnull", True),
                                                              ("signed_up_at__gte", models.F("created_at")),
                                                              _connector="OR"),
                                           name="guest_signed_up_after_made"),
                ],
            },
        ),
    ]
