"""A clean shutdown of the machine: `[table] shutdown_command` run without a shell, the one way both the
operator's page (`POST /api/shutdown`) and the staff menu on the buttons do it.

The command (default `systemctl poweroff`) stops the service with SIGTERM, which saves the game
like any stop. It is waited for a while only, to say whether it failed.
"""
import asyncio
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass

COMMAND_SECONDS = 10.0      # how long the shutdown command is waited for, to say if it failed


@dataclass(frozen=True)
class Shutdown:
    """How the shutdown command went: its exit `status` (None: still running after COMMAND_SECONDS, as a
    poweroff may), or `why` it failed, in words."""
    status: int | None
    why: str | None = None


async def shut_down(command: Sequence[str], log: Callable[[str], None], who: str) -> Shutdown:
    """Run `command` for `who` (the log line says who asked), without a shell, and say how it went; a failure
    is logged too."""
    log(f"roseking: {who} shuts the table down ({shlex.join(command)})")
    try:
        process = await asyncio.create_subprocess_exec(*command, stdin=asyncio.subprocess.DEVNULL,
                                                       stdout=asyncio.subprocess.DEVNULL,
                                                       stderr=asyncio.subprocess.PIPE)
    except OSError as exc:
        why = f"the shutdown command {shlex.join(command)} cannot run ({exc.strerror})"
        log(f"roseking: {why}")
        return Shutdown(None, why)
    try:
        _, err = await asyncio.wait_for(process.communicate(), COMMAND_SECONDS)
    except TimeoutError:
        return Shutdown(None)
    if process.returncode:
        said = err.decode(errors="replace").strip().splitlines()[:1]
        why = f"{shlex.join(command)} failed (status {process.returncode}{': ' + said[0][:200] if said else ''})"
        log(f"roseking: {why}")
        return Shutdown(process.returncode, why)
    return Shutdown(0)
