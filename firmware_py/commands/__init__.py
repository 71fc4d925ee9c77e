"""The subcommands of `roseking`, one module each, each with `register(subparsers)` and `run(args)`."""
import argparse

Subparsers = argparse._SubParsersAction
"""What `register` is handed: the `roseking` parser's subcommand list (`add_parser` adds one)."""
