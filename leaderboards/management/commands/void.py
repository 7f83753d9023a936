"""Fair play from the command line: void a game or a player, or lift a void, with a reason."""

from django.core.management.base import BaseCommand, CommandError

from leaderboards.fair_play import services
from pyramid_site.errors import DomainError


class Command(BaseCommand):
    help = "Void a game or a player (every board recomputes without it), or lift a void."

    def add_arguments(self, parser):
        target = parser.add_mutually_exclusive_group(required=True)
        target.add_argument("--game", type=int)
        target.add_argument("--player", type=int)
        target.add_argument("--lift", type=int, metavar="VOID_ID")
        parser.add_argument("--reason", required=True)

    def handle(self, *args, game=None, player=None, lift=None, reason="", **options):
        try:
            if game is not None:
                void = services.game_void(game_id=game, reason=reason)
            elif player is not None:
                void = services.player_void(player_id=player, reason=reason)
            else:
                void = services.void_lift(void_id=lift, reason=reason)
        except DomainError as exc:
            raise CommandError(f"{exc.code.value}: {exc.message}") from None
        self.stdout.write(f"{'lifted' if lift else 'recorded'}: {void}")
