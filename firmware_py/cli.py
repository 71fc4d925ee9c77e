"""The `roseking` command: a thin argparse layer over engine, hardware and the service.

Each subcommand lives in its own module under `firmware_py.commands` and exposes
`register(subparsers)`, which adds its parser and sets `func` (args -> exit code).
User errors leave with one line `error: …` on standard error and status 2.
"""
import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

from engine import __version__
from firmware_py.errors import USER_ERRORS, UsageError

COMMANDS = [
    "new", "legal", "apply", "score", "show", "replay", "simulate", "bench", "tournament", "agent", "config",
    "selftest", "play", "report",
]
# The libraries of the `table` extra (and what they pull in): a command that needs them says so.
TABLE_LIBRARIES = frozenset({"gpiozero", "luma", "PIL", "neopixel", "board", "adafruit_blinka", "adafruit_pixelbuf"})

# What would end the `error:` line early, written as its escape (a key or value quoted from a file may hold it).
LINE_BREAKS = {ord(ch): repr(ch)[1:-1] for ch in "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"}


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one `error: …` line and status 2."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def build_parser(argv: Sequence[str] = ()) -> Parser:
    """The `roseking` parser: only the named subcommand's module is imported, else all."""
    chosen = next((a for a in argv if not a.startswith("-")), None)
    names = [chosen] if chosen in COMMANDS else COMMANDS
    parser = Parser(prog="roseking", description="The Rose King: engine, players and lit board.")
    parser.add_argument("--version", action="version", version=f"roseking {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    for name in names:
        importlib.import_module(f"firmware_py.commands.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit status."""
    try:
        argv = sys.argv[1:] if argv is None else argv
        args = build_parser(argv).parse_args(argv)
        return int(args.func(args) or 0)
    except USER_ERRORS as exc:
        print(f"error: {str(exc).translate(LINE_BREAKS)}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] not in TABLE_LIBRARIES:
            raise
        print(f"error: this command needs the table libraries ({exc.name} is missing): "
              "pip install 'roseking[table]'", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
