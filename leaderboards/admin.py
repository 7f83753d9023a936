from django.contrib import admin

from .fair_play import admin as fair_play_admin  # noqa: F401  (registers the fair-play records)
from .models import Club, ClubChange, Entry, Membership, Result, Tournament

admin.site.register([Membership, Tournament, Entry])
admin.site.register(Result, list_display=["game", "player", "date", "preset", "cards_left", "moves", "voided"])


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    """A club with tournaments is never deleted (the database protects them): its last member leaving archives it."""

    list_display = ["name", "is_private", "created_at", "archived_at"]
    list_filter = ["is_private", "archived_at"]


@admin.register(ClubChange)
class ClubChangeAdmin(admin.ModelAdmin):
    """The clubs' audit record: who removed whom, renamed or made private what, and when."""

    list_display = ["changed_at", "club", "kind", "changed_by", "member", "tournament", "before", "after"]
    list_filter = ["kind"]
    search_fields = ["club__name", "changed_by__username", "member__username"]
    readonly_fields = [f.name for f in ClubChange._meta.fields]  # written by the club services only

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
