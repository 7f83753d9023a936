"""Tournaments as their clubs' members, their entrants and visitors see them."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.conf import settings
from django.db.models import BooleanField, Case, F, Q, Value, When, Window
from django.db.models.functions import Rank
from django.utils import timezone
from django.utils.translation import gettext

import engine
from games.engine_glue import engine_deal, engine_rules
from games.models import Game
from games.move_log import log_notations
from pyramid_site.errors import Code, DomainError
from pyramid_site.keyset import reversed_order, rows_beyond

from ..clubs.models import Club, ClubChange, Membership
from ..clubs.selectors import club_for_viewer, membership_of, viewer_id
from .counting import counting_results
from .models import Entry, Tournament


def club_tournaments(club: Club):
    return Tournament.objects.filter(club=club).order_by("-starts_at", "-pk")


def club_tournaments_for_viewer(*, club_id: int, viewer) -> tuple[Membership | None, object]:
    """The viewer's membership of a club they may see, and the club's tournaments, the latest start first."""
    club, membership = club_for_viewer(club_id=club_id, viewer=viewer)
    return membership, club_tournaments(club)


def window_changes(tournament: Tournament):
    return tournament.window_changes.order_by("changed_at", "pk")


def tournament_changes(tournament: Tournament):
    """The changes that touch a tournament, oldest first: from its creation to its end, its own (its name), the
    club's (name, description, privacy, invite code, roles) and those of its entrants' memberships (removed,
    left); and the club's archiving, whenever it came. Other members' comings and goings are the club's
    business, for its managers."""
    entrants = Entry.objects.filter(tournament=tournament).values("player_id")
    during = Q(changed_at__gte=tournament.created_at, changed_at__lt=tournament.ends_at) & (
        Q(tournament=tournament)
        | Q(tournament__isnull=True, member__isnull=True)
        | Q(kind=ClubChange.Kind.MEMBER_ROLE)
        | Q(member_id__in=entrants)
    )
    return (
        ClubChange.objects.filter(club_id=tournament.club_id)
        .filter(during | Q(kind=ClubChange.Kind.CLUB_ARCHIVED))
        .select_related("changed_by", "member")
        .order_by("changed_at", "pk")
    )


def tournament_for_viewer(*, tournament_id: int, viewer) -> tuple[Tournament, Membership | None]:
    """The tournament and the viewer's membership of its club: seen by everyone who sees its club, and by its
    entrants whatever became of their membership (removed, left, the club made private or archived)."""
    tournament = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
    if tournament is not None:
        membership = membership_of(tournament.club, viewer)
        if not tournament.club.is_private or membership is not None or is_entrant(tournament, viewer):
            return tournament, membership
    raise DomainError(
        Code.TOURNAMENT_NOT_FOUND,
        gettext("there is no tournament %(tournament_id)s that you can see") % {"tournament_id": tournament_id},
    )


def is_entrant(tournament: Tournament, viewer) -> bool:
    me = viewer_id(viewer)
    return me is not None and Entry.objects.filter(tournament=tournament, player_id=me).exists()


def standings_for_viewer(*, tournament_id: int, viewer) -> tuple[Tournament, Membership | None, bool]:
    """The tournament, the viewer's membership and whether the standings are final: live standings to the club's
    members and the tournament's entrants, final ones to everyone who sees the tournament."""
    tournament, membership = tournament_for_viewer(tournament_id=tournament_id, viewer=viewer)
    final = standings_are_final(tournament)
    if membership is None and not final and not is_entrant(tournament, viewer):
        raise DomainError(
            Code.NOT_MEMBER, gettext("live standings are for the club's members; everyone sees them after the end")
        )
    return tournament, membership, final


@dataclass
class TournamentPage:
    """A tournament as one viewer sees it: their membership of its club, their entry and games (None when not
    joined) and the changes that touch it."""

    tournament: Tournament
    membership: Membership | None
    mine: dict | None
    changes: list[ClubChange]


def tournament_page(*, tournament_id: int, viewer) -> TournamentPage:
    tournament, membership = tournament_for_viewer(tournament_id=tournament_id, viewer=viewer)
    mine = my_tournament(tournament=tournament, player=viewer)
    return TournamentPage(tournament, membership, mine, list(tournament_changes(tournament)))


@dataclass
class StandingsPage:
    """A tournament's standings as one viewer sees them: the rows (paged by the caller), whether they are final
    and scored, every move of its window and every other change."""

    tournament: Tournament
    membership: Membership | None
    final: bool
    scored: bool
    rows: object
    window_changes: list
    changes: list[ClubChange]
    keyed: object  # the rows for a cursor (``standings_keyed``), ranked a page at a time (``standings_rank``)
    key: list[str]


def standings_page(*, tournament_id: int, viewer) -> StandingsPage:
    tournament, membership, final = standings_for_viewer(tournament_id=tournament_id, viewer=viewer)
    # plain scoring ranks by cards, moves and time: no score to show (arena points and par scores are)
    scored = tournament.format == Tournament.Format.ARENA or tournament.scoring == Tournament.Scoring.PAR
    return StandingsPage(
        tournament,
        membership,
        final,
        scored,
        standings(tournament=tournament),
        list(window_changes(tournament)),
        list(tournament_changes(tournament)),
        standings_keyed(tournament=tournament),
        standing_key(tournament),
    )


def standing_order(tournament: Tournament) -> list:
    """Arena: points, then fewer cards left, then less time, a player with no game last. Race: fewer cards left,
    then (a player with no finished game after one who left as many) less time on the race's clock. Match:
    Par Pyramid score (highest first), or under plain scoring total cards left (a deal not played
    counts all its cards), then total moves, then total time."""
    if tournament.format == Tournament.Format.ARENA:
        no_game = Case(When(games=0, then=Value(True)), default=Value(False), output_field=BooleanField())
        return [F("score").desc(), no_game.asc(), F("cards_left").asc(), F("duration_ms").asc()]
    if tournament.format == Tournament.Format.RACE:
        no_game = Case(When(games=0, then=Value(True)), default=Value(False), output_field=BooleanField())
        return [F("cards_left").asc(), no_game.asc(), F("duration_ms").asc()]
    return [F("score").desc(), F("cards_left").asc(), F("moves").asc(), F("duration_ms").asc()]


STANDING_FIELDS = [
    "player_id",
    "player__username",
    "score",
    "games",
    "cleared",
    "cards_left",
    "moves",
    "duration_ms",
    "streak",
    "joined_at",
]


def standings(*, tournament: Tournament):
    """The entries in standing order, each a plain row with its rank."""
    return (
        Entry.objects.filter(tournament=tournament)
        .annotate(rank=Window(Rank(), order_by=standing_order(tournament)))
        .order_by("rank", "player_id")
        .values("rank", *STANDING_FIELDS)
    )


def standing_key(tournament: Tournament) -> list[str]:
    """``standing_order`` as order_by names over the columns of ``standings_keyed``, the player's id last: a
    unique key, for a cursor. A row is ahead of another when its key comes first."""
    if tournament.format == Tournament.Format.ARENA:
        return ["-score", "no_game", "cards_left", "duration_ms", "player_id"]
    if tournament.format == Tournament.Format.RACE:
        return ["cards_left", "no_game", "duration_ms", "player_id"]
    return ["-score", "cards_left", "moves", "duration_ms", "player_id"]


def standings_keyed(*, tournament: Tournament):
    """The entries as plain rows with the columns of ``standing_key`` and no rank (a window over the whole
    standings would be cut to a page's rows by the cursor's filter): ``standings_rank`` numbers a page of them."""
    rows = Entry.objects.filter(tournament=tournament)
    with_no_game = tournament.format in (Tournament.Format.ARENA, Tournament.Format.RACE)
    if with_no_game:
        rows = rows.annotate(
            no_game=Case(When(games=0, then=Value(True)), default=Value(False), output_field=BooleanField())
        )
    return rows.values(*STANDING_FIELDS, *(["no_game"] if with_no_game else []))


def standings_rank(*, tournament: Tournament, rows: list[dict]) -> None:
    """Rank the rows of a page of ``standings_keyed`` (consecutive in ``standing_key``'s order) as ``standings``
    does over the whole (SQL's RANK: 1 + the entries strictly ahead; equal standings share a rank), with two
    counts: the entries strictly ahead of the page's first row, and those before it in the order."""
    if not rows:
        return
    key = standing_key(tournament)
    ahead, standing = reversed_order(key), reversed_order(key[:-1])
    entries = standings_keyed(tournament=tournament)
    first = rows[0]
    before_page = entries.filter(rows_beyond(ahead, tuple(first[c.lstrip("-")] for c in key))).count()
    first["rank"] = 1 + entries.filter(rows_beyond(standing, tuple(first[c.lstrip("-")] for c in key[:-1]))).count()
    for index in range(1, len(rows)):
        tied = all(rows[index][c.lstrip("-")] == rows[index - 1][c.lstrip("-")] for c in key[:-1])
        rows[index]["rank"] = rows[index - 1]["rank"] if tied else before_page + index + 1


def standings_are_final(tournament: Tournament) -> bool:
    return timezone.now() >= tournament.ends_at


def my_tournament(*, tournament: Tournament, player) -> dict | None:
    """The player's entry and their game of each deal of the tournament, with whether it counts (None when not
    joined)."""
    if viewer_id(player) is None:  # a visitor has no entry
        return None
    entry = Entry.objects.filter(tournament=tournament, player_id=player.pk).first()
    if entry is None:
        return None
    slots = list(tournament.deals.order_by("index").values_list("index", "deal_id"))
    games = {
        g.deal_id: g
        for g in Game.objects.filter(
            player_id=player.pk, mode=Game.Mode.RANKED, deal_id__in=[deal_id for _, deal_id in slots]
        )
    }
    counted = set(counting_results(tournament).filter(player_id=player.pk).values_list("game_id", flat=True))
    return {"entry": entry, "games": [(index, games.get(deal_id)) for index, deal_id in slots], "counted": counted}


def games_not_counted(entry: Entry) -> list[tuple[int, int]]:
    """(deal index, game) of the entrant's ranked games of the tournament's deals started before they joined:
    such a game never counts in it (a tournament on the daily deal, where the daily game is the tournament's)."""
    slots = dict(entry.tournament.deals.values_list("deal_id", "index"))
    early = (
        Game.objects.filter(
            player_id=entry.player_id, mode=Game.Mode.RANKED, deal_id__in=list(slots), started_at__lt=entry.joined_at
        )
        .order_by("started_at", "pk")
        .values_list("deal_id", "pk")
    )
    return sorted((slots[deal_id], game_id) for deal_id, game_id in early)


def soon_before() -> dt.timedelta:
    """How long before its start a tournament is announced as coming (``soon``)."""
    return dt.timedelta(minutes=settings.PYRAMID_TOURNAMENT_SOON_MINUTES)


NOTIFICATIONS = 20


def my_notifications(*, viewer, now: dt.datetime | None = None) -> list[Tournament]:
    """What the bell shows: the tournaments of the viewer's clubs that start within ``soon_before`` or run now
    (not those whose deals could not be found), the soonest start first, ``NOTIFICATIONS`` at most."""
    now = now or timezone.now()
    me = viewer_id(viewer)
    if me is None:
        return []
    return list(
        Tournament.objects.filter(club__memberships__user_id=me, starts_at__lte=now + soon_before(), ends_at__gt=now)
        .exclude(status=Tournament.Status.FAILED)
        .select_related("club")
        .order_by("starts_at", "pk")[:NOTIFICATIONS]
    )


def race_of_game(game: Game) -> Tournament | None:
    """The race a ranked game is played in: a race of its deal, its player an entrant, started in its window."""
    if game.mode != Game.Mode.RANKED or game.daily_id is not None:
        return None
    return (
        Tournament.objects.filter(
            format=Tournament.Format.RACE,
            deals__deal_id=game.deal_id,
            entries__player_id=game.player_id,
            starts_at__lte=game.started_at,
            ends_at__gt=game.started_at,
        )
        .only("pk", "starts_at", "ends_at", "format")
        .first()
    )


def race_podium(race: Tournament, *, limit: int = 10) -> list[dict]:
    """The top rows of a race's standings, as its end tells them (results held by fair play never count)."""
    return list(standings(tournament=race)[:limit])


FINISH_MOVES = 8


def race_finish(race: Tournament, winner_id: int) -> dict | None:
    """The last moves of the winner's game that counts, each with the cards it took (a draw or redeal takes none):
    told once the race is over for everyone, when its deal is no longer secret. None when the winner has no game
    that counts."""
    result = counting_results(race).filter(player_id=winner_id).select_related("game__deal").first()
    if result is None:
        return None
    game = result.game
    notations = log_notations(game.move_log)
    position = engine.Position.start(engine_deal(game.deal.text), engine_rules(game.deal.rules))
    moves = []
    for ply, notation in enumerate(notations, start=1):
        move = engine.parse_move(notation)
        if ply > len(notations) - FINISH_MOVES:
            cards = [position.card_at(location) for location in move.locations]
            moves.append({"ply": ply, "move": notation, "cards": [engine.card_text(c) for c in cards if c is not None]})
        position.apply(move)
    return {"game": game.pk, "status": game.status, "cards_left": game.cards_left, "moves": moves}
