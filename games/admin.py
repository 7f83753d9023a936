from django.contrib import admin

from .models import DailyDeal, Deal, Game
from .move_log import log_moves


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
    readonly_fields = ["moves_logged"]

    @admin.display(description="move log")
    def moves_logged(self, game: Game) -> str:
        return "\n".join(
            f"{m.ply}. {m.notation} at {m.created_at:%Y-%m-%d %H:%M:%S.%f}"[:-4]
            for m in log_moves(bytes(game.move_log), started_at=game.started_at)
        )
