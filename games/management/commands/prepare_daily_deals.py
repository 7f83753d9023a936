import datetime as dt

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from engine.solver import fast
from games import services
from pyramid_site.clock import utc_today


class Command(BaseCommand):
    help = "Settle the daily deals of the coming days now, solving candidates in this process."

    def add_arguments(self, parser):
        parser.add_argument("--days", type=int, default=settings.PYRAMID_DAILY_DAYS_AHEAD)
        parser.add_argument("--preset", action="append", help="a featured preset (repeatable); default: settings")
        parser.add_argument(
            "--from", dest="start", type=dt.date.fromisoformat, help="first day (YYYY-MM-DD), default today"
        )
        parser.add_argument("--budget", type=float, help="solver seconds per candidate")
        parser.add_argument(
            "--accept-slow-solver",
            action="store_true",
            help="run even without the solver's compiled core (hundreds of times slower)",
        )

    def handle(self, *args, days, preset, start, budget, accept_slow_solver, **options):
        if not fast.available and not accept_slow_solver:
            raise CommandError(
                "the solver's compiled core is not built: candidates would be solved by the "
                "plain-Python search, hundreds of times slower. Build it (gcc and the Python headers, "
                "then pip install the project again), or pass --accept-slow-solver"
            )
        slots = services.daily_slots_open(today=start or utc_today(), days=days, presets=preset)
        for date, name in slots:
            daily = services.daily_deal_settle(date=date, preset=name, budget_seconds=budget)
            if daily is None:
                self.stderr.write(f"{date} {name}: no winnable candidate")
            else:
                self.stdout.write(
                    f"{date} {name}: attempt {daily.attempt}, par {daily.deal.par_moves}, commitment {daily.commitment}"
                )
        if not slots:
            self.stdout.write("every daily deal is ready")
