"""The fair-play audit record: voids (an operator's decision) and flags (the re-check's findings)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Void(models.Model):
    """The audit record of a fair-play decision: a game or a whole player taken off every board."""

    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="voids")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="voids"
    )
    reason = models.TextField()
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="voids_made"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    lifted_at = models.DateTimeField(null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="voids_lifted"
    )
    lift_reason = models.TextField(blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=(Q(game__isnull=True, player__isnull=False) | Q(game__isnull=False, player__isnull=True)),
                name="void_game_xor_player",
            ),
            models.CheckConstraint(condition=~Q(reason=""), name="void_has_reason"),
            models.UniqueConstraint(
                fields=["game"],
                condition=Q(lifted_at__isnull=True, game__isnull=False),
                name="void_one_active_per_game",
            ),
            models.UniqueConstraint(
                fields=["player"],
                condition=Q(lifted_at__isnull=True, player__isnull=False),
                name="void_one_active_per_player",
            ),
        ]
        ordering = ["-created_at"]

    def __str__(self) -> str:
        target = f"game {self.game_id}" if self.game_id else f"player {self.player_id}"
        return f"void of {target}: {self.reason}"


class Flag(models.Model):
    """A game put up for an operator's review by a fair-play rule. Until the review, its result is held off
    every board (docs/fair-play.md, "Fair play"); a review puts it back, unless the operator voids the game (a
    :class:`Void`), which keeps it off. Either way the review is recorded here."""

    class Kind(models.TextChoices):
        RESULT_MISMATCH = "result_mismatch"  # the move log, replayed, does not give the stored result
        SUSPICIOUS = "suspicious"  # the documented fair-play rule (docs/fair-play.md, "Fair play") fired
        ACCURACY = "accuracy"  # the player's last ranked games follow the solver beyond the population's play
        SCOUTED = "scouted"  # a better game of a deal another account from the same address or device scouted
        TOO_FAST = "too_fast"  # won faster than a person can make the moves

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="flags")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    detail = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
    reviewed_at = models.DateTimeField(null=True, blank=True)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="flags_reviewed"
    )
    review_note = models.TextField(blank=True)

    class Meta:
        constraints = [
            # one flag of a kind per game: the re-check job is safe to run again
            models.UniqueConstraint(fields=["game", "kind"], name="flag_once_per_game_kind"),
            models.CheckConstraint(
                condition=Q(kind__in=["result_mismatch", "suspicious", "accuracy", "scouted", "too_fast"]),
                name="flag_kind_valid",
            ),
            models.CheckConstraint(condition=~Q(detail=""), name="flag_has_detail"),
        ]
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.kind} flag of game {self.game_id}: {self.detail}"


class RecheckChunk(models.Model):
    """One slice of a day's re-check: the day's finished ranked games with ids from ``first_game`` to
    ``last_game``, shared out to the Celery workers, with its counts once done. The command's progress bar,
    the admin and ``/metrics`` read a day's progress from these rows."""

    date = models.DateField()
    first_game = models.BigIntegerField()
    last_game = models.BigIntegerField()
    games = models.PositiveIntegerField(null=True, blank=True, help_text="games replayed; null until done")
    mismatched = models.JSONField(default=list, help_text="ids of the games whose stored result differs")
    suspicious = models.JSONField(default=list, help_text="ids of the games the suspicious-play rule flags")
    flags_new = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["date", "first_game"], name="recheck_chunk_once"),
            models.CheckConstraint(condition=Q(last_game__gte=models.F("first_game")), name="recheck_chunk_range"),
            models.CheckConstraint(
                condition=Q(games__isnull=True, finished_at__isnull=True)
                | Q(games__isnull=False, finished_at__isnull=False),
                name="recheck_chunk_done",
            ),
        ]
        ordering = ["date", "first_game"]

    def __str__(self) -> str:
        return f"re-check of {self.date}, games {self.first_game} to {self.last_game}"
