"""The subcommands of `roseking`, one module each, each with `register(subparsers)` and `run(args)`."""
import argparse
from typing import TypeAlias

Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""What `register` is handed: the `roseking` parser's subcommand list (`add_parser` adds one)."""
