import datetime as dt

from django.core.management.base import BaseCommand, CommandError

import engine
from games.models import DailyDeal, Deal


class Command(BaseCommand):
    help = "Show a deal and its solver results: by number and rules, or the daily deal of a date."

    def add_arguments(self, parser):
        parser.add_argument("number", type=int, nargs="?")
        parser.add_argument("--rules", default="classic")
        parser.add_argument("--date", type=dt.date.fromisoformat, help="the daily deal of this day")
        parser.add_argument("--preset", default="classic", help="with --date")

    def handle(self, *args, number, rules, date, preset, **options):
        if date:
            daily = DailyDeal.objects.select_related("deal").filter(date=date, preset=preset).first()
            if daily is None:
                raise CommandError(f"no daily deal for {date} {preset}")
            self.stdout.write(
                f"daily {date} {preset}: attempt {daily.attempt}\ncommitment {daily.commitment}\nsalt {daily.salt}"
            )
            deal = daily.deal
        elif number is not None:
            deal = Deal.objects.filter(number=number, rules=engine.Rules.parse(rules).to_text()).first()
            if deal is None:
                raise CommandError(f"deal #{number} under {rules} is not in the database")
        else:
            raise CommandError("give a deal number or --date")
        self.stdout.write(
            f"deal #{deal.number} {deal.preset} ({deal.rules})\n"
            f"{engine.parse_deal(deal.text).layout_text(engine.Rules.parse(deal.rules).reserve)}\n"
            f"status {deal.status}, par {deal.par_moves}, best cards left {deal.best_cards_left}, "
            f"difficulty {deal.difficulty}\nsolution {deal.solution or '-'}"
        )
