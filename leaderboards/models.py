"""Results of ranked games, clubs and their tournaments (the fair-play records are in ``fair_play``).

A :class:`Result` is written in the same transaction that finishes a ranked game: it keeps what the
boards sort and sum (cards left, moves, server time, pyramid cleared, match score, the deal's par)
so that a board is one indexed query. Every result can be rebuilt from its game at any time.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Cast, Upper

from pyramid_site.names import canonical_name

from .fair_play.models import Flag, Void  # noqa: F401  (models of this app, kept in their own room)


class Result(models.Model):
    """The scored outcome of one finished ranked game."""

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="result")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="results")
    deal = models.ForeignKey("games.Deal", on_delete=models.PROTECT, related_name="results")
    # no index of its own: result_daily_board starts with it and answers board reads from the index alone
    daily = models.ForeignKey("games.DailyDeal", null=True, blank=True, on_delete=models.PROTECT,
                              related_name="results", db_index=False)
    date = models.DateField(null=True, blank=True, help_text="the daily deal's UTC day")
    preset = models.CharField(max_length=20)
    cards_left = models.PositiveSmallIntegerField()
    pyramid_left = models.PositiveSmallIntegerField()
    moves = models.PositiveIntegerField()
    duration_ms = models.BigIntegerField(help_text="server time: finished_at - started_at, in milliseconds")
    cleared = models.BooleanField(help_text="the 28 pyramid cards are gone")
    won = models.BooleanField()
    match_score = models.IntegerField(help_text="Par Pyramid match score (engine.match_score)")
    par_moves = models.PositiveIntegerField(null=True, blank=True, help_text="the deal's par when it was solved")
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField()
    voided = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(cards_left__lte=52) & Q(pyramid_left__lte=28),
                                   name="result_cards_range"),
            models.CheckConstraint(condition=Q(duration_ms__gte=0), name="result_duration_positive"),
            models.CheckConstraint(condition=Q(cleared=True) | Q(pyramid_left__gt=0), name="result_cleared_iff_empty"),
            models.CheckConstraint(condition=Q(won=False) | Q(cards_left=0), name="result_won_has_no_cards_left"),
            models.CheckConstraint(condition=(Q(daily__isnull=True, date__isnull=True)
                                              | Q(daily__isnull=False, date__isnull=False)),
                                   name="result_daily_has_date"),
        ]
        indexes = [
            # the daily board: one deal's results in ranking order (cards left, moves, time)
            models.Index(fields=["daily", "cards_left", "moves", "duration_ms", "id"], condition=Q(voided=False),
                         name="result_daily_board"),
            # a player's results by day (streaks, the page's history, the calendar), carrying what a player's
            # statistics and calendar read, so that they come from the index alone (docs/benchmarks.md)
            models.Index(fields=["player", "date"], condition=Q(voided=False), name="result_player_figures",
                         include=["preset", "won", "cleared", "moves", "duration_ms", "cards_left", "daily", "game"]),
            models.Index(fields=["date", "preset"], condition=Q(voided=False), name="result_days"),
            models.Index(fields=["deal", "player"], condition=Q(voided=False), name="result_deal_player"),
        ]

    def __str__(self) -> str:
        return f"result of game {self.game_id}: {self.cards_left} left in {self.moves}"

    @property
    def over_par(self) -> int | None:
        """Moves over par of a won game ("+3"); None when the game was not won or the deal has no par."""
        if not self.won or self.par_moves is None:
            return None
        return self.moves - self.par_moves


class BoardCount(models.Model):
    """How many counted results of a daily deal left ``cards_left`` cards in ``moves`` moves.

    A rank on a big board is 1 + the results ahead of it; summing these few hundred counts answers
    that without reading every result ahead. Kept in step with :class:`Result` by the services that
    write results and voids, and rebuilt from the results by ``rebuild_boards``.

    Each bucket is spread over ``SHARDS`` rows, a result counting in its player's (``player_id % SHARDS``),
    and read as their sum: players finishing the day's deal the same way at the same moment (the commonest
    result of all, a win at par) then lock different rows instead of queueing on one.
    """

    SHARDS = 16

    daily = models.ForeignKey("games.DailyDeal", on_delete=models.CASCADE, related_name="board_counts")
    cards_left = models.PositiveSmallIntegerField()
    moves = models.PositiveIntegerField()
    shard = models.PositiveSmallIntegerField(default=0)
    results = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["daily", "cards_left", "moves", "shard"], name="board_count_unique"),
            models.CheckConstraint(condition=Q(shard__lt=16), name="board_count_shard_range"),
        ]


class PeriodStanding(models.Model):
    """A player's figures on one weekly board, or the all-time board, of a daily preset: the sums the board
    ranks by (docs/leaderboards.md, "Board formulas"), kept in step with the results as they land, so that a board is an
    index range and a rank one count, at any size. Rebuilt from the results by ``rebuild_boards``."""

    class Kind(models.TextChoices):
        WEEK = "week"  # starts on the Monday of its ISO week
        ALL_TIME = "all"  # starts on ALL_TIME_START

    ALL_TIME_START = dt.date(1970, 1, 1)
    LIMIT = 8191  # days a player may have played one preset's daily deals: 22 years, 13 bits of the rank key

    kind = models.CharField(max_length=4, choices=Kind.choices)
    starts = models.DateField()
    preset = models.CharField(max_length=20)
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    played = models.PositiveIntegerField()
    cleared = models.PositiveIntegerField()
    won = models.PositiveIntegerField()
    at_par = models.PositiveIntegerField()
    cards_total = models.PositiveIntegerField()
    best_cards_left = models.PositiveSmallIntegerField()
    best_moves_won = models.PositiveIntegerField(null=True, blank=True)
    # the board's order in one ascending number: more cleared, then more at par, then fewer cards left in
    # all, then more played; equal keys share a rank
    rank_key = models.GeneratedField(
        expression=(LIMIT - F("cleared")) * 2**46 + (LIMIT - F("at_par")) * 2**33
        + Cast("cards_total", models.BigIntegerField()) * 2**13
        + (LIMIT - F("played")),
        output_field=models.BigIntegerField(), db_persist=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["kind", "starts", "preset", "player"], name="period_standing_once"),
            models.CheckConstraint(condition=Q(kind="week") | Q(kind="all", starts=dt.date(1970, 1, 1)),
                                   name="period_standing_kind_valid"),
            models.CheckConstraint(condition=Q(played__gte=1, played__lte=8191) & Q(cleared__lte=F("played"))
                                   & Q(won__lte=F("cleared")) & Q(at_par__lte=F("won"))
                                   & Q(cards_total__lte=F("played") * 52), name="period_standing_figures"),
        ]
        indexes = [models.Index(fields=["kind", "starts", "preset", "rank_key", "player"], name="period_standing_rank")]

    def __str__(self) -> str:
        return f"{self.player_id} on the {self.kind} board of {self.starts} ({self.preset})"


class PeriodCount(models.Model):
    """How many players of one weekly board, or the all-time board, stand in one bucket of its order: the same
    pyramids cleared, results at par and cards left in all (``rank_key >> BUCKET_BITS``; only deals played,
    the last key, may differ inside a bucket). A rank is one more than the players ahead: whole buckets summed
    from these rows, and the few ahead in one's own bucket counted, so no read counts a million rows. Kept in
    step with :class:`PeriodStanding`, and rebuilt from it."""

    BUCKET_BITS = 13

    kind = models.CharField(max_length=4, choices=PeriodStanding.Kind.choices)
    starts = models.DateField()
    preset = models.CharField(max_length=20)
    bucket = models.BigIntegerField()
    players = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["kind", "starts", "preset", "bucket"], name="period_count_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.players} players in bucket {self.bucket} of the {self.kind} board of {self.starts}"


class Club(models.Model):
    name = models.CharField(max_length=60, unique=True)
    # the name's canonical key (pyramid_site.names.canonical_name: case folded, confusable skeleton), kept
    # with the name by save(): "Owls", "OWLS" and "Оwls" with a Cyrillic О are one name
    name_key = models.TextField(unique=True, editable=False)
    description = models.TextField(blank=True, max_length=2000)
    is_private = models.BooleanField(default=False, help_text="only members see its boards and tournaments")
    invite_code = models.CharField(max_length=24, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    archived_at = models.DateTimeField(
        null=True, blank=True,
        help_text="its last member left while it had tournaments that had started: kept, read-only, for their "
                  "standings; it takes no members, tournaments or changes")

    class Meta:
        constraints = [
            models.CheckConstraint(condition=~Q(name=""), name="club_has_name"),
            # names are kept NFKC-normalised (pyramid_site.names); "Owls" and "OWLS" are one name
            models.UniqueConstraint(Upper("name"), name="club_name_unique_whatever_case"),
            models.CheckConstraint(condition=Q(archived_at__isnull=True) | Q(archived_at__gte=F("created_at")),
                                   name="club_archived_after_created"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        self.name_key = canonical_name(self.name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner"
        ADMIN = "admin"
        MEMBER = "member"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=8, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_once"),
            models.UniqueConstraint(fields=["club"], condition=Q(role="owner"), name="membership_one_owner"),
            models.CheckConstraint(condition=Q(role__in=["owner", "admin", "member"]), name="membership_role_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.club_id} ({self.role})"

    @property
    def can_manage(self) -> bool:
        return self.role in (self.Role.OWNER, self.Role.ADMIN)


class Tournament(models.Model):
    class Format(models.TextChoices):
        MATCH = "match"
        ARENA = "arena"

    class Scoring(models.TextChoices):
        PLAIN = "plain"  # total cards left, then total moves, then total time
        PAR = "par"  # Par Pyramid match score, highest first

    class Source(models.TextChoices):
        SECRET = "secret"  # numbers from the server's secret, proved winnable by the solver
        DAILY = "daily"  # the day's daily deal

    class Status(models.TextChoices):
        PREPARING = "preparing"
        READY = "ready"
        FAILED = "failed"  # no winnable deal within the allowed attempts

    # a club with tournaments is never deleted with them: the club service deletes only tournaments that never
    # started, and archives a club whose tournaments did
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="tournaments")
    name = models.CharField(max_length=80)
    rules = models.CharField(max_length=120, help_text="canonical rule-set text")
    preset = models.CharField(max_length=20)
    format = models.CharField(max_length=8, choices=Format.choices)
    scoring = models.CharField(max_length=8, choices=Scoring.choices, default=Scoring.PLAIN)
    source = models.CharField(max_length=8, choices=Source.choices, default=Source.SECRET)
    deal_count = models.PositiveSmallIntegerField()
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PREPARING)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                   related_name="tournaments_created")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(ends_at__gt=models.F("starts_at")), name="tournament_ends_after_start"),
            models.CheckConstraint(condition=Q(deal_count__gte=1, deal_count__lte=100), name="tournament_deal_count"),
            models.CheckConstraint(condition=Q(format__in=["match", "arena"]), name="tournament_format_valid"),
            models.CheckConstraint(condition=Q(scoring__in=["plain", "par"]), name="tournament_scoring_valid"),
            models.CheckConstraint(condition=Q(format="match") | Q(scoring="plain"), name="tournament_arena_plain"),
            models.CheckConstraint(condition=Q(status__in=["preparing", "ready", "failed"]),
                                   name="tournament_status_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.club})"


class TournamentDeal(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="deals")
    index = models.PositiveSmallIntegerField(help_text="0 for the first deal")
    deal = models.ForeignKey("games.Deal", on_delete=models.PROTECT, related_name="tournament_deals")
    attempt = models.PositiveSmallIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "index"], name="tournament_deal_index_unique"),
            models.UniqueConstraint(fields=["tournament", "deal"], name="tournament_deal_once"),
        ]
        ordering = ["tournament", "index"]


class Entry(models.Model):
    """A player in a tournament, with their standing, refreshed from their results as games finish."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="entries")
    joined_at = models.DateTimeField(auto_now_add=True)
    score = models.IntegerField(default=0, help_text="match (par scoring) or arena points; 0 under plain scoring")
    games = models.PositiveIntegerField(default=0, help_text="finished games that count")
    cleared = models.PositiveIntegerField(default=0)
    cards_left = models.PositiveIntegerField(default=0, help_text="match: a deal not played counts all its cards")
    moves = models.PositiveIntegerField(default=0)
    duration_ms = models.BigIntegerField(default=0)
    streak = models.PositiveIntegerField(default=0, help_text="arena: clears in a row at the end of the sequence")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="entry_once")]
        indexes = [
            models.Index(fields=["tournament", "-score", "cards_left", "moves", "duration_ms"],
                         name="entry_standing_score"),
        ]


class WindowChange(models.Model):
    """The audit record of a tournament's window moved: who, when, from and to (shown with the standings)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="window_changes")
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="window_changes")
    changed_at = models.DateTimeField(auto_now_add=True)
    starts_from = models.DateTimeField()
    starts_to = models.DateTimeField()
    ends_from = models.DateTimeField()
    ends_to = models.DateTimeField()

    class Meta:
        constraints = [
            models.CheckConstraint(condition=~(Q(starts_from=F("starts_to")) & Q(ends_from=F("ends_to"))),
                                   name="window_change_changes_something"),
            models.CheckConstraint(condition=Q(ends_to__gt=F("starts_to")), name="window_change_ends_after_start"),
        ]
        ordering = ["tournament", "changed_at", "pk"]


# the kinds of ClubChange about one member (which name them), and those that change a value (before and after)
_MEMBER_KINDS = ["member_removed", "member_left", "member_role"]
_VALUE_KINDS = ["club_name", "club_description", "club_privacy", "member_role", "tournament_name"]


class ClubChange(models.Model):
    """The audit record of a change to a club or one of its tournaments (who, when, what): made by its owner or
    an admin, or a member leaving. The club's managers read the club's record; a tournament shows the changes
    that touch it (docs/fair-play.md, "Tournaments nobody can bend"). A tournament's window moves are in
    :class:`WindowChange`."""

    class Kind(models.TextChoices):
        CLUB_NAME = "club_name"
        CLUB_DESCRIPTION = "club_description"
        CLUB_PRIVACY = "club_privacy"  # before and after: "public" or "private"
        INVITE_RENEWED = "invite_renewed"  # neither code is kept here
        MEMBER_REMOVED = "member_removed"  # before: the role the member had
        MEMBER_LEFT = "member_left"  # before: the role the member had
        MEMBER_ROLE = "member_role"
        CLUB_ARCHIVED = "club_archived"
        TOURNAMENT_NAME = "tournament_name"

    MEMBER_KINDS = _MEMBER_KINDS
    VALUE_KINDS = _VALUE_KINDS

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="changes")
    tournament = models.ForeignKey(Tournament, null=True, blank=True, on_delete=models.CASCADE,
                                   related_name="changes", help_text="the tournament changed (its name)")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    # null once the account is deleted; the record stays
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    changed_at = models.DateTimeField(auto_now_add=True)
    # the record of a member goes with their account, as their entries do (only idle guests are ever deleted)
    member = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                               related_name="+", help_text="the member removed, who left, or whose role changed")
    before = models.TextField(blank=True, default="")
    after = models.TextField(blank=True, default="")

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=[
                "club_name", "club_description", "club_privacy", "invite_renewed", "member_removed", "member_left",
                "member_role", "club_archived", "tournament_name"]), name="club_change_kind_valid"),
            models.CheckConstraint(
                condition=Q(kind="tournament_name", tournament__isnull=False)
                | (~Q(kind="tournament_name") & Q(tournament__isnull=True)),
                name="club_change_tournament_iff_renamed"),
            models.CheckConstraint(
                condition=Q(kind__in=_MEMBER_KINDS, member__isnull=False)
                | (~Q(kind__in=_MEMBER_KINDS) & Q(member__isnull=True)),
                name="club_change_member_iff_member_kind"),
            # nobody removes themselves (that is leaving), and nobody leaves for someone else
            models.CheckConstraint(condition=~Q(kind="member_removed", member=F("changed_by")),
                                   name="club_change_removal_of_another"),
            models.CheckConstraint(condition=~Q(kind="member_left") | Q(member=F("changed_by"))
                                   | Q(changed_by__isnull=True), name="club_change_left_by_themselves"),
            models.CheckConstraint(condition=~Q(kind__in=_VALUE_KINDS) | ~Q(before=F("after")),
                                   name="club_change_changes_something"),
        ]
        indexes = [models.Index(fields=["club", "changed_at"], name="club_change_club_time")]
        ordering = ["club", "changed_at", "pk"]

    def __str__(self) -> str:
        return f"{self.kind} in club {self.club_id} by {self.changed_by_id} at {self.changed_at:%Y-%m-%d %H:%M}"
