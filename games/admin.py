from django.contrib import admin

from .models import DailyDeal, Deal, Game, Move


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ["number", "preset", "status", "par_moves", "best_cards_left", "difficulty", "created_at"]
    list_filter = ["status", "preset"]


@admin.register(DailyDeal)
class DailyDealAdmin(admin.ModelAdmin):
    list_display = ["date", "preset", "deal", "attempt", "commitment"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["id", "player", "deal", "mode", "status", "moves", "cards_left", "started_at"]
    list_filter = ["mode", "status"]


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ["game", "ply", "notation", "created_at"]
