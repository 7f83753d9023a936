"""Usernames unique by their canonical key (NFKC, case folded, confusable skeleton; pyramid_site/names.py),
in the database: every existing account gets its key. Accounts that already share a key keep their names (they
log in with them as before); the oldest keeps the key itself and each later one gets ``KEY#ID``, which no name
can have, so that no new account can take any spelling of theirs. The accounts concerned are printed."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def keys_fill(apps, schema_editor):
    from pyramid_site.names import canonical_name

    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    AccountName = apps.get_model("accounts", "AccountName")
    taken: dict[str, int] = {}
    rows = []
    for pk, username in User.objects.order_by("pk").values_list("pk", "username").iterator():
        key = canonical_name(username)
        if key in taken:
            print(f"\n  account {pk} ({username!r}) looks like account {taken[key]}: both keep their names")
            key = f"{key}#{pk}"
        else:
            taken[key] = pk
        rows.append(AccountName(user_id=pk, key=key))
        if len(rows) >= 5000:
            AccountName.objects.bulk_create(rows)
            rows = []
    AccountName.objects.bulk_create(rows)


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0003_language_choice"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="AccountName",
            fields=[
                ("user", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True,
                                              related_name="name_key", serialize=False, to=settings.AUTH_USER_MODEL)),
                ("key", models.TextField(unique=True)),
            ],
        ),
        migrations.RunPython(keys_fill, migrations.RunPython.noop),
    ]
