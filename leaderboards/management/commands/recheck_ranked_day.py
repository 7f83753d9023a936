import datetime as dt
import time

from django.conf import settings
from django.core.management.base import BaseCommand
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from leaderboards.fair_play.recheck import recheck_chunk_run, recheck_day_plan, recheck_day_report
from leaderboards.fair_play.tasks import recheck_ranked_chunk
from pyramid_site.clock import utc_today


class Command(BaseCommand):
    help = (
        "Replay every finished ranked game of a day through the engine; flag for review any whose stored "
        "result differs from its move log, or that trips the suspicious-play rule. The day is cut into "
        "chunks: replayed here, or with --workers by every Celery worker at once, with a progress bar."
    )

    def add_arguments(self, parser):
        parser.add_argument("--date", type=dt.date.fromisoformat, help="the UTC day (YYYY-MM-DD), default yesterday")
        parser.add_argument(
            "--workers",
            action="store_true",
            help="queue the chunks for the Celery workers and follow them (needs Redis and workers)",
        )
        parser.add_argument(
            "--chunk",
            type=int,
            default=None,
            help=f"games a chunk (PYRAMID_RECHECK_CHUNK_GAMES, {settings.PYRAMID_RECHECK_CHUNK_GAMES})",
        )

    def handle(self, *args, date, workers, chunk, **options):
        day = date or utc_today() - dt.timedelta(days=1)
        chunks = recheck_day_plan(date=day, size=chunk or settings.PYRAMID_RECHECK_CHUNK_GAMES)
        console = Console(file=self.stdout, force_terminal=False, width=100)
        columns = [
            TextColumn(f"{day} re-check"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("chunks"),
            TimeRemainingColumn(),
        ]
        with Progress(*columns, console=console, disable=not chunks) as progress:
            bar = progress.add_task("chunks", total=len(chunks))
            if workers:
                for planned in chunks:
                    recheck_ranked_chunk.delay(planned.pk)
                while (done := recheck_day_report(date=day)[1]) < len(chunks):
                    progress.update(bar, completed=done)
                    time.sleep(0.5)
            else:
                for planned in chunks:
                    recheck_chunk_run(chunk_id=planned.pk)
                    progress.advance(bar)
            progress.update(bar, completed=len(chunks))
        report = recheck_day_report(date=day)[0]
        self.stdout.write(
            f"{day}: {report.games} ranked games replayed, {len(report.mismatched)} differ from their "
            f"log, {len(report.suspicious)} suspicious, {report.flags_new} new flags"
        )
        for kind, ids in (("differs", report.mismatched), ("suspicious", report.suspicious)):
            for game_id in ids:
                self.stdout.write(f"  game {game_id}: {kind}")
