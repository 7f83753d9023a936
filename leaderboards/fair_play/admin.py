from django.contrib import admin

from .models import Flag, RecheckChunk, Void
from .services import flag_review


@admin.register(Void)
class VoidAdmin(admin.ModelAdmin):
    list_display = ["pk", "game", "player", "reason", "voided_by", "created_at", "lifted_at"]
    readonly_fields = [f.name for f in Void._meta.fields]  # written by the fair-play service only


@admin.register(Flag)
class FlagAdmin(admin.ModelAdmin):
    list_display = ["pk", "game", "kind", "detail", "created_at", "reviewed_at"]
    list_filter = ["kind", "reviewed_at"]
    # a review goes through the fair-play service, which puts the held result back on the boards (the API's
    # review, or the action below): a date typed in here would leave it held
    readonly_fields = [f.name for f in Flag._meta.fields]
    actions = ["clear"]

    @admin.action(description="Review: cleared (the results go back on the boards)")
    def clear(self, request, queryset):
        for flag in queryset.filter(reviewed_at__isnull=True):
            flag_review(flag_id=flag.pk, note=f"cleared in the admin by {request.user}", by=request.user)


@admin.register(RecheckChunk)
class RecheckChunkAdmin(admin.ModelAdmin):
    """A day's re-check, chunk by chunk: which are done, how many games each replayed and what it found."""

    list_display = ["date", "first_game", "last_game", "games", "flags_new", "finished_at"]
    list_filter = ["date"]
    readonly_fields = [f.name for f in RecheckChunk._meta.fields]  # written by the re-check only
