"""The processes the tests start, each ended whatever happens to its test.

A test starts a process with `started(argv)` (or `run(argv)`, which is `subprocess.run` through it):
the process gets a process group of its own and the default disposition of the stop signals (a
test run whose parent ignores SIGINT, a script's `&` job, would pass that on), and when the block
is left, by an assertion, a timeout or Ctrl-C, the whole group is killed and the process waited
for. The table service's computer worker, a Dask worker, a browser: whatever it started goes with it.

Behind that, two checks (hooked into pytest by conftest.py). Every process the tests start carries
`ROSEKING_TEST_RUN` in its environment (set in each pytest process before the tests are collected,
so the environments the tests build from `os.environ` carry it too); the pytest processes themselves
do not, since it is set after they started. After each test, a marked process of this pytest process
that was not there before the test (its id new) is a leftover: it is given a moment to end by itself, then its
group is killed and the test errs, naming it. At the end of the session, any marked process of the
run still alive fails the run. The processes a pytest process starts get a temporary folder of their own
(`TMPDIR`), removed at its end: what a killed one leaves there (its fork server's socket) goes with it.
"""
import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

MARK = "ROSEKING_TEST_RUN"     # the run's id and the pytest process's (`RUN:gw0`) in each started process
RUN_ID = "ROSEKING_TEST_RUN_ID"  # the run's id, shared by the workers of one `pytest -n`
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)
GRACE_SECONDS = 2.0             # a process that ends by itself this soon after its test is no leftover
# Helpers a pytest process keeps for its whole life, started by the first test that needs one.
LIFELONG = ("multiprocessing.resource_tracker", "multiprocessing.forkserver")
_tmp: str | None = None         # the temporary folder of the processes this pytest process starts


@contextlib.contextmanager
def started(argv: Sequence[str], *, ignoring: Sequence[signal.Signals] = (),
            **popen: object) -> Iterator[subprocess.Popen]:
    """`argv` started in a process group of its own, the stop signals at their default (or `ignoring`
    ignored, as a parent would leave them); its whole group killed, and the process waited for, at
    the end of the block."""
    def dispositions() -> None:
        for sig in STOP_SIGNALS:
            signal.signal(sig, signal.SIG_DFL)
        for sig in ignoring:
            signal.signal(sig, signal.SIG_IGN)
    if _tmp is not None:
        popen["env"] = {**(popen.get("env") or os.environ), "TMPDIR": _tmp}
    process = subprocess.Popen(argv, start_new_session=True, preexec_fn=dispositions, **popen)
    try:
        yield process
    finally:
        end(process)


def end(process: subprocess.Popen) -> None:
    """Kill `process`'s group, wait for the process and close its pipes."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with process:      # closes the pipes and waits
        pass


def run(argv: Sequence[str], *, input: str | bytes | None = None, timeout: float | None = None,
        check: bool = False, capture_output: bool = False, **popen: object) -> subprocess.CompletedProcess:
    """`subprocess.run(argv, …)` through `started`: on a timeout (or anything else) the whole group is
    killed, not just the process."""
    if capture_output:
        popen.update(stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if input is not None:
        popen["stdin"] = subprocess.PIPE
    with started(argv, **popen) as process:
        out, err = process.communicate(input, timeout)
    done = subprocess.CompletedProcess(process.args, process.returncode, out, err)
    if check:
        done.check_returncode()
    return done


@dataclass(frozen=True)
class Found:
    """A live process of the test run: its id, group and command line."""
    pid: int
    group: int
    command: str

    def __str__(self) -> str:
        return f"{self.pid} ({self.command})"


def marked(value: str, prefix: bool = False, among: Iterable[str] | None = None) -> list[Found]:
    """The live processes (of the ids `among`, else all) whose environment has `MARK=value` (or a value
    starting with it), but for this process's lifelong helpers."""
    me, wanted = str(os.getpid()), f"\0{MARK}={value}".encode()
    found = []
    for name in os.listdir("/proc") if among is None else among:
        if not name.isdigit() or name == me:
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as f:
                environ = b"\0" + f.read()
            at = environ.find(wanted)
            if at < 0 or not (prefix or environ[at + len(wanted):at + len(wanted) + 1] in (b"\0", b"")):
                continue
            with open(f"/proc/{name}/cmdline", "rb") as f:
                command = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
            state = _stat(name)
        except OSError:             # gone meanwhile, or not ours to read
            continue
        # A helper is this process's own: what a fork server forks carries the server's command line.
        helper = state[1] == me and any(h in command for h in LIFELONG)
        if state[0] != "Z" and not helper:
            found.append(Found(int(name), int(state[2]), command))
    return found


def reap(found: Sequence[Found], grace: float | None = None) -> list[Found]:
    """Of `found`, those still alive after `grace` seconds (by default GRACE_SECONDS), their groups then killed."""
    deadline = time.monotonic() + (GRACE_SECONDS if grace is None else grace)
    left = list(found)
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = [f for f in left if alive(f.pid)]
    ours = os.getpgrp()
    for f in left:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            if f.group != ours:     # a group of its own: all of it; in ours, the process and its descendants
                os.killpg(f.group, signal.SIGKILL)
            for pid in [f.pid, *_descendants(f.pid)]:
                os.kill(pid, signal.SIGKILL)
    return left


def _descendants(pid: int) -> list[int]:
    parents = {}
    for entry in Path("/proc").iterdir():
        with contextlib.suppress(OSError, ValueError):
            if entry.name.isdigit():
                parents[int(entry.name)] = parent(int(entry.name))
    found, todo = [], [pid]
    while todo:
        above = todo.pop()
        children = [p for p, up in parents.items() if up == above]
        found += children
        todo += children
    return found


def _stat(pid: int | str) -> list[str]:
    """The fields of `/proc/PID/stat` after the command's name: state, parent, group, …"""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def parent(pid: int) -> int:
    """The id of process `pid`'s parent."""
    return int(_stat(pid)[1])


def alive(pid: int) -> bool:
    """Whether process `pid` runs (a zombie, dead but not yet waited for, does not)."""
    try:
        return _stat(pid)[0] != "Z"
    except OSError:
        return False


def gone(pid: int, seconds: float = 5.0) -> bool:
    """Whether process `pid` has ended (or is a zombie) within `seconds`."""
    deadline = time.monotonic() + seconds
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.01)
    return not alive(pid)


# --- the hooks (imported by conftest.py) ------------------------------------------------------

def pytest_configure(config: pytest.Config) -> None:
    """Mark what this pytest process starts: the run's id (shared by `-n` workers) and the process's; make the
    temporary folder of what it starts."""
    global _tmp
    _tmp = tempfile.mkdtemp(prefix="roseking-tests-")
    run_id = os.environ.setdefault(RUN_ID, uuid.uuid4().hex)
    worker = getattr(config, "workerinput", {}).get("workerid", "main")
    os.environ[MARK] = f"{run_id}:{worker}"


@pytest.fixture(autouse=True)
def no_process_left() -> Iterator[None]:
    """After each test: the processes it started and left are killed, and the test errs, naming them."""
    before = set(os.listdir("/proc"))
    yield
    left = reap(marked(os.environ[MARK], among=set(os.listdir("/proc")) - before))
    if left:
        pytest.fail(f"the test left {len(left)} process(es) running, now killed: "
                    + "; ".join(map(str, left)), pytrace=False)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """The run fails if a process any of its tests started is still alive (then killed)."""
    if hasattr(session.config, "workerinput"):
        return                      # the controller looks, once every worker is done
    left = reap(marked(os.environ[RUN_ID] + ":", prefix=True))
    if left:
        session.config.get_terminal_writer().line(
            f"error: {len(left)} process(es) started by the tests outlived them, now killed: "
            + "; ".join(map(str, left)), red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove the temporary folder of what this pytest process started."""
    if _tmp is not None:
        shutil.rmtree(_tmp, ignore_errors=True)
