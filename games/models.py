"""Deals and their solver verdicts, daily deals, games and their move logs."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Length
from django.db.models.lookups import GreaterThanOrEqual, LessThanOrEqual
from django.utils import timezone

from .fields import UInt64Field


class Deal(models.Model):
    """One deal number under one rule set, with what the solver found."""

    class Status(models.TextChoices):
        PENDING = "pending"
        WINNABLE = "winnable"
        UNWINNABLE = "unwinnable"
        UNKNOWN = "unknown"  # the solver's budget ran out; never a guess

    number = UInt64Field(help_text="deal number, 0 to 2**64 - 1")
    rules = models.CharField(max_length=120, help_text="canonical rule-set text (engine Rules.to_text)")
    preset = models.CharField(max_length=20, help_text="preset name, or custom")
    text = models.CharField(max_length=200, help_text="deal text: 52 cards")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    par_moves = models.PositiveIntegerField(null=True, blank=True)
    best_cards_left = models.PositiveSmallIntegerField(null=True, blank=True)
    best_moves = models.PositiveIntegerField(null=True, blank=True)
    solution = models.TextField(blank=True, help_text="a line reaching the best result, in move notation")
    difficulty = models.PositiveSmallIntegerField(null=True, blank=True)
    solve_seconds = models.FloatField(null=True, blank=True)
    solve_nodes = models.BigIntegerField(null=True, blank=True)
    solved_at = models.DateTimeField(null=True, blank=True)
    failure = models.TextField(blank=True, help_text="why the solver gave no verdict (the verdict is then unknown)")
    # a daily deal's number stays secret until its day is over, a tournament deal's until the tournament
    # is: under every rule set, since the number alone gives the cards away
    secret_until = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["number", "rules"], name="deal_number_rules_unique"),
            models.CheckConstraint(
                condition=Q(status__in=["pending", "winnable", "unwinnable", "unknown"]), name="deal_status_valid"
            ),
            models.CheckConstraint(
                condition=(
                    Q(status="pending", solved_at__isnull=True) | (~Q(status="pending") & Q(solved_at__isnull=False))
                ),
                name="deal_solved_at_iff_solved",
            ),
            models.CheckConstraint(
                condition=~Q(status="winnable") | Q(par_moves__isnull=False, best_cards_left=0),
                name="deal_winnable_has_par",
            ),
            models.CheckConstraint(
                condition=~Q(status="unwinnable") | Q(best_cards_left__gt=0),
                name="deal_unwinnable_leaves_cards",
            ),
            models.CheckConstraint(
                condition=Q(difficulty__isnull=True) | Q(difficulty__gte=1, difficulty__lte=5),
                name="deal_difficulty_range",
            ),
            models.CheckConstraint(condition=Q(failure="") | Q(status="unknown"), name="deal_failure_is_unknown"),
        ]
        indexes = [
            # the solver's backlog, which /metrics counts: a few rows, however many deals were ever solved
            models.Index(fields=["id"], condition=Q(status="pending"), name="deal_pending"),
        ]

    def __str__(self) -> str:
        return f"deal #{self.number} ({self.preset})"


class DailyDeal(models.Model):
    """The deal everyone plays on one UTC day under one preset, proved winnable before the day."""

    date = models.DateField()
    preset = models.CharField(max_length=20)
    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="daily_deals")
    attempt = models.PositiveSmallIntegerField(help_text="which candidate of the day this is (0 = first)")
    # SHA-256 of the deal text and the salt, published before the day; the salt after it
    commitment = models.CharField(max_length=64)
    salt = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["date", "preset"], name="daily_date_preset_unique"),
            models.CheckConstraint(condition=Q(commitment__regex=r"^[0-9a-f]{64}$"), name="daily_commitment_hex"),
        ]
        ordering = ["date", "preset"]

    def __str__(self) -> str:
        return f"daily {self.date} {self.preset}"


class Game(models.Model):
    """One player's game of one deal: its position, and its moves in one compact value (``games.move_log``)."""

    class Mode(models.TextChoices):
        RANKED = "ranked"  # daily and tournament deals: once per player, no undo, no hints
        PRACTICE = "practice"

    class Status(models.TextChoices):
        PLAYING = "playing"
        WON = "won"
        STUCK = "stuck"
        RESIGNED = "resigned"
        CLOSED = "closed"  # a ranked game still playing when its window ended, closed by the server as it stood

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="games")
    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="games")
    daily = models.ForeignKey(DailyDeal, null=True, blank=True, on_delete=models.PROTECT, related_name="games")
    mode = models.CharField(max_length=10, choices=Mode.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    state = models.CharField(max_length=80, help_text="engine Position.dumps()")
    moves = models.PositiveIntegerField(default=0, help_text="length of the move log")
    cards_left = models.PositiveSmallIntegerField()
    undo_count = models.PositiveIntegerField(default=0)
    hint_count = models.PositiveIntegerField(default=0)
    hinted_version = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="the version the last hint counted was given at: a hint asked again at it "
        "(its answer lost) is not counted twice",
    )
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    # a ranked game's window: its daily deal's day, or its tournament; no move is taken from then on
    closes_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0, help_text="bumped by every write")
    move_log = models.BinaryField(
        default=bytes, editable=False, help_text="every move with its server time stamp, games.move_log's format"
    )
    # who played a ranked game, for fair play's scouting rule (pyramid_site.client): a salted hash of the
    # client address, never the address, and the id the web page keeps; empty when not known
    client_hash = models.CharField(max_length=64, blank=True, default="")
    device_id = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "deal"], condition=Q(mode="ranked"), name="game_ranked_once_per_player"
            ),
            models.CheckConstraint(condition=Q(mode__in=["ranked", "practice"]), name="game_mode_valid"),
            models.CheckConstraint(
                condition=Q(status__in=["playing", "won", "stuck", "resigned", "closed"]), name="game_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(mode="ranked") | Q(closes_at__isnull=True), name="game_practice_never_closes"
            ),
            models.CheckConstraint(
                condition=~Q(status="closed") | Q(finished_at=F("closes_at")), name="game_closed_at_its_window_end"
            ),
            models.CheckConstraint(
                condition=Q(status="playing", finished_at__isnull=True)
                | (~Q(status="playing") & Q(finished_at__isnull=False)),
                name="game_finished_iff_over",
            ),
            models.CheckConstraint(condition=~Q(status="won") | Q(cards_left=0), name="game_won_has_no_cards_left"),
            models.CheckConstraint(condition=Q(cards_left__lte=52), name="game_cards_left_range"),
            models.CheckConstraint(
                condition=Q(mode="practice") | Q(undo_count=0, hint_count=0), name="game_ranked_no_undo_or_hint"
            ),
            models.CheckConstraint(
                condition=Q(finished_at__isnull=True) | Q(finished_at__gte=F("started_at")),
                name="game_finishes_after_start",
            ),
            # each move takes one to seven bytes of the log (games.move_log): none when there is no move
            models.CheckConstraint(
                condition=Q(client_hash="") | Q(client_hash__regex=r"^[0-9a-f]{64}$"), name="game_client_hash_hex"
            ),
            models.CheckConstraint(
                condition=Q(device_id="") | Q(device_id__regex=r"^[A-Za-z0-9_-]{16,64}$"), name="game_device_id_form"
            ),
            models.CheckConstraint(
                condition=Q(
                    GreaterThanOrEqual(Length("move_log"), F("moves")),
                    LessThanOrEqual(Length("move_log"), F("moves") * 7),
                ),
                name="game_move_log_length",
            ),
        ]
        indexes = [
            models.Index(fields=["player", "-started_at"]),
            # the games the closing job looks for: ranked, still playing, their window over
            models.Index(
                fields=["closes_at"], condition=Q(status="playing", closes_at__isnull=False), name="game_open_window"
            ),
            # a day's tournament games, for the daily re-check (its daily games come by daily_id)
            models.Index(
                fields=["finished_at"], condition=Q(mode="ranked", daily__isnull=True), name="game_tournament_finished"
            ),
            # the other games of a deal from one address or one device (fair play's scouting rule)
            models.Index(
                fields=["deal", "client_hash"], condition=Q(mode="ranked") & ~Q(client_hash=""), name="game_deal_client"
            ),
            models.Index(
                fields=["deal", "device_id"], condition=Q(mode="ranked") & ~Q(device_id=""), name="game_deal_device"
            ),
        ]

    def __str__(self) -> str:
        return f"game {self.pk} of {self.deal} by {self.player_id}"

    @property
    def is_over(self) -> bool:
        return self.status != self.Status.PLAYING


class GameAnalysis(models.Model):
    """The exact solver's answer for every position of a finished game (``engine.solver.analysis``): six
    bytes a ply, ply 0 the start position. Where the win was lost and the costly moves are read from it."""

    game = models.OneToOneField(Game, primary_key=True, on_delete=models.CASCADE, related_name="analysis")
    plies = models.BinaryField(help_text="engine.solver.analysis.pack: six bytes a ply")
    seconds = models.FloatField(help_text="how long the solver took")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(seconds__gte=0), name="analysis_seconds_not_negative"),
        ]

    def __str__(self) -> str:
        return f"analysis of game {self.game_id}"


# the upper bounds of the solve-time buckets /metrics shows (seconds); a last bucket takes the rest
SOLVE_BUCKETS = (0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 30.0, 60.0)


class SolveHour(models.Model):
    """The deals solved in one hour, by time bucket: how many and their seconds summed, counted as each solve is
    stored. ``/metrics`` sums a day of them (a few hundred rows) instead of reading every deal solved."""

    hour = models.DateTimeField(help_text="the hour's start (UTC)")
    bucket = models.PositiveSmallIntegerField(help_text="index in SOLVE_BUCKETS; its length for the slower ones")
    solves = models.BigIntegerField(default=0)
    seconds = models.FloatField(default=0.0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["hour", "bucket"], name="solve_hour_bucket_once"),
            models.CheckConstraint(condition=Q(bucket__lte=len(SOLVE_BUCKETS)), name="solve_hour_bucket_range"),
        ]

    def __str__(self) -> str:
        return f"{self.solves} solves at {self.hour:%Y-%m-%d %H}:00, bucket {self.bucket}"
