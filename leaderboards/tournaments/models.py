"""A club's tournaments: their deals, their entrants' standings and the moves of their windows."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from ..clubs.models import Club


class Tournament(models.Model):
    class Format(models.TextChoices):
        MATCH = "match"
        ARENA = "arena"
        RACE = "race"  # one secret deal for every entrant at the same moment, progress followed live

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
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="tournaments_created"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(
        null=True, blank=True, help_text="a race: when it ended for everyone (its end, or its last game finished)"
    )

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(ends_at__gt=models.F("starts_at")), name="tournament_ends_after_start"),
            models.CheckConstraint(condition=Q(deal_count__gte=1, deal_count__lte=100), name="tournament_deal_count"),
            models.CheckConstraint(condition=Q(format__in=["match", "arena", "race"]), name="tournament_format_valid"),
            models.CheckConstraint(condition=Q(scoring__in=["plain", "par"]), name="tournament_scoring_valid"),
            models.CheckConstraint(condition=Q(format="match") | Q(scoring="plain"), name="tournament_arena_plain"),
            models.CheckConstraint(
                condition=Q(status__in=["preparing", "ready", "failed"]), name="tournament_status_valid"
            ),
            # a race is one secret deal, ranked by cards left then time: nothing of it is known before its start
            models.CheckConstraint(
                condition=~Q(format="race") | Q(deal_count=1, source="secret", scoring="plain"),
                name="tournament_race_one_secret_deal",
            ),
            models.CheckConstraint(
                condition=Q(format="race") | Q(finished_at__isnull=True), name="tournament_finished_only_race"
            ),
            models.CheckConstraint(
                condition=Q(finished_at__isnull=True)
                | Q(finished_at__gte=F("starts_at"), finished_at__lte=F("ends_at")),
                name="tournament_finished_in_window",
            ),
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
            models.Index(
                fields=["tournament", "-score", "cards_left", "moves", "duration_ms"], name="entry_standing_score"
            ),
        ]


class WindowChange(models.Model):
    """The audit record of a tournament's window moved: who, when, from and to (shown with the standings)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="window_changes")
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="window_changes"
    )
    changed_at = models.DateTimeField(auto_now_add=True)
    starts_from = models.DateTimeField()
    starts_to = models.DateTimeField()
    ends_from = models.DateTimeField()
    ends_to = models.DateTimeField()

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=~(Q(starts_from=F("starts_to")) & Q(ends_from=F("ends_to"))),
                name="window_change_changes_something",
            ),
            models.CheckConstraint(condition=Q(ends_to__gt=F("starts_to")), name="window_change_ends_after_start"),
        ]
        ordering = ["tournament", "changed_at", "pk"]


class TournamentAnnouncement(models.Model):
    """A moment of a tournament announced (``soon``, ``started``, ``ended``: on its channel, and the first two to its
    club's members), inserted in the transaction that publishes it: whoever comes second (the sweep and a queued
    task at once, a task run twice) finds the row taken and sends nothing. Keyed by the moment announced, so a
    start moved after its ``soon`` gets a ``soon`` of its own when it comes near (docs/api.md, "Live updates")."""

    class Kind(models.TextChoices):
        SOON = "soon"
        STARTED = "started"
        ENDED = "ended"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="announcements")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    at = models.DateTimeField(help_text="the moment announced: the start (soon, started) or the end (ended)")
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "kind", "at"], name="tournament_announcement_once"),
            models.CheckConstraint(
                condition=Q(kind__in=["soon", "started", "ended"]), name="tournament_announcement_kind_valid"
            ),
        ]
