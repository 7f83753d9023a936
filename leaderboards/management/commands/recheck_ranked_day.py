import datetime as dt

from django.core.management.base import BaseCommand

from leaderboards.fair_play.recheck import ranked_day_recheck
from pyramid_site.clock import utc_today


class Command(BaseCommand):
    help = ("Replay every finished ranked game of a day through the engine; flag for review any whose stored "
            "result differs from its move log, or that trips the suspicious-play rule.")

    def add_arguments(self, parser):
        parser.add_argument("--date", type=dt.date.fromisoformat, help="the UTC day (YYYY-MM-DD), default yesterday")

    def handle(self, *args, date, **options):
        day = date or utc_today() - dt.timedelta(days=1)
        report = ranked_day_recheck(date=day)
        self.stdout.write(f"{day}: {report.games} ranked games replayed, {len(report.mismatched)} differ from their "
                          f"log, {len(report.suspicious)} suspicious, {report.flags_new} new flags")
        for kind, ids in (("differs", report.mismatched), ("suspicious", report.suspicious)):
            for game_id in ids:
                self.stdout.write(f"  game {game_id}: {kind}")
