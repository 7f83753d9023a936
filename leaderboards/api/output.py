"""Shapes of the leaderboards API's answers."""

from __future__ import annotations

from ..models import Club, Membership, Result, Tournament


def over_par_text(result: Result) -> str | None:
    """"+3" over par, "par" at par, None when the game was not won."""
    over = result.over_par
    if over is None:
        return None
    return "par" if over == 0 else f"{over:+d}"


def result_row(rank: int | None, result: Result) -> dict:
    return {
        "rank": rank,
        "player": {"id": result.player_id, "username": result.player.username},
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
        "player": {"id": row["player_id"], "username": row["username"]},
        "played": row["played"],
        "cleared": row["cleared_count"],
        "won": row["won_count"],
        "cards_left_total": row["cards_total"],
        "cards_left_average": round(row["cards_average"], 2),
        "at_par": row["at_par"],
        "best": {"cards_left": row["best_cards_left"], "moves_when_won": row["best_moves_won"]},
        "streak": streak_output(row["streak"]),
        "cleared_streak": streak_output(row["cleared_streak"]),
    }


def club_output(club: Club, membership: Membership | None) -> dict:
    body = {
        "id": club.pk, "name": club.name, "description": club.description, "is_private": club.is_private,
        "members": getattr(club, "member_count", None), "created_at": club.created_at,
        "my_role": membership.role if membership else None,
    }
    if membership and membership.can_manage:
        body["invite_code"] = club.invite_code
    return body


def member_output(membership: Membership) -> dict:
    return {"user": {"id": membership.user_id, "username": membership.user.username}, "role": membership.role,
            "joined_at": membership.joined_at}


def tournament_output(tournament: Tournament, membership: Membership | None = None) -> dict:
    return {
        "id": tournament.pk, "club": tournament.club_id, "name": tournament.name, "preset": tournament.preset,
        "rules": tournament.rules, "format": tournament.format, "scoring": tournament.scoring,
        "source": tournament.source, "deal_count": tournament.deal_count, "status": tournament.status,
        "starts_at": tournament.starts_at, "ends_at": tournament.ends_at,
        "can_manage": bool(membership and membership.can_manage),
    }


def entry_output(row: dict, *, scored: bool = True) -> dict:
    """A standing; ``score`` is null under plain scoring, where the ranking is by cards, moves and time."""
    return {
        "rank": row["rank"], "player": {"id": row["player_id"], "username": row["player__username"]},
        "score": row["score"] if scored else None, "games": row["games"], "cleared": row["cleared"], "cards_left": row["cards_left"],
        "moves": row["moves"], "seconds": row["duration_ms"] / 1000, "streak": row["streak"],
    }


def my_output(mine: dict) -> dict:
    entry = mine["entry"]
    return {
        "joined_at": entry.joined_at, "score": entry.score, "games_counted": entry.games, "cleared": entry.cleared,
        "cards_left": entry.cards_left, "moves": entry.moves, "seconds": entry.duration_ms / 1000,
        "streak": entry.streak,
        "deals": [{"index": index, "game": game and {"id": game.pk, "status": game.status, "moves": game.moves,
                                                       "cards_left": game.cards_left}}
                  for index, game in mine["games"]],
    }


def window_change_output(change) -> dict:
    return {"changed_by": change.changed_by_id, "changed_at": change.changed_at,
            "starts_at": {"from": change.starts_from, "to": change.starts_to},
            "ends_at": {"from": change.ends_from, "to": change.ends_to}}
