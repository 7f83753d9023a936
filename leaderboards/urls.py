from django.urls import path

from .boards.api import events as board_events
from .boards.api import views as boards
from .clubs.api import views as clubs
from .tournaments.api import events as tournament_events
from .tournaments.api import notifications
from .tournaments.api import views as tournaments

urlpatterns = [
    # the player's own notifications, beside the account's other reads (they are the tournaments')
    path("accounts/me/events/", notifications.PlayerEventsView.as_view(), name="me-events"),
    path("accounts/me/notifications/", notifications.NotificationsView.as_view(), name="me-notifications"),
    path("boards/daily/<str:date>/<str:preset>/", boards.DailyBoardView.as_view(), name="board-daily"),
    path(
        "boards/daily/<str:date>/<str:preset>/events/",
        board_events.DailyBoardEventsView.as_view(),
        name="board-daily-events",
    ),
    path("boards/weekly/", boards.WeeklyBoardView.as_view(), name="board-weekly"),
    path("boards/all-time/", boards.AllTimeBoardView.as_view(), name="board-all-time"),
    path("players/<str:username>/", boards.PlayerView.as_view(), name="player"),
    path("players/<str:username>/stats/", boards.PlayerStatisticsView.as_view(), name="player-stats"),
    path("players/<str:username>/calendar/", boards.PlayerCalendarView.as_view(), name="player-calendar"),
    path("games/<int:game_id>/share/", boards.ShareView.as_view(), name="game-share"),
    path("clubs/", clubs.ClubListView.as_view(), name="clubs"),
    path("clubs/join/", clubs.ClubJoinView.as_view(), name="club-join"),
    path("clubs/<int:club_id>/", clubs.ClubDetailView.as_view(), name="club"),
    path("clubs/<int:club_id>/leave/", clubs.ClubLeaveView.as_view(), name="club-leave"),
    path("clubs/<int:club_id>/invite/", clubs.ClubInviteView.as_view(), name="club-invite"),
    path("clubs/<int:club_id>/members/", clubs.ClubMembersView.as_view(), name="club-members"),
    path("clubs/<int:club_id>/members/<int:user_id>/", clubs.ClubMemberView.as_view(), name="club-member"),
    path("clubs/<int:club_id>/changes/", clubs.ClubChangesView.as_view(), name="club-changes"),
    path("clubs/<int:club_id>/tournaments/", tournaments.ClubTournamentsView.as_view(), name="club-tournaments"),
    path("tournaments/<int:tournament_id>/", tournaments.TournamentView.as_view(), name="tournament"),
    path("tournaments/<int:tournament_id>/join/", tournaments.TournamentJoinView.as_view(), name="tournament-join"),
    path("tournaments/<int:tournament_id>/leave/", tournaments.TournamentLeaveView.as_view(), name="tournament-leave"),
    path("tournaments/<int:tournament_id>/games/", tournaments.TournamentGameView.as_view(), name="tournament-games"),
    path(
        "tournaments/<int:tournament_id>/standings/", tournaments.StandingsView.as_view(), name="tournament-standings"
    ),
    path(
        "tournaments/<int:tournament_id>/events/",
        tournament_events.TournamentEventsView.as_view(),
        name="tournament-events",
    ),
]
