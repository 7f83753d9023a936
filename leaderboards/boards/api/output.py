"""The boards' answers; the clubs' and tournaments' are made the same way. Each is declared once, by an
``...Output`` serializer (a named component of the OpenAPI schema) that also produces it: the functions here only
hand it its object, with the few values the answer computes (``Computed``). The long lists (board rows, standings
rows, a player's history, a calendar) are built by hand for speed, about ten times faster than their serializers;
tests/leaderboards/test_output_declared.py holds each equal to its serializer, key order included."""

from __future__ import annotations

from rest_framework import serializers

from pyramid_site.api.output import DailyPresetField, PlayerRefOutput, PresetField, WireDateTimeField, player_ref

from ...clubs.api.output import PlayerClubOutput, club_computed
from ..models import Result

# the choice sets of the answers (and of the schema's enums: SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"])
BOARD_SOURCES = ["postgresql", "redis"]
DAY_OUTCOMES = ["won", "lost", "not_played"]


def over_par_text(result: Result) -> str | None:
    """ "+3" over par, "par" at par, None when the game was not won."""
    over = result.over_par
    if over is None:
        return None
    return "par" if over == 0 else f"{over:+d}"


def result_row(rank: int | None, result: Result) -> dict:
    return {
        "rank": rank,
        "player": player_ref(result.player_id, result.player.username),
        "game": result.game_id,
        "cards_left": result.cards_left,
        "pyramid_left": result.pyramid_left,
        "moves": result.moves,
        "seconds": result.duration_ms / 1000,
        "won": result.won,
        "cleared": result.cleared,
        "par_moves": result.par_moves,
        "over_par": result.over_par,
        "par_text": over_par_text(result),
        "finished_at": result.finished_at,
    }


def daily_board_output(board) -> dict:
    daily = board.daily
    return {
        "daily": {
            "id": daily.pk,
            "date": daily.date.isoformat(),
            "preset": daily.preset,
            "par_moves": daily.deal.par_moves,
        },
        "total": board.total,
        "top": [result_row(row.rank, row.result) for row in board.top],
        "me": result_row(board.me.rank, board.me.result) if board.me else None,
        "around": [result_row(row.rank, row.result) for row in board.around],
        "source": board.source,
    }


def streak_output(streak) -> dict:
    return {"current": streak.current, "longest": streak.longest}


def period_row(row: dict) -> dict:
    return {
        "rank": row["rank"],
        "player": player_ref(row["player_id"], row["username"]),
        "played": row["played"],
        "cleared": row["cleared"],
        "won": row["won"],
        "cards_left_total": row["cards_total"],
        "cards_left_average": round(row["cards_total"] / row["played"], 2),
        "at_par": row["at_par"],
        "best": {"cards_left": row["best_cards_left"], "moves_when_won": row["best_moves_won"]},
        "streak": streak_output(row["streak"]),
        "cleared_streak": streak_output(row["cleared_streak"]),
    }


def player_page_output(page) -> dict:
    """A player's page (``stats.PlayerPage``)."""
    player, totals = page.player, page.stats
    return {
        "player": PlayerRefOutput(player).data,
        "stats": {
            "played": totals["played"],
            "cleared": totals["cleared_count"],
            "won": totals["won_count"],
            "cards_left_total": totals["cards_total"] or 0,
            "cards_left_average": round(totals["cards_average"] or 0, 2),
            "at_par": totals["at_par"],
            "best": {"cards_left": totals["best_cards_left"], "moves_when_won": totals["best_moves_won"]},
        },
        "streak": streak_output(page.streak),
        "cleared_streak": streak_output(page.cleared_streak),
        "history": [{"date": r.date.isoformat(), "preset": r.preset, **result_row(None, r)} for r in page.history],
        "clubs": [PlayerClubOutput(club_computed(m.club, None, role=m.role)).data for m in page.clubs],
    }


def statistics_output(statistics) -> dict:
    return PlayerStatisticsOutput(statistics).data


def calendar_deal_output(deal) -> dict:
    result = deal.result
    if result is None:
        return {
            "preset": deal.preset,
            "outcome": "not_played",
            "game": None,
            "cleared": None,
            "cards_left": None,
            "moves": None,
            "seconds": None,
        }
    return {
        "preset": deal.preset,
        "outcome": "won" if result["won"] else "lost",
        "game": result["game_id"],
        "cleared": result["cleared"],
        "cards_left": result["cards_left"],
        "moves": result["moves"],
        "seconds": result["duration_ms"] / 1000,
    }


def calendar_output(calendar, months: int) -> dict:
    player = calendar.player
    return {
        "player": PlayerRefOutput(player).data,
        "months": months,
        "first": calendar.first.isoformat(),
        "last": calendar.last.isoformat(),
        "days": [
            {"date": day.date.isoformat(), "deals": [calendar_deal_output(deal) for deal in day.deals]}
            for day in calendar.days
        ],
    }


# --- the answers' serializers: named components of the OpenAPI schema, each producing (or, for a hand-built
# list, describing) the answer of the function named in its docstring ---------------------------------------


class StreakOutput(serializers.Serializer):
    current = serializers.IntegerField(help_text="days in a row up to today (or yesterday)")
    longest = serializers.IntegerField()

    class Meta:
        ref_name = "Streak"


class BoardRowOutput(serializers.Serializer):
    """One finished ranked game on a board (``result_row``)."""

    rank = serializers.IntegerField(allow_null=True, help_text="1 first; equal results share a rank")
    player = PlayerRefOutput()
    game = serializers.IntegerField()
    cards_left = serializers.IntegerField()
    pyramid_left = serializers.IntegerField()
    moves = serializers.IntegerField()
    seconds = serializers.FloatField(help_text="server time from start to finish")
    won = serializers.BooleanField()
    cleared = serializers.BooleanField(help_text="the 28 pyramid cards are gone")
    par_moves = serializers.IntegerField(allow_null=True)
    over_par = serializers.IntegerField(allow_null=True, help_text="moves over par of a won game")
    par_text = serializers.CharField(allow_null=True, help_text='"par", "+3" ...; null when not won')
    finished_at = WireDateTimeField()

    class Meta:
        ref_name = "BoardRow"


class BoardDailyOutput(serializers.Serializer):
    id = serializers.IntegerField()
    date = serializers.DateField()
    preset = DailyPresetField()
    par_moves = serializers.IntegerField(allow_null=True)

    class Meta:
        ref_name = "BoardDaily"


class DailyBoardOutput(serializers.Serializer):
    """The board of one daily deal: the top rows, my row and the rows around it (``daily_board_output``)."""

    daily = BoardDailyOutput()
    total = serializers.IntegerField(help_text="players on the board")
    top = BoardRowOutput(many=True)
    me = BoardRowOutput(allow_null=True, help_text="my row; null when I have no finished game of it")
    around = BoardRowOutput(many=True, help_text="the rows just above and below mine")
    source = serializers.ChoiceField(choices=BOARD_SOURCES, help_text="where the board was read from")

    class Meta:
        ref_name = "DailyBoard"


class BestOutput(serializers.Serializer):
    cards_left = serializers.IntegerField(allow_null=True, help_text="the fewest cards left")
    moves_when_won = serializers.IntegerField(allow_null=True, help_text="the fewest moves of a won game")

    class Meta:
        ref_name = "Best"


class PeriodRowOutput(serializers.Serializer):
    """A player's row on the weekly or all-time board (``period_row``)."""

    rank = serializers.IntegerField()
    player = PlayerRefOutput()
    played = serializers.IntegerField()
    cleared = serializers.IntegerField()
    won = serializers.IntegerField()
    cards_left_total = serializers.IntegerField()
    cards_left_average = serializers.FloatField()
    at_par = serializers.IntegerField(help_text="won in par moves or fewer")
    best = BestOutput()
    streak = StreakOutput()
    cleared_streak = StreakOutput()

    class Meta:
        ref_name = "PeriodRow"


class PlayerStatsOutput(serializers.Serializer):
    played = serializers.IntegerField()
    cleared = serializers.IntegerField()
    won = serializers.IntegerField()
    cards_left_total = serializers.IntegerField()
    cards_left_average = serializers.FloatField()
    at_par = serializers.IntegerField()
    best = BestOutput()

    class Meta:
        ref_name = "PlayerStats"


class HistoryRowOutput(BoardRowOutput):
    """A daily result on a player's page: its day and preset, then the board row."""

    date = serializers.DateField()
    preset = DailyPresetField()

    class Meta:
        ref_name = "HistoryRow"

    def get_fields(self):
        fields = super().get_fields()
        return {"date": fields.pop("date"), "preset": fields.pop("preset"), **fields}


class PlayerPageOutput(serializers.Serializer):
    """A player's page: daily results, statistics, streaks and clubs."""

    player = PlayerRefOutput()
    stats = PlayerStatsOutput()
    streak = StreakOutput()
    cleared_streak = StreakOutput()
    history = HistoryRowOutput(many=True, help_text="the latest daily results first")
    clubs = PlayerClubOutput(many=True, help_text="the player's clubs that I may see")

    class Meta:
        ref_name = "PlayerPage"


class ModeTotalOutput(serializers.Serializer):
    """A mode's figures over every preset (``statistics_output``)."""

    played = serializers.IntegerField(help_text="finished games")
    won = serializers.IntegerField(help_text="games that reached the goal")
    win_rate = serializers.FloatField(
        allow_null=True, help_text="won / played, 0 to 1 (4 decimals); null when nothing was played"
    )
    cleared = serializers.IntegerField(
        help_text="games whose 28 pyramid cards are gone (under goal: all, also games that were not won)"
    )

    class Meta:
        ref_name = "ModeTotal"


class PresetStatisticsOutput(ModeTotalOutput):
    """One preset's figures in one mode (``statistics_output``)."""

    preset = PresetField()
    best_moves = serializers.IntegerField(allow_null=True, help_text="the fewest moves of a won game; null without one")
    best_seconds = serializers.FloatField(
        allow_null=True,
        help_text="the shortest time from start to finish of a won game (server time); null without one",
    )

    class Meta:
        ref_name = "PresetStatistics"

    def get_fields(self):
        fields = super().get_fields()
        return {"preset": fields.pop("preset"), **fields}


class ModeStatisticsOutput(serializers.Serializer):
    """A mode's statistics: the total and each preset played (``statistics_output``)."""

    total = ModeTotalOutput()
    presets = PresetStatisticsOutput(
        many=True, help_text="the presets played, in the rule book's order (custom rule sets last, as one)"
    )

    class Meta:
        ref_name = "ModeStatistics"


class PlayerStatisticsOutput(serializers.Serializer):
    """A player's statistics by mode and preset, and daily streaks (``statistics_output``)."""

    player = PlayerRefOutput()
    ranked = ModeStatisticsOutput(
        help_text="ranked games (daily and tournament deals) as the boards count "
        "them: finished (won, stuck, resigned or closed), none void"
    )
    practice = ModeStatisticsOutput(
        allow_null=True,
        help_text="finished practice games (won, stuck or "
        "resigned); to the player only: null to anyone "
        "else, practice being private",
    )
    streak = StreakOutput(help_text="UTC days in a row with a finished daily game (any preset)")
    cleared_streak = StreakOutput(help_text="UTC days in a row with a daily game's pyramid cleared")

    class Meta:
        ref_name = "PlayerStatistics"


class CalendarDealOutput(serializers.Serializer):
    """A daily deal of the day and the player's result of it (``calendar_deal_output``); the figures are null
    when it was not played."""

    preset = DailyPresetField()
    outcome = serializers.ChoiceField(
        choices=DAY_OUTCOMES,
        help_text="won; lost (finished without reaching "
        "the goal); or not_played (also a game "
        "still being played, or a void one)",
    )
    game = serializers.IntegerField(allow_null=True, help_text="the player's game of it")
    cleared = serializers.BooleanField(allow_null=True, help_text="the 28 pyramid cards are gone")
    cards_left = serializers.IntegerField(allow_null=True, help_text="the cards the goal still asked for")
    moves = serializers.IntegerField(allow_null=True)
    seconds = serializers.FloatField(allow_null=True, help_text="server time from start to finish")

    class Meta:
        ref_name = "CalendarDeal"


class CalendarDayOutput(serializers.Serializer):
    date = serializers.DateField(help_text="a UTC day")
    deals = CalendarDealOutput(many=True, help_text="the day's daily deals by preset; empty on a day without one")

    class Meta:
        ref_name = "CalendarDay"


class PlayerCalendarOutput(serializers.Serializer):
    """A player's daily results, day by day (``calendar_output``)."""

    player = PlayerRefOutput()
    months = serializers.IntegerField(help_text="the months asked for (this one and the ones before it)")
    first = serializers.DateField(help_text="the first day: the 1st of the earliest month")
    last = serializers.DateField(help_text="today (UTC)")
    days = CalendarDayOutput(many=True, help_text="every day from first to last, in order")

    class Meta:
        ref_name = "PlayerCalendar"


class ShareOutput(serializers.Serializer):
    game = serializers.IntegerField()
    share = serializers.CharField(
        help_text='a spoiler-free line, e.g. "Pyramid #12 classic: cleared, 31 moves (par 29)"'
    )

    class Meta:
        ref_name = "ShareLine"  # not "Share": no component is named like one of its properties (share)
