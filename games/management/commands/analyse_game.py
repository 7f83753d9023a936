import datetime as dt

from django.core.management.base import BaseCommand, CommandError

from engine.solver.analysis import Analysis, unpack
from games import services
from games.models import Game


class Command(BaseCommand):
    help = "Analyse finished games now (every position solved) and store the analysis: by id, or a day's daily games."

    def add_arguments(self, parser):
        parser.add_argument("game_ids", nargs="*", type=int)
        parser.add_argument("--date", type=dt.date.fromisoformat, help="every finished daily game of this day")
        parser.add_argument("--again", action="store_true", help="replace an analysis already stored")

    def handle(self, *args, game_ids, date, again, **options):
        if date is not None:
            game_ids = [
                *game_ids,
                *Game.objects.filter(daily__date=date)
                .exclude(status=Game.Status.PLAYING)
                .order_by("pk")
                .values_list("pk", flat=True),
            ]
        if not game_ids:
            raise CommandError("name games by id, or a day with --date")
        for game_id in game_ids:
            stored = services.game_analyse(game_id=game_id, again=again)
            if stored is None:
                self.stdout.write(f"game {game_id}: no such finished game")
                continue
            found = Analysis([], unpack(bytes(stored.plies)))
            self.stdout.write(
                f"game {game_id}: {len(found.plies)} plies, start {found.plies[0].verdict}, "
                f"lost at {found.lost_at}, {len(found.costly)} costly, {stored.seconds:.2f}s"
            )
