import datetime as dt

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from pyramid_site.accounts import services


class Command(BaseCommand):
    help = (
        "Delete the guest accounts made more than --days days ago that never signed up and never started a "
        "game (guests who played are kept: their results are on the boards)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--days", type=int, default=30, help="age in days of the guests to delete (30)")

    def handle(self, *args, days, **options):
        if days < 1:
            raise CommandError("--days is 1 or more")
        deleted = services.guests_delete_idle(created_before=timezone.now() - dt.timedelta(days=days))
        self.stdout.write(f"{deleted} idle guest account{'' if deleted == 1 else 's'} deleted")
