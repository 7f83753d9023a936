from django.contrib import admin

from .fair_play import admin as fair_play_admin  # noqa: F401  (registers the fair-play records)
from .models import Club, Entry, Membership, Result, Tournament

admin.site.register([Club, Membership, Tournament, Entry])
admin.site.register(Result, list_display=["game", "player", "date", "preset", "cards_left", "moves", "voided"])
