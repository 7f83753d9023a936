"""Each game's moves move from one row a move (``games_move``) into one compact value on the game."""

from django.db import migrations, models
from django.db.models import F, Q
from django.db.models.functions import Length
from django.db.models.lookups import GreaterThanOrEqual, LessThanOrEqual

from games.move_log import log_encode, log_moves


def rows_to_logs(apps, schema_editor):
    Game, Move = apps.get_model("games", "Game"), apps.get_model("games", "Move")
    games = Game.objects.filter(moves__gt=0).only("pk", "started_at").order_by("pk")
    for game in games.iterator(chunk_size=2000):
        rows = Move.objects.filter(game_id=game.pk).order_by("ply").values_list("notation", "created_at")
        Game.objects.filter(pk=game.pk).update(move_log=log_encode(list(rows), started_at=game.started_at))


def logs_to_rows(apps, schema_editor):
    Game, Move = apps.get_model("games", "Game"), apps.get_model("games", "Move")
    Move._meta.get_field("created_at").auto_now_add = False  # the stamps are the log's, not now
    for game in Game.objects.filter(moves__gt=0).only("pk", "started_at", "move_log").iterator(chunk_size=2000):
        Move.objects.bulk_create(Move(game_id=game.pk, ply=m.ply, notation=m.notation, created_at=m.created_at)
                                 for m in log_moves(bytes(game.move_log), started_at=game.started_at))


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0003_game_analysis"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="move_log",
            field=models.BinaryField(default=bytes, editable=False,
                                     help_text="every move with its server time stamp, games.move_log's format"),
        ),
        migrations.RunPython(rows_to_logs, logs_to_rows),
        migrations.DeleteModel(name="Move"),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.CheckConstraint(
                condition=Q(GreaterThanOrEqual(Length("move_log"), F("moves")),
                            LessThanOrEqual(Length("move_log"), F("moves") * 7)),
                name="game_move_log_length"),
        ),
    ]
