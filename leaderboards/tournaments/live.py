"""Live updates of tournaments (``tournament:<id>``: who joined or left, each standing as a finished game lands on
it, its start coming, come and its end), and their announcements to their club's members (``player:<id>``). Only
what the standings show their readers: names and counts, never a card. The payloads are documented by
``leaderboards.tournaments.api.events`` and ``leaderboards.tournaments.api.notifications``."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone
from rest_framework.utils.encoders import JSONEncoder

from pyramid_site.live import player_channel, publish_after_commit, publish_many_after_commit

from ..boards.live import player_payload
from .models import Entry, Tournament, TournamentAnnouncement


def tournament_channel(tournament_id: int) -> str:
    return f"tournament:{tournament_id}"


def entry_joined(entry: Entry) -> None:
    publish_after_commit(
        tournament_channel(entry.tournament_id),
        {"type": "joined", "tournament": entry.tournament_id, "player": player_payload(entry.player)},
    )


def entry_left(tournament_id: int, player) -> None:
    publish_after_commit(
        tournament_channel(tournament_id),
        {"type": "left", "tournament": tournament_id, "player": player_payload(player)},
    )


def standing_changed(entry: Entry) -> None:
    """The entry's standing as the standings show it, once refreshed (a finished game counted, or a join)."""
    publish_after_commit(
        tournament_channel(entry.tournament_id),
        {
            "type": "standing",
            "tournament": entry.tournament_id,
            "player": player_payload(entry.player),
            "score": entry.score,
            "games": entry.games,
            "cleared": entry.cleared,
            "cards_left": entry.cards_left,
            "moves": entry.moves,
            "seconds": entry.duration_ms / 1000,
            "streak": entry.streak,
        },
    )


def wire_time(value: dt.datetime) -> str:
    """A time as the API's answers print it (DRF's encoder), so an event's times compare equal to a read's."""
    return JSONEncoder().default(value)


def tournament_announced(tournament: Tournament, kind: str, members: list[int]) -> None:
    """``soon``, ``started`` or ``ended`` on the tournament's channel once the claim of it commits, and
    ``tournament_soon`` / ``tournament_started`` to each member of its club; ``server_time`` lets a page count down
    by the server's clock, not its own."""
    now = wire_time(timezone.now())
    window = {"starts_at": wire_time(tournament.starts_at), "ends_at": wire_time(tournament.ends_at)}
    if kind == TournamentAnnouncement.Kind.ENDED:
        event = {"type": kind, "tournament": tournament.pk, "ends_at": window["ends_at"]}
    else:
        event = {"type": kind, "tournament": tournament.pk, **window, "server_time": now}
    publish_after_commit(tournament_channel(tournament.pk), event)
    if kind == TournamentAnnouncement.Kind.ENDED:
        return
    note = {
        "type": f"tournament_{kind}",
        "tournament": tournament.pk,
        "name": tournament.name,
        "club": tournament.club_id,
        "club_name": tournament.club.name,
        "format": tournament.format,
        **window,
        "server_time": now,
    }
    publish_many_after_commit([(player_channel(member), note) for member in members])


RACE_STATES = {"playing": "playing", "won": "cleared", "stuck": "stuck", "resigned": "resigned", "closed": "closed"}


def race_progress(race: Tournament, game, *, at) -> None:
    """A race game's progress as every entrant and spectator sees it: counts, never a card (its deal is secret
    until the race is over for everyone). ``seconds`` is the race's clock at the change (the game's end once over)."""
    publish_after_commit(
        tournament_channel(race.pk),
        {
            "type": "race_progress",
            "tournament": race.pk,
            "player": player_payload(game.player),
            "cards_left": game.cards_left,
            "moves": game.moves,
            "state": RACE_STATES[game.status],
            "seconds": max(0, int(((game.finished_at or at) - race.starts_at).total_seconds() * 1000)) / 1000,
        },
    )


def race_finished(race: Tournament, podium: list[dict], finish: dict | None) -> None:
    """The race is over for everyone: its standings' top rows, and the winner's last moves with their cards."""
    publish_after_commit(
        tournament_channel(race.pk),
        {
            "type": "race_finished",
            "tournament": race.pk,
            "finished_at": (race.finished_at or race.ends_at).isoformat().replace("+00:00", "Z"),
            "standings": [
                {
                    "rank": row["rank"],
                    "player": {"id": row["player_id"], "username": row["player__username"]},
                    "games": row["games"],
                    "cards_left": row["cards_left"],
                    "seconds": row["duration_ms"] / 1000,
                }
                for row in podium
            ],
            "finish": finish,
        },
    )
