"""Rebuild the boards from PostgreSQL: results of finished ranked games that have none, the daily
boards' counts, the weekly and all-time standings, every tournament's standings, and the Redis copies of the
daily boards."""

from django.core.management.base import BaseCommand

from leaderboards.boards import services
from leaderboards.tournaments import services as tournament_services
from leaderboards.tournaments.models import Tournament


class Command(BaseCommand):
    help = "Rebuild results, tournament standings and the Redis daily boards from PostgreSQL."

    def add_arguments(self, parser):
        parser.add_argument(
            "--days", type=int, default=None, help="only the Redis boards of the last DAYS days (all by default)"
        )

    def handle(self, *args, days=None, **options):
        written = services.results_rebuild()
        buckets = services.board_counts_rebuild()
        standings = services.period_standings_rebuild()
        entries = sum(
            tournament_services.standings_rebuild(tournament_id=pk)
            for pk in Tournament.objects.values_list("pk", flat=True)
        )
        boards = services.boards_cache_rebuild(days=days)
        self.stdout.write(
            f"results written: {written}; board counts: {buckets}; "
            f"weekly and all-time standings: {standings}; "
            f"tournament standings refreshed: {entries}; Redis boards: {boards}"
        )
