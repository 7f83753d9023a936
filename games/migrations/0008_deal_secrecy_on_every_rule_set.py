"""Every row of a deal number carries the number's secrecy (``games.secrecy``): rows made under other rule sets
before this rule take the latest ``secret_until`` of their number."""

from django.db import migrations
from django.db.models import Max


def spread_secrecy(apps, schema_editor):
    Deal = apps.get_model("games", "Deal")
    secret = (Deal.objects.filter(secret_until__isnull=False).values("number")
              .annotate(until=Max("secret_until")).values_list("number", "until"))
    for number, until in secret.iterator():
        Deal.objects.filter(number=number).exclude(secret_until=until).update(secret_until=until)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0007_game_client_mark"),
    ]

    operations = [
        migrations.RunPython(spread_secrecy, migrations.RunPython.noop),
    ]
