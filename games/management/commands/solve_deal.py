from django.core.management.base import BaseCommand, CommandError

import engine
from games import services


class Command(BaseCommand):
    help = "Solve a deal under a rule set now and store the verdict."

    def add_arguments(self, parser):
        parser.add_argument("number", type=int)
        parser.add_argument("--rules", default="classic", help="preset name or rule-set text")
        parser.add_argument("--budget", type=float, help="solver seconds")
        parser.add_argument("--force", action="store_true", help="solve again a deal whose verdict is unknown")

    def handle(self, *args, number, rules, budget, force, **options):
        try:
            parsed = engine.Rules.parse(rules)
        except engine.RulesError as exc:
            raise CommandError(str(exc)) from None
        deal = services.deal_get_or_create(number=number, rules=parsed)
        deal = services.deal_solve(deal_id=deal.pk, budget_seconds=budget, force=force)
        self.stdout.write(
            f"deal #{deal.number} {deal.preset}: {deal.status}, par {deal.par_moves}, "
            f"best cards left {deal.best_cards_left}, "
            f"{deal.solve_nodes} nodes in {deal.solve_seconds:.2f}s"
        )
