"""Results of ranked games, fair-play voids and flags, clubs and their tournaments.

A :class:`Result` is written in the same transaction that finishes a ranked game: it keeps what the
boards sort and sum (cards left, moves, server time, pyramid cleared, match score, the deal's par)
so that a board is one indexed query. Every result can be rebuilt from its game at any time.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


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
            models.CheckConstraint(condition=Q(daily__isnull=True, date__isnull=True) | Q(daily__isnull=False, date__isnull=False),
                                   name="result_daily_has_date"),
        ]
        indexes = [
            # the daily board: one deal's results in ranking order (cards left, moves, time)
            models.Index(fields=["daily", "cards_left", "moves", "duration_ms", "id"], condition=Q(voided=False),
                         name="result_daily_board"),
            models.Index(fields=["player", "date"], condition=Q(voided=False), name="result_player_days"),
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
    """

    daily = models.ForeignKey("games.DailyDeal", on_delete=models.CASCADE, related_name="board_counts")
    cards_left = models.PositiveSmallIntegerField()
    moves = models.PositiveIntegerField()
    results = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["daily", "cards_left", "moves"], name="board_count_unique"),
        ]


class Void(models.Model):
    """The audit record of a fair-play decision: a game or a whole player taken off every board."""

    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="voids")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                               related_name="voids")
    reason = models.TextField()
    voided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="voids_made")
    created_at = models.DateTimeField(auto_now_add=True)
    lifted_at = models.DateTimeField(null=True, blank=True)
    lifted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="voids_lifted")
    lift_reason = models.TextField(blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(game__isnull=True, player__isnull=False) | Q(game__isnull=False, player__isnull=True),
                                   name="void_game_xor_player"),
            models.CheckConstraint(condition=~Q(reason=""), name="void_has_reason"),
            models.UniqueConstraint(fields=["game"], condition=Q(lifted_at__isnull=True, game__isnull=False),
                                    name="void_one_active_per_game"),
            models.UniqueConstraint(fields=["player"], condition=Q(lifted_at__isnull=True, player__isnull=False),
                                    name="void_one_active_per_player"),
        ]
        ordering = ["-created_at"]

    def __str__(self) -> str:
        target = f"game {self.game_id}" if self.game_id else f"player {self.player_id}"
        return f"void of {target}: {self.reason}"


class Flag(models.Model):
    """A game put up for an operator's review by the re-check job: never a penalty by itself. An
    operator who agrees voids the game (a :class:`Void`); either way the review is recorded here."""

    class Kind(models.TextChoices):
        RESULT_MISMATCH = "result_mismatch"  # the move log, replayed, does not give the stored result
        SUSPICIOUS = "suspicious"  # the documented fair-play rule (README, "Fair play") fired

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="flags")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    detail = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
    reviewed_at = models.DateTimeField(null=True, blank=True)
    reviewed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="flags_reviewed")
    review_note = models.TextField(blank=True)

    class Meta:
        constraints = [
            # one flag of a kind per game: the re-check job is safe to run again
            models.UniqueConstraint(fields=["game", "kind"], name="flag_once_per_game_kind"),
            models.CheckConstraint(condition=Q(kind__in=["result_mismatch", "suspicious"]), name="flag_kind_valid"),
            models.CheckConstraint(condition=~Q(detail=""), name="flag_has_detail"),
        ]
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.kind} flag of game {self.game_id}: {self.detail}"


class Club(models.Model):
    name = models.CharField(max_length=60, unique=True)
    description = models.TextField(blank=True, max_length=2000)
    is_private = models.BooleanField(default=False, help_text="only members see its boards and tournaments")
    invite_code = models.CharField(max_length=24, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.CheckConstraint(condition=~Q(name=""), name="club_has_name")]

    def __str__(self) -> str:
        return self.name


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

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="tournaments")
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
