from django.contrib import admin

from .models import Flag, Void


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
