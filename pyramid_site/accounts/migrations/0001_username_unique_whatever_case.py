"""Usernames are unique whatever their case, in the database too: sign-up's check and create race no more."""

from django.db import migrations

INDEX = "accounts_username_unique_whatever_case"


class Migration(migrations.Migration):
    dependencies = [("auth", "0012_alter_user_first_name_max_length")]

    operations = [
        migrations.RunSQL(f"CREATE UNIQUE INDEX {INDEX} ON auth_user (UPPER(username))",
                          f"DROP INDEX {INDEX}"),
    ]
