"""A game's move log as one compact value (``Game.move_log``): two to four bytes a move.

A row per move cost about a hundred bytes with its indexes (``docs/benchmarks.md``, "Move logs"), some six
kilobytes a game: the table that grows fastest by far at a million games a day. Here each move is

- a varint of ``centiseconds << 1 | is_draw``, where ``centiseconds`` is the server's time stamp of the move
  counted from the previous move's (from the game's start for the first), and
- unless the move is a draw (the commonest move, told by the low bit alone), the varint of its code
  (``engine.moves.move_code``: under 1,600, two bytes at most).

Stamps are kept to the centisecond, counted from the game's start and rounded once each, so the rounding
never adds up over a game. Varints are little-endian base 128, as in Protocol Buffers.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from engine.moves import DRAW_MOVE, Move, move_code, move_from_code, parse_move

_TICK = dt.timedelta(milliseconds=10)


@dataclass(frozen=True, slots=True)
class LoggedMove:
    ply: int  # 1 for the first move
    notation: str
    created_at: dt.datetime  # the server's time stamp, to the centisecond


def _varint(value: int) -> bytes:
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _entries(log: bytes) -> list[tuple[int, int, int]]:
    """(offset where the entry starts, centiseconds since the game's start, move code) for each move."""
    entries, ticks, i, size = [], 0, 0, len(log)

    def read() -> int:
        nonlocal i
        value, shift = 0, 0
        while True:
            if i >= size:
                raise ValueError("the move log ends inside a number")
            byte = log[i]
            i += 1
            value |= (byte & 0x7F) << shift
            if byte < 0x80:
                return value
            shift += 7

    while i < size:
        start = i
        stamp = read()
        ticks += stamp >> 1
        entries.append((start, ticks, move_code(DRAW_MOVE) if stamp & 1 else read()))
    return entries


def _ticks(started_at: dt.datetime, at: dt.datetime) -> int:
    return max(0, round((at - started_at) / _TICK))


def log_append(log: bytes, *, started_at: dt.datetime, move: Move, at: dt.datetime) -> bytes:
    """The entry that logs ``move`` stamped ``at``, to be appended to ``log`` (a game started at ``started_at``)."""
    entries = _entries(log)
    return _entry(max(0, _ticks(started_at, at) - (entries[-1][1] if entries else 0)), move)


def _entry(ticks: int, move: Move) -> bytes:
    if move == DRAW_MOVE:
        return _varint(ticks << 1 | 1)
    return _varint(ticks << 1) + _varint(move_code(move))


def log_without_last(log: bytes) -> bytes:
    entries = _entries(log)
    return bytes(log[: entries[-1][0]]) if entries else b""


def log_moves(log: bytes, *, started_at: dt.datetime) -> list[LoggedMove]:
    return [
        LoggedMove(ply, str(move_from_code(code)), started_at + ticks * _TICK)
        for ply, (_, ticks, code) in enumerate(_entries(bytes(log)), start=1)
    ]


def log_notations(log: bytes) -> list[str]:
    return [str(move_from_code(code)) for _, _, code in _entries(bytes(log))]


def log_encode(moves: list[tuple[str | Move, dt.datetime]], *, started_at: dt.datetime) -> bytes:
    """A whole log from (move, stamp) pairs, in order (moves as notation or engine moves)."""
    log, previous = bytearray(), 0
    for move, at in moves:
        ticks = max(previous, _ticks(started_at, at))
        log += _entry(ticks - previous, parse_move(move) if isinstance(move, str) else move)
        previous = ticks
    return bytes(log)
