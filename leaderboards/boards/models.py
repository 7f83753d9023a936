"""Results of ranked games and the counts and standings that the boards read from them.

A :class:`Result` is written in the same transaction that finishes a ranked game: it keeps what the
boards sort and sum (cards left, moves, server time, pyramid cleared, match score, the deal's par)
so that a board is one indexed query. Every result can be rebuilt from its game at any time.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Cast


class Result(models.Model):
    """The scored outcome of one finished ranked game."""

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="result")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="results")
    deal = models.ForeignKey("games.Deal", on_delete=models.PROTECT, related_name="results")
    # no index of its own: result_daily_board starts with it and answers board reads from the index alone
    daily = models.ForeignKey(
        "games.DailyDeal", null=True, blank=True, on_delete=models.PROTECT, related_name="results", db_index=False
    )
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
            models.CheckConstraint(
                condition=Q(cards_left__lte=52) & Q(pyramid_left__lte=28), name="result_cards_range"
            ),
            models.CheckConstraint(condition=Q(duration_ms__gte=0), name="result_duration_positive"),
            models.CheckConstraint(condition=Q(cleared=True) | Q(pyramid_left__gt=0), name="result_cleared_iff_empty"),
            models.CheckConstraint(condition=Q(won=False) | Q(cards_left=0), name="result_won_has_no_cards_left"),
            models.CheckConstraint(
                condition=(Q(daily__isnull=True, date__isnull=True) | Q(daily__isnull=False, date__isnull=False)),
                name="result_daily_has_date",
            ),
        ]
        indexes = [
            # the daily board: one deal's results in ranking order (cards left, moves, time)
            models.Index(
                fields=["daily", "cards_left", "moves", "duration_ms", "id"],
                condition=Q(voided=False),
                name="result_daily_board",
            ),
            # a player's results by day (streaks, the page's history, the calendar), carrying what a player's
            # statistics and calendar read, so that they come from the index alone (docs/benchmarks.md)
            models.Index(
                fields=["player", "date"],
                condition=Q(voided=False),
                name="result_player_figures",
                include=["preset", "won", "cleared", "moves", "duration_ms", "cards_left", "daily", "game"],
            ),
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
        expression=(LIMIT - F("cleared")) * 2**46
        + (LIMIT - F("at_par")) * 2**33
        + Cast("cards_total", models.BigIntegerField()) * 2**13
        + (LIMIT - F("played")),
        output_field=models.BigIntegerField(),
        db_persist=True,
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["kind", "starts", "preset", "player"], name="period_standing_once"),
            models.CheckConstraint(
                condition=Q(kind="week") | Q(kind="all", starts=dt.date(1970, 1, 1)), name="period_standing_kind_valid"
            ),
            models.CheckConstraint(
                condition=Q(played__gte=1, played__lte=8191)
                & Q(cleared__lte=F("played"))
                & Q(won__lte=F("cleared"))
                & Q(at_par__lte=F("won"))
                & Q(cards_total__lte=F("played") * 52),
                name="period_standing_figures",
            ),
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
