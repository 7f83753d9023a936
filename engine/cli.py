"""``python -m engine``: deal, replay and play from a terminal."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable

from .deals import Deal, deal_from_number, parse_deal
from .errors import EngineError
from .replay import replay
from .rules import DEFAULT_PRESET, Rules
from .scoring import score
from .view import player_view


def rules_arg(text: str) -> Rules:
    try:
        return Rules.parse(text)
    except EngineError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def number_arg(text: str) -> int:
    try:
        number = int(text)
        deal_from_number(number)
    except (ValueError, EngineError) as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return number


def deal_source(args: argparse.Namespace, stdin_fallback: bool = False) -> Deal:
    """The deal named by --deal or --number (or deal text on standard input)."""
    if getattr(args, "deal", None):
        return parse_deal(args.deal)
    if getattr(args, "number", None) is not None:
        return deal_from_number(args.number)
    if stdin_fallback:
        return parse_deal(sys.stdin.read())
    raise EngineError("give the deal with --deal TEXT or --number N")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description="Pyramid Solitaire rules engine")
    commands = parser.add_subparsers(dest="command", required=True)

    deal = commands.add_parser("deal", help="print deal number N as deal text")
    deal.add_argument("number", type=number_arg)
    deal.add_argument("--rules", type=rules_arg, default=DEFAULT_PRESET, help="preset or rule set (for the layout)")
    deal.set_defaults(handler=cmd_deal)

    rep = commands.add_parser("replay", help="replay a move log; print the final position, scores and status")
    rep.add_argument("--rules", type=rules_arg, required=True)
    source = rep.add_mutually_exclusive_group(required=True)
    source.add_argument("--deal", help="deal text (52 cards)")
    source.add_argument("--number", type=number_arg, help="deal number")
    rep.add_argument("moves", nargs="*", help="the move log (read from standard input when absent)")
    rep.set_defaults(handler=cmd_replay)

    play = commands.add_parser("play", help="play a deal in the terminal")
    play.add_argument("--rules", type=rules_arg, default=DEFAULT_PRESET)
    play.add_argument("--number", type=number_arg, help="deal number (a random one when absent)")
    play.set_defaults(handler=cmd_play)

    try:
        from .solver.cli import add_subcommands
    except ImportError:  # the solver's commands come with its package
        pass
    else:
        add_subcommands(commands)
    return parser


def cmd_deal(args: argparse.Namespace) -> int:
    print(deal_from_number(args.number).layout_text(args.rules.reserve))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    deal = deal_source(args)
    log = args.moves if args.moves else sys.stdin.read().split()
    result = replay(deal, args.rules, log)
    if result.failed_at is not None:
        print(
            json.dumps(
                {
                    "error": {"index": result.failed_at, "move": log[result.failed_at], "reason": result.reason},
                    "position": result.position.dumps(),
                },
                indent=2,
            )
        )
        return 1
    position = result.position
    print(
        json.dumps(
            {
                "status": position.status,
                "position": position.dumps(),
                "scores": score(position).to_dict(),
                "view": player_view(position),
            },
            indent=2,
        )
    )
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from .play import play_terminal

    return play_terminal(args.rules, args.number)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        handler: Callable[[argparse.Namespace], int] = args.handler
        return handler(args)
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
