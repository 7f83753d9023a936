"""The solve, hint and stats commands, called through their argparse handlers."""

from __future__ import annotations

import argparse
import io
import json

import pytest

from engine import Position, deal_from_number, preset, replay
from engine.solver.cli import add_subcommands, wilson_interval


def run(argv, capsys, stdin=None, monkeypatch=None):
    parser = argparse.ArgumentParser()
    add_subcommands(parser.add_subparsers(required=True))
    args = parser.parse_args(argv)
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = args.handler(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_solve_by_number_prints_a_replayable_line(capsys):
    code, out, _ = run(["solve", "--rules", "relaxed", "--number", "3"], capsys)
    assert code == 0
    data = json.loads(out)
    assert {"verdict", "par_moves", "best_cards_left", "solution", "nodes", "seconds"} <= set(data)
    deal = deal_from_number(3)
    played = replay(deal, preset("relaxed"), data["solution"])
    assert played.ok and played.position.is_won and data["par_moves"] == len(data["solution"])


def test_solve_reads_deal_text_from_standard_input(capsys, monkeypatch):
    text = deal_from_number(5).text
    code, out, _ = run(["solve", "--rules", "one-look"], capsys, stdin=text, monkeypatch=monkeypatch)
    assert code == 0 and json.loads(out)["deal"] == text


def test_solve_refuses_a_bad_deal_with_a_clear_error(capsys, monkeypatch):
    code, out, err = run(["solve"], capsys, stdin="AC AC", monkeypatch=monkeypatch)
    assert code == 2 and not out and err.startswith("error:")


def test_hint_after_moves(capsys):
    position = Position.start(deal_from_number(3), preset("classic"))
    first = position.legal_moves()[-1]  # a draw
    code, out, _ = run(["hint", "--rules", "classic", "--deal", deal_from_number(3).text, str(first)], capsys)
    assert code == 0
    data = json.loads(out)
    position.apply(first)
    position.check(data["move"])
    assert data["explanation"]


def test_hint_names_the_illegal_move(capsys):
    code, _, err = run(["hint", "--rules", "classic", "--deal", "3", "0+1"], capsys)
    assert code == 2 and "0+1" in err


def test_stats_prints_share_interval_and_times(capsys):
    code, out, _ = run(["stats", "--rules", "one-look", "--deals", "12", "--workers", "2", "--json"], capsys)
    assert code == 0
    figures = json.loads(out)
    assert figures["deals"] == 12 and figures["unknown"] == 0
    low, high = figures["interval_95"]
    assert low <= figures["share"] <= high
    assert figures["seconds"]["max"] >= figures["seconds"]["median"] > 0


@pytest.mark.parametrize("won,trials", [(0, 10), (5, 10), (10, 10), (668, 1000)])
def test_wilson_interval_holds_the_share(won, trials):
    low, high = wilson_interval(won, trials)
    assert 0 <= low <= won / trials <= high <= 1
    assert high - low < 0.07 or trials < 100
