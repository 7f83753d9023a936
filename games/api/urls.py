from django.urls import path, re_path, register_converter

from . import events, views


class GameIdConverter:
    """Ids that fit a 64-bit column: a longer number is a game that does not exist (404), not an
    overflow in the database."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(GameIdConverter, "game_id")

urlpatterns = [
    path("daily/", views.DailyTodayView.as_view(), name="daily-today"),
    path("daily/<str:date>/", views.DailyOnDateView.as_view(), name="daily-on-date"),
    path("daily/<str:date>/<str:preset>/verify/", views.DailyVerifyView.as_view(), name="daily-verify"),
    path("games/", views.GameListView.as_view(), name="games"),
    path("games/<game_id:game_id>/", views.GameDetailView.as_view(), name="game"),
    path("games/<game_id:game_id>/moves/", views.GameMoveView.as_view(), name="game-moves"),
    path("games/<game_id:game_id>/resign/", views.GameResignView.as_view(), name="game-resign"),
    path("games/<game_id:game_id>/undo/", views.GameUndoView.as_view(), name="game-undo"),
    path("games/<game_id:game_id>/hint/", views.GameHintView.as_view(), name="game-hint"),
    path("games/<game_id:game_id>/events/", events.GameEventsView.as_view(), name="game-events"),
    path("games/<game_id:game_id>/log/", views.GameLogView.as_view(), name="game-log"),
    path("games/<game_id:game_id>/verdict/", views.GameVerdictView.as_view(), name="game-verdict"),
    path("games/<game_id:game_id>/analysis/", views.GameAnalysisView.as_view(), name="game-analysis"),
    path("games/<game_id:game_id>/replay/", views.GameReplayView.as_view(), name="game-replay"),
    re_path(r"^deals/(?P<number>[^/]+?)/?$", views.DealView.as_view(), name="deal"),
    path("deals/<str:number>/solve/", views.DealSolveView.as_view(), name="deal-solve"),
]
