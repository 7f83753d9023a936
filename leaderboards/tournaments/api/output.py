"""The tournaments' answers, each declared once by an ``...Output`` serializer that also produces it (see
``leaderboards.boards.api.output``); the standings rows are built by hand for speed."""

from __future__ import annotations

from rest_framework import serializers

from games.api.serializers import GameBriefOutput
from pyramid_site.api.output import Computed, PlayerRefOutput, PresetField, WireDateTimeField, player_ref

from ...clubs.api.output import ClubChangeOutput, change_computed
from ...clubs.models import Membership
from ..models import Tournament

# the choice sets of the answers (and of the schema's enums: SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"])
TOURNAMENT_FORMATS = list(Tournament.Format.values)
TOURNAMENT_SCORINGS = list(Tournament.Scoring.values)
TOURNAMENT_SOURCES = list(Tournament.Source.values)
TOURNAMENT_STATUSES = list(Tournament.Status.values)


def tournament_output(tournament: Tournament, membership: Membership | None = None) -> dict:
    can_manage = bool(membership and membership.can_manage)
    return TournamentOutput(Computed(tournament, club=tournament.club_id, can_manage=can_manage)).data


def entry_output(row: dict, *, scored: bool = True) -> dict:
    """A standing; ``score`` is null under plain scoring, where the ranking is by cards, moves and time."""
    return {
        "rank": row["rank"],
        "player": player_ref(row["player_id"], row["player__username"]),
        "score": row["score"] if scored else None,
        "games": row["games"],
        "cleared": row["cleared"],
        "cards_left": row["cards_left"],
        "moves": row["moves"],
        "seconds": row["duration_ms"] / 1000,
        "streak": row["streak"],
        "joined_at": row["joined_at"],
    }


def joined_output(entry, not_counted: list[tuple[int, int]]) -> dict:
    return EntryOutput(
        Computed(
            entry,
            tournament=entry.tournament_id,
            player=entry.player_id,
            games_not_counted=[{"index": index, "game": game_id} for index, game_id in not_counted],
        )
    ).data


def _mine(mine: dict) -> Computed:
    entry = mine["entry"]
    return Computed(
        entry,
        games_counted=entry.games,
        seconds=entry.duration_ms / 1000,
        deals=[
            {"index": index, "game": game, "counted": game is not None and game.pk in mine["counted"]}
            for index, game in mine["games"]
        ],
    )


def tournament_detail_output(page) -> dict:
    """A tournament with my entry (null until I join) and its changes (``selectors.TournamentPage``)."""
    membership = page.membership
    return TournamentDetailOutput(
        Computed(
            page.tournament,
            club=page.tournament.club_id,
            can_manage=bool(membership and membership.can_manage),
            me=page.mine and _mine(page.mine),
            changes=[change_computed(c) for c in page.changes],
        )
    ).data


def window_change_output(change) -> dict:
    return WindowChangeOutput(
        Computed(
            change,
            changed_by=change.changed_by_id,
            starts_at={"from": change.starts_from, "to": change.starts_to},
            ends_at={"from": change.ends_from, "to": change.ends_to},
        )
    ).data


class TournamentOutput(serializers.Serializer):
    """A tournament (``tournament_output``)."""

    id = serializers.IntegerField()
    club = serializers.IntegerField()
    name = serializers.CharField()
    preset = PresetField()
    rules = serializers.CharField(help_text="canonical rule-set text")
    format = serializers.ChoiceField(choices=TOURNAMENT_FORMATS)
    scoring = serializers.ChoiceField(choices=TOURNAMENT_SCORINGS)
    source = serializers.ChoiceField(choices=TOURNAMENT_SOURCES)
    deal_count = serializers.IntegerField()
    status = serializers.ChoiceField(choices=TOURNAMENT_STATUSES, help_text="preparing until its deals are ready")
    starts_at = WireDateTimeField()
    ends_at = WireDateTimeField()
    finished_at = WireDateTimeField(
        allow_null=True,
        help_text="a race: when it ended for everyone (its end, or earlier once every entrant's game was over: its "
        "window then ends there too); null until then, and for other formats",
    )
    can_manage = serializers.BooleanField(help_text="I may change or delete it")

    class Meta:
        ref_name = "Tournament"


class MyDealOutput(serializers.Serializer):
    index = serializers.IntegerField(help_text="0 for the first deal")
    game = GameBriefOutput(allow_null=True, help_text="my game of it; null until I start one")
    counted = serializers.BooleanField(
        help_text="my game of it counts in the standings (a game started before I joined never does)"
    )

    class Meta:
        ref_name = "MyDeal"


class MyEntryOutput(serializers.Serializer):
    """My entry in a tournament (``tournament_detail_output``)."""

    joined_at = WireDateTimeField()
    score = serializers.IntegerField(help_text="match (par scoring) or arena points; 0 under plain scoring")
    games_counted = serializers.IntegerField()
    cleared = serializers.IntegerField()
    cards_left = serializers.IntegerField()
    moves = serializers.IntegerField()
    seconds = serializers.FloatField()
    streak = serializers.IntegerField()
    deals = MyDealOutput(many=True)

    class Meta:
        ref_name = "MyEntry"


class TournamentDetailOutput(TournamentOutput):
    me = MyEntryOutput(allow_null=True, help_text="my entry; null until I join")
    changes = ClubChangeOutput(
        many=True,
        help_text="every change to it and its club from its creation to its end, "
        "oldest first (its window's moves are with the standings)",
    )

    class Meta:
        ref_name = "TournamentDetail"


class NotCountedOutput(serializers.Serializer):
    index = serializers.IntegerField(help_text="the deal's index")
    game = serializers.IntegerField(help_text="my game of it, started before I joined")

    class Meta:
        ref_name = "GameNotCounted"


class EntryOutput(serializers.Serializer):
    """A tournament entry as joining answers it (``joined_output``)."""

    tournament = serializers.IntegerField()
    player = serializers.IntegerField()
    joined_at = WireDateTimeField(help_text="only games started from then on count")
    games_not_counted = NotCountedOutput(
        many=True,
        help_text="my games of its deals started before I joined: they never count in it, and their deals are played",
    )

    class Meta:
        ref_name = "Entry"


class StandingOutput(serializers.Serializer):
    """A row of the standings (``entry_output``)."""

    rank = serializers.IntegerField()
    player = PlayerRefOutput()
    score = serializers.IntegerField(
        allow_null=True,
        help_text="arena points or par score; null under plain scoring, which ranks by cards, moves and time",
    )
    games = serializers.IntegerField()
    cleared = serializers.IntegerField()
    cards_left = serializers.IntegerField()
    moves = serializers.IntegerField()
    seconds = serializers.FloatField()
    streak = serializers.IntegerField()
    joined_at = WireDateTimeField(help_text="only games started from then on count")

    class Meta:
        ref_name = "Standing"


class WindowOutput(serializers.Serializer):
    # "from" is a keyword of Python's: the fields are added in get_fields
    class Meta:
        ref_name = "WindowMove"

    def get_fields(self):
        return {"from": WireDateTimeField(), "to": WireDateTimeField()}


class WindowChangeOutput(serializers.Serializer):
    """A change of a tournament's window, for everyone to see (``window_change_output``)."""

    changed_by = serializers.IntegerField(allow_null=True)
    changed_at = WireDateTimeField()
    starts_at = WindowOutput()
    ends_at = WindowOutput()

    class Meta:
        ref_name = "WindowChange"
