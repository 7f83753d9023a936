from django.contrib import admin

from .models import Guest


@admin.register(Guest)
class GuestAdmin(admin.ModelAdmin):
    """Guest accounts, and which of them signed up (the account's name now is its user's)."""

    list_display = ["name", "user", "created_at", "signed_up_at"]
    list_filter = [("signed_up_at", admin.EmptyFieldListFilter)]
    search_fields = ["name", "user__username"]
    readonly_fields = ["user", "name", "created_at", "signed_up_at"]
