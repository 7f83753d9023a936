"""Races: one secret deal for every entrant at the same moment, each game's progress told to the others as it
is made (counts only), and the race's end for everyone, told once: at its end, or as soon as every entrant's game
is over, whichever comes first. Until then nothing of its deal is shown to anyone; from then on it is public."""

from __future__ import annotations

import logging
import threading

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from games import services as game_services
from games.models import Game

from .. import live
from ..models import Entry, Tournament, WindowChange
from ..selectors import race_finish, race_of_game, race_podium

log = logging.getLogger(__name__)
# set while race_end closes a race's last games: each closed game would otherwise end the race again, one inside
# the other, as many deep as games were left playing
_closing = threading.local()


def race_on_game_moved(sender, *, game: Game, kind: str, **kwargs) -> None:
    """The receiver of ``games.signals.game_moved``, in the transaction that stores the change: a race game's
    progress is published once it is committed, and a game that is over may end the race for everyone."""
    race = race_of_game(game)
    if race is None:
        return
    live.race_progress(race, game, at=timezone.now())
    if game.is_over and getattr(_closing, "race", None) != race.pk:
        # after the game's commit, in a transaction of its own: the race's row is locked there, never while a
        # game's is held (a window moved holds the tournament's row while it moves the games')
        transaction.on_commit(lambda: race_end(tournament_id=race.pk), robust=True)


def race_end(*, tournament_id: int) -> Tournament | None:
    """End the race for everyone if its time has come: its end is past (games still playing are closed as they
    stand first), or every entrant's game is over (then its window ends now: the deal, which nobody can play any
    more, is public from now on, and the change of the window is kept like any other). Told once (``race_finished``,
    under the race's row lock), so safe to run twice, or at once from the last two games; the race once ended, or
    None when it goes on."""
    now = timezone.now()
    race = Tournament.objects.filter(pk=tournament_id, format=Tournament.Format.RACE, finished_at__isnull=True).first()
    if race is None or race.status != Tournament.Status.READY or now < race.starts_at:
        return None
    deal_ids = list(race.deals.values_list("deal_id", flat=True))
    games = Game.objects.filter(deal_id__in=deal_ids, mode=Game.Mode.RANKED, daily__isnull=True)
    if now >= race.ends_at:
        _closing.race = race.pk
        try:
            for game_id in games.filter(status=Game.Status.PLAYING).values_list("pk", flat=True):
                game_services.game_close(game_id=game_id)
        finally:
            _closing.race = None
    with transaction.atomic():
        race = Tournament.objects.select_for_update().get(pk=tournament_id)
        if race.finished_at is not None:
            return None
        if games.filter(status=Game.Status.PLAYING).exists():
            return None  # the last ones are still being played (or closed): their end comes back here
        if now < race.ends_at:
            entrants = Entry.objects.filter(tournament=race).values("player_id")
            over = games.filter(player_id__in=entrants).exclude(status=Game.Status.PLAYING).count()
            if over == 0 or over < Entry.objects.filter(tournament=race).count():
                return None  # an entrant has not played yet: the race runs on to its end
            # read after every game was seen over: each was stamped before its commit, so none ends after this
            now = max(timezone.now(), games.aggregate(last=Max("finished_at"))["last"])
        if now >= race.ends_at:
            race.finished_at = race.ends_at
        else:
            before = race.ends_at
            race.ends_at = race.finished_at = now
            WindowChange.objects.create(
                tournament=race,
                changed_by=None,
                starts_from=race.starts_at,
                starts_to=race.starts_at,
                ends_from=before,
                ends_to=now,
            )
            for deal_id in deal_ids:
                game_services.deal_window_end_early(deal_id=deal_id, window_end=before, at=now)
        race.save(update_fields=["ends_at", "finished_at"])
        podium = race_podium(race)
        live.race_finished(race, podium, race_finish(race, podium[0]["player_id"]) if podium else None)
        log.info("race %s over for everyone at %s", race.pk, race.finished_at)
        return race


def races_end_due() -> int:
    """End every race whose end has come and that nobody's last game ended (an entrant who never played); how many."""
    due = list(
        Tournament.objects.filter(
            format=Tournament.Format.RACE, finished_at__isnull=True, ends_at__lte=timezone.now()
        ).values_list("pk", flat=True)
    )
    for pk in due:
        race_end(tournament_id=pk)  # (a game it closes may end the race first, as any last game does)
    return Tournament.objects.filter(pk__in=due, finished_at__isnull=False).count()
