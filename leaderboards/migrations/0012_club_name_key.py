"""Club names unique by their canonical key (NFKC, case folded, confusable skeleton; pyramid_site/names.py),
in the database. Clubs whose names already share a key keep their names: the oldest keeps the key itself and
each later one gets ``KEY#ID``, which no name can have, so no new club can take any spelling of theirs. The
clubs concerned are printed."""

from django.db import migrations, models


def keys_fill(apps, schema_editor):
    from pyramid_site.names import canonical_name

    Club = apps.get_model("leaderboards", "Club")
    taken: dict[str, int] = {}
    for club in Club.objects.order_by("pk").only("pk", "name").iterator():
        key = canonical_name(club.name)
        if key in taken:
            print(f"\n  club {club.pk} ({club.name!r}) looks like club {taken[key]}: both keep their names")
            key = f"{key}#{club.pk}"
        else:
            taken[key] = club.pk
        Club.objects.filter(pk=club.pk).update(name_key=key)


class Migration(migrations.Migration):

    dependencies = [
        ("leaderboards", "0011_period_counts"),
    ]

    operations = [
        migrations.AddField(model_name="club", name="name_key", field=models.TextField(null=True, editable=False)),
        migrations.RunPython(keys_fill, migrations.RunPython.noop),
        migrations.AlterField(model_name="club", name="name_key",
                              field=models.TextField(unique=True, editable=False)),
    ]
