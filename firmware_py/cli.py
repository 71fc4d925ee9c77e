"""The `roseking` command: a thin argparse layer over engine, hardware and the service.

Each subcommand lives in its own module under `firmware_py.commands` and exposes
`register(subparsers)`, which adds its parser and sets `func` (args -> exit code).
User errors, and an output that cannot be written (`firmware_py.streams`), leave with one
line `error: …` on standard error and status 2. A signal ends a command with 128 + its
number: 130 for Ctrl-C, 143 for SIGTERM, 141 when the reader of its output has gone (`| head`).
"""
import argparse
import importlib
import signal
import sys
from collections.abc import Sequence
from typing import NoReturn

from engine import __version__
from firmware_py import streams
from firmware_py.errors import USER_ERRORS, UsageError

COMMANDS = [
    "new", "legal", "apply", "score", "show", "replay", "simulate", "bench", "tournament", "agent", "config",
    "selftest", "play", "report", "status", "install-service", "soak", "train",
]
# The libraries of the `table` extra (and what they pull in): a command that needs them says so.
TABLE_LIBRARIES = frozenset({"gpiozero", "luma", "PIL", "neopixel", "board", "adafruit_blinka", "adafruit_pixelbuf"})

# Commands that write nothing to standard output: they may run with it closed.
SILENT = frozenset({"play"})


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
        importlib.import_module(f"firmware_py.commands.{name.replace('-', '_')}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit status."""
    with streams.guarded() as (stdout, stderr):
        status = _run(sys.argv[1:] if argv is None else argv, stdout)
        if status == 0 and stderr.failed:          # a warning or a log line was lost
            streams.say(f"error: {stderr.failed}")  # if it was only for a while
            status = 2
        return status


def _run(argv: Sequence[str], stdout: streams.Guarded) -> int:
    try:
        try:
            args = build_parser(argv).parse_args(argv)
            if args.command not in SILENT:
                stdout.require()
            status = int(args.func(args) or 0)
        except SystemExit as exc:                   # --help and --version; SIGTERM in a writer (firmware_py.atomic)
            status = exc.code if isinstance(exc.code, int) else 0
        stdout.flush()                              # a full or closed output is found now, not at exit
        return status
    except USER_ERRORS as exc:
        streams.say(f"error: {streams.printable(str(exc))}")
        return 2
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] not in TABLE_LIBRARIES:
            raise
        streams.say(f"error: this command needs the table libraries ({exc.name} is missing): "
                    "pip install 'roseking[table]'")
        return 2
    except KeyboardInterrupt:
        return 128 + signal.SIGINT
    except BrokenPipeError:
        return 128 + signal.SIGPIPE


if __name__ == "__main__":
    sys.exit(main())
