from django.contrib import admin

from .models import Flag, RecheckChunk, Void


@admin.register(Void)
class VoidAdmin(admin.ModelAdmin):
    list_display = ["pk", "game", "player", "reason", "voided_by", "created_at", "lifted_at"]
    readonly_fields = [f.name for f in Void._meta.fields]  # written by the fair-play service only


@admin.register(Flag)
class FlagAdmin(admin.ModelAdmin):
    list_display = ["pk", "game", "kind", "detail", "created_at", "reviewed_at"]
    list_filter = ["kind", "reviewed_at"]
    # the re-check job's finding is read-only; the review is the operator's to write
    readonly_fields = ["game", "kind", "detail", "created_at"]


@admin.register(RecheckChunk)
class RecheckChunkAdmin(admin.ModelAdmin):
    """A day's re-check, chunk by chunk: which are done, how many games each replayed and what it found."""

    list_display = ["date", "first_game", "last_game", "games", "flags_new", "finished_at"]
    list_filter = ["date"]
    readonly_fields = [f.name for f in RecheckChunk._meta.fields]  # written by the re-check only
