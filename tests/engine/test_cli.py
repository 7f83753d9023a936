import io
import json
import subprocess
import sys

from engine import Position, deal_from_number, preset
from engine.cli import main
from engine.play import play_terminal


def run(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "engine", *args], capture_output=True, text=True, input=stdin)


def test_deal_prints_the_deal_text_in_rows():
    result = run("deal", "412", "--rules", "reserve")
    assert result.returncode == 0
    lines = result.stdout.strip().splitlines()
    assert [len(line.split()) for line in lines] == [1, 2, 3, 4, 5, 6, 7, 7, 17]
    assert " ".join(lines).split() == deal_from_number(412).text.split()


def test_deal_refuses_a_bad_number():
    result = run("deal", "-4")
    assert result.returncode == 2 and "deal numbers run from 0" in result.stderr


def test_replay_prints_position_scores_and_status(capsys):
    assert main(["replay", "--rules", "relaxed", "--number", "7", "draw", "23+26"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "playing"
    assert out["scores"] == {"cards_left": 26, "pyramid_left": 26, "moves": 2, "cleared_pass": None, "match_score": -50}
    assert out["view"]["pyramid"][23] is None


def test_replay_reads_the_log_from_standard_input_and_reports_the_first_illegal_move():
    text = deal_from_number(7).text
    result = run("replay", "--rules", "classic", "--deal", text, stdin="draw\n23+26 21+22 draw")
    assert result.returncode == 1
    error = json.loads(result.stdout)["error"]
    assert error == {"index": 2, "move": "21+22", "reason": "A♦ + 3♥ make 4, not 13"}


def test_terminal_game_plays_undoes_and_lists_moves():
    out = io.StringIO()
    play_terminal(preset("relaxed"), 7, stdin=io.StringIO("?\nd\n21+22\nu\nu\nxyz\nq\n"), stdout=out)
    text = out.getvalue()
    assert "Legal moves: 23+26 26+27 draw" in text
    assert "Not allowed: A♦ + 3♥ make 4, not 13." in text
    assert "Undone." in text and "Nothing to undo." in text
    assert "'xyz' is not a location" in text
    assert "Left deal #7 after 0 moves." in text


def test_terminal_game_says_when_the_deal_is_stuck():
    # under one-look, drawing through the single pass leaves only the pyramid's own pairs
    rules = preset("one-look")

    def stuck_after_drawing(number):
        position = Position.start(deal_from_number(number), rules)
        for _ in range(24):
            position.apply("draw")
        return position.status == "stuck"

    number = next(n for n in range(200) if stuck_after_drawing(n))
    out = io.StringIO()
    play_terminal(rules, number, stdin=io.StringIO("d\n" * 24), stdout=out)
    assert "Stuck: no removal is possible and none can come up by drawing or redealing." in out.getvalue()


def test_terminal_game_announces_a_win():
    from .builders import build_deal, position_with

    rules = preset("relaxed")
    position = position_with(build_deal({0: "KH", 1: "6S", 2: "7D"}), rules, {0, 1, 2}, moves=40)
    out = io.StringIO()
    play_terminal(rules, 7, stdin=io.StringIO("0\n2+1\n0\n"), stdout=out, position=position)
    text = out.getvalue()
    assert "Not allowed: K♥ is covered by 6♠ and 7♦." in text
    assert "You won deal #7 in 42 moves." in text
