"""The leaderboards API's answers. Each is declared once, by an ``...Output`` serializer (a named component of
the OpenAPI schema) that also produces it: the functions here only hand it its object, with the few values the
answer computes (``Computed``). The long lists (board rows, standings rows, a player's history, a calendar) are
built by hand for speed, about ten times faster than their serializers; tests/leaderboards/test_output_declared.py
holds each equal to its serializer, key order included."""

from __future__ import annotations

from rest_framework import serializers
from rest_framework.fields import SkipField

from games.api.serializers import GameBriefOutput
from pyramid_site.api.output import (Computed, DailyPresetField, PlayerRefOutput, PresetField, WireDateTimeField,
                                     player_ref)

from ..models import Club, ClubChange, Membership, Result, Tournament

# the choice sets of the answers (and of the schema's enums: SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"])
CLUB_ROLES = list(Membership.Role.values)
TOURNAMENT_FORMATS = list(Tournament.Format.values)
TOURNAMENT_SCORINGS = list(Tournament.Scoring.values)
TOURNAMENT_SOURCES = list(Tournament.Source.values)
TOURNAMENT_STATUSES = list(Tournament.Status.values)
BOARD_SOURCES = ["postgresql", "redis"]
DAY_OUTCOMES = ["won", "lost", "not_played"]
CLUB_CHANGE_KINDS = list(ClubChange.Kind.values)


def over_par_text(result: Result) -> str | None:
    """"+3" over par, "par" at par, None when the game was not won."""
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
        "daily": {"id": daily.pk, "date": daily.date.isoformat(), "preset": daily.preset,
                  "par_moves": daily.deal.par_moves},
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
        "stats": {"played": totals["played"], "cleared": totals["cleared_count"], "won": totals["won_count"],
                  "cards_left_total": totals["cards_total"] or 0,
                  "cards_left_average": round(totals["cards_average"] or 0, 2), "at_par": totals["at_par"],
                  "best": {"cards_left": totals["best_cards_left"], "moves_when_won": totals["best_moves_won"]}},
        "streak": streak_output(page.streak),
        "cleared_streak": streak_output(page.cleared_streak),
        "history": [{"date": r.date.isoformat(), "preset": r.preset, **result_row(None, r)} for r in page.history],
        "clubs": [PlayerClubOutput(_club(m.club, None, role=m.role)).data for m in page.clubs],
    }


def statistics_output(statistics) -> dict:
    return PlayerStatisticsOutput(statistics).data


def calendar_deal_output(deal) -> dict:
    result = deal.result
    if result is None:
        return {"preset": deal.preset, "outcome": "not_played", "game": None, "cleared": None, "cards_left": None,
                "moves": None, "seconds": None}
    return {"preset": deal.preset, "outcome": "won" if result["won"] else "lost", "game": result["game_id"],
            "cleared": result["cleared"], "cards_left": result["cards_left"], "moves": result["moves"],
            "seconds": result["duration_ms"] / 1000}


def calendar_output(calendar, months: int) -> dict:
    player = calendar.player
    return {
        "player": PlayerRefOutput(player).data,
        "months": months, "first": calendar.first.isoformat(), "last": calendar.last.isoformat(),
        "days": [{"date": day.date.isoformat(), "deals": [calendar_deal_output(deal) for deal in day.deals]}
                 for day in calendar.days],
    }


def _club(club: Club, membership: Membership | None, **more) -> Computed:
    # the invite code only to the club's owner and admins: None leaves it out of the answer (OmittedIfNone)
    return Computed(club, members=getattr(club, "member_count", None), my_role=membership.role if membership else None,
                    invite_code=club.invite_code if membership and membership.can_manage else None, **more)


def club_output(club: Club, membership: Membership | None) -> dict:
    return ClubOutput(_club(club, membership)).data


def member_output(membership: Membership) -> dict:
    return MemberOutput(membership).data


def tournament_output(tournament: Tournament, membership: Membership | None = None) -> dict:
    can_manage = bool(membership and membership.can_manage)
    return TournamentOutput(Computed(tournament, club=tournament.club_id, can_manage=can_manage)).data


def entry_output(row: dict, *, scored: bool = True) -> dict:
    """A standing; ``score`` is null under plain scoring, where the ranking is by cards, moves and time."""
    return {
        "rank": row["rank"], "player": player_ref(row["player_id"], row["player__username"]),
        "score": row["score"] if scored else None, "games": row["games"], "cleared": row["cleared"],
        "cards_left": row["cards_left"],
        "moves": row["moves"], "seconds": row["duration_ms"] / 1000, "streak": row["streak"],
        "joined_at": row["joined_at"],
    }


def joined_output(entry, not_counted: list[tuple[int, int]]) -> dict:
    return EntryOutput(Computed(entry, tournament=entry.tournament_id, player=entry.player_id,
                                games_not_counted=[{"index": index, "game": game_id}
                                                   for index, game_id in not_counted])).data


def _mine(mine: dict) -> Computed:
    entry = mine["entry"]
    return Computed(entry, games_counted=entry.games, seconds=entry.duration_ms / 1000,
                    deals=[{"index": index, "game": game, "counted": game is not None and game.pk in mine["counted"]}
                           for index, game in mine["games"]])


def tournament_detail_output(page) -> dict:
    """A tournament with my entry (null until I join) and its changes (``selectors.clubs.TournamentPage``)."""
    membership = page.membership
    return TournamentDetailOutput(Computed(
        page.tournament, club=page.tournament.club_id, can_manage=bool(membership and membership.can_manage),
        me=page.mine and _mine(page.mine), changes=[_change(c) for c in page.changes])).data


def window_change_output(change) -> dict:
    return WindowChangeOutput(Computed(change, changed_by=change.changed_by_id,
                                       starts_at={"from": change.starts_from, "to": change.starts_to},
                                       ends_at={"from": change.ends_from, "to": change.ends_to})).data


_HAS_BEFORE = {*ClubChange.VALUE_KINDS, ClubChange.Kind.MEMBER_REMOVED, ClubChange.Kind.MEMBER_LEFT}


def _change(change: ClubChange) -> Computed:
    before = change.before if change.kind in _HAS_BEFORE else None
    after = change.after if change.kind in ClubChange.VALUE_KINDS else None
    return Computed(change, tournament=change.tournament_id, before=before, after=after)


def change_output(change: ClubChange) -> dict:
    return ClubChangeOutput(_change(change)).data


# --- the answers' serializers: named components of the OpenAPI schema, each producing (or, for a hand-built
# list, describing) the answer of the function named in its docstring ---------------------------------------

class OmittedIfNoneCharField(serializers.CharField):
    """A text that the answer leaves out (rather than null) when it is None."""

    def get_attribute(self, instance):
        value = super().get_attribute(instance)
        if value is None:
            raise SkipField
        return value


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


class ClubOutput(serializers.Serializer):
    """A club (``club_output``); its invite code only to its owner and admins."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    description = serializers.CharField(allow_blank=True)
    is_private = serializers.BooleanField(help_text="only members see its boards and tournaments")
    members = serializers.IntegerField(allow_null=True)
    created_at = WireDateTimeField()
    archived_at = WireDateTimeField(allow_null=True, help_text="set once its last member left with "
                                            "tournaments started: read-only from then on, its standings kept")
    my_role = serializers.ChoiceField(choices=CLUB_ROLES, allow_null=True)
    invite_code = OmittedIfNoneCharField(required=False, help_text="owner and admins only")

    class Meta:
        ref_name = "Club"


class PlayerClubOutput(ClubOutput):
    role = serializers.ChoiceField(choices=CLUB_ROLES, help_text="the player's role in it")

    class Meta:
        ref_name = "PlayerClub"


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
    win_rate = serializers.FloatField(allow_null=True, help_text="won / played, 0 to 1 (4 decimals); null when "
                                                                 "nothing was played")
    cleared = serializers.IntegerField(help_text="games whose 28 pyramid cards are gone (under goal: all, also "
                                                 "games that were not won)")

    class Meta:
        ref_name = "ModeTotal"


class PresetStatisticsOutput(ModeTotalOutput):
    """One preset's figures in one mode (``statistics_output``)."""

    preset = PresetField()
    best_moves = serializers.IntegerField(allow_null=True, help_text="the fewest moves of a won game; null "
                                                                     "without one")
    best_seconds = serializers.FloatField(allow_null=True, help_text="the shortest time from start to finish of "
                                                                     "a won game (server time); null without one")

    class Meta:
        ref_name = "PresetStatistics"

    def get_fields(self):
        fields = super().get_fields()
        return {"preset": fields.pop("preset"), **fields}


class ModeStatisticsOutput(serializers.Serializer):
    """A mode's statistics: the total and each preset played (``statistics_output``)."""

    total = ModeTotalOutput()
    presets = PresetStatisticsOutput(many=True, help_text="the presets played, in the rule book's order "
                                                          "(custom rule sets last, as one)")

    class Meta:
        ref_name = "ModeStatistics"


class PlayerStatisticsOutput(serializers.Serializer):
    """A player's statistics by mode and preset, and daily streaks (``statistics_output``)."""

    player = PlayerRefOutput()
    ranked = ModeStatisticsOutput(help_text="ranked games (daily and tournament deals) as the boards count "
                                            "them: finished (won, stuck, resigned or closed), none void")
    practice = ModeStatisticsOutput(allow_null=True, help_text="finished practice games (won, stuck or "
                                                               "resigned); to the player only: null to anyone "
                                                               "else, practice being private")
    streak = StreakOutput(help_text="UTC days in a row with a finished daily game (any preset)")
    cleared_streak = StreakOutput(help_text="UTC days in a row with a daily game's pyramid cleared")

    class Meta:
        ref_name = "PlayerStatistics"


class CalendarDealOutput(serializers.Serializer):
    """A daily deal of the day and the player's result of it (``calendar_deal_output``); the figures are null
    when it was not played."""

    preset = DailyPresetField()
    outcome = serializers.ChoiceField(choices=DAY_OUTCOMES, help_text="won; lost (finished without reaching "
                                                                      "the goal); or not_played (also a game "
                                                                      "still being played, or a void one)")
    game = serializers.IntegerField(allow_null=True, help_text="the player's game of it")
    cleared = serializers.BooleanField(allow_null=True, help_text="the 28 pyramid cards are gone")
    cards_left = serializers.IntegerField(allow_null=True, help_text="the cards the goal still asked for")
    moves = serializers.IntegerField(allow_null=True)
    seconds = serializers.FloatField(allow_null=True, help_text="server time from start to finish")

    class Meta:
        ref_name = "CalendarDeal"


class CalendarDayOutput(serializers.Serializer):
    date = serializers.DateField(help_text="a UTC day")
    deals = CalendarDealOutput(many=True, help_text="the day's daily deals by preset; empty on a day without "
                                                    "one")

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
    share = serializers.CharField(help_text='a spoiler-free line, e.g. "Pyramid #12 classic: cleared, 31 moves '
                                            '(par 29)"')

    class Meta:
        ref_name = "ShareLine"  # not "Share": no component is named like one of its properties (share)


class MemberOutput(serializers.Serializer):
    """A club's member (``member_output``)."""

    user = PlayerRefOutput()
    role = serializers.ChoiceField(choices=CLUB_ROLES)
    joined_at = WireDateTimeField()

    class Meta:
        ref_name = "Member"


class TournamentOutput(serializers.Serializer):
    """A tournament (``tournament_output``)."""

    id = serializers.IntegerField()
    club = serializers.IntegerField()
    name = serializers.CharField()
    preset = PresetField()
    rules = serializers.CharField(help_text="canonical rule-set text")
    format = serializers.ChoiceField(choices=TOURNAMENT_FORMATS)
    scoring = serializers.ChoiceField(choices=TOURNAMENT_SCORINGS)
    source = serializers.ChoiceField(choices=TOURNAMENT_SOURCES)
    deal_count = serializers.IntegerField()
    status = serializers.ChoiceField(choices=TOURNAMENT_STATUSES, help_text="preparing until its deals are "
                                                                                 "ready")
    starts_at = WireDateTimeField()
    ends_at = WireDateTimeField()
    can_manage = serializers.BooleanField(help_text="I may change or delete it")

    class Meta:
        ref_name = "Tournament"


class MyDealOutput(serializers.Serializer):
    index = serializers.IntegerField(help_text="0 for the first deal")
    game = GameBriefOutput(allow_null=True, help_text="my game of it; null until I start one")
    counted = serializers.BooleanField(help_text="my game of it counts in the standings (a game started before I "
                                                 "joined never does)")

    class Meta:
        ref_name = "MyDeal"


class MyEntryOutput(serializers.Serializer):
    """My entry in a tournament (``tournament_detail_output``)."""

    joined_at = WireDateTimeField()
    score = serializers.IntegerField(help_text="match (par scoring) or arena points; 0 under plain scoring")
    games_counted = serializers.IntegerField()
    cleared = serializers.IntegerField()
    cards_left = serializers.IntegerField()
    moves = serializers.IntegerField()
    seconds = serializers.FloatField()
    streak = serializers.IntegerField()
    deals = MyDealOutput(many=True)

    class Meta:
        ref_name = "MyEntry"


class ClubChangeOutput(serializers.Serializer):
    """A change to a club or one of its tournaments (``change_output``)."""

    kind = serializers.ChoiceField(choices=CLUB_CHANGE_KINDS)
    changed_by = PlayerRefOutput(allow_null=True, help_text="who made it (null once their account is deleted)")
    changed_at = WireDateTimeField()
    member = PlayerRefOutput(allow_null=True, help_text="the member removed, who left, or whose role changed")
    tournament = serializers.IntegerField(allow_null=True, help_text="the tournament renamed")
    before = serializers.CharField(allow_null=True, allow_blank=True,
                                   help_text="the value before (a removed or leaving member's role)")
    after = serializers.CharField(allow_null=True, allow_blank=True)

    class Meta:
        ref_name = "ClubChange"


class TournamentDetailOutput(TournamentOutput):
    me = MyEntryOutput(allow_null=True, help_text="my entry; null until I join")
    changes = ClubChangeOutput(many=True, help_text="every change to it and its club from its creation to its end, "
                                                    "oldest first (its window's moves are with the standings)")

    class Meta:
        ref_name = "TournamentDetail"


class NotCountedOutput(serializers.Serializer):
    index = serializers.IntegerField(help_text="the deal's index")
    game = serializers.IntegerField(help_text="my game of it, started before I joined")

    class Meta:
        ref_name = "GameNotCounted"


class EntryOutput(serializers.Serializer):
    """A tournament entry as joining answers it (``joined_output``)."""

    tournament = serializers.IntegerField()
    player = serializers.IntegerField()
    joined_at = WireDateTimeField(help_text="only games started from then on count")
    games_not_counted = NotCountedOutput(many=True, help_text="my games of its deals started before I joined: they "
                                                              "never count in it, and their deals are played")

    class Meta:
        ref_name = "Entry"


class StandingOutput(serializers.Serializer):
    """A row of the standings (``entry_output``)."""

    rank = serializers.IntegerField()
    player = PlayerRefOutput()
    score = serializers.IntegerField(allow_null=True, help_text="arena points or par score; null under plain "
                                                                "scoring, which ranks by cards, moves and time")
    games = serializers.IntegerField()
    cleared = serializers.IntegerField()
    cards_left = serializers.IntegerField()
    moves = serializers.IntegerField()
    seconds = serializers.FloatField()
    streak = serializers.IntegerField()
    joined_at = WireDateTimeField(help_text="only games started from then on count")

    class Meta:
        ref_name = "Standing"


class WindowOutput(serializers.Serializer):
    # "from" is a keyword of Python's: the fields are added in get_fields
    class Meta:
        ref_name = "WindowMove"

    def get_fields(self):
        return {"from": WireDateTimeField(), "to": WireDateTimeField()}


class WindowChangeOutput(serializers.Serializer):
    """A change of a tournament's window, for everyone to see (``window_change_output``)."""

    changed_by = serializers.IntegerField(allow_null=True)
    changed_at = WireDateTimeField()
    starts_at = WindowOutput()
    ends_at = WindowOutput()

    class Meta:
        ref_name = "WindowChange"
