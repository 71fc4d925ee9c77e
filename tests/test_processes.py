"""The suite leaves no process behind: a child outliving a failing test body is reaped, whether the
test started it through `processes.started` or by itself, and a run whose child outlives it fails.

One inner pytest run, with the suite's hooks, plays the four cases; each test here reads its part. Its
leftovers (sleepers of a minute) are given 0.2 s to end by themselves, not the suite's 2 s: they never do."""
import os
import re
import signal
import sys
from pathlib import Path

import pytest

import processes

HERE = Path(__file__).resolve().parent
INNER = f"""
import subprocess, sys, time
import pytest
import processes

SLEEPER = [{sys.executable!r}, "-c", "import subprocess, sys, time; "
           "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']); time.sleep(60)"]

def write(name, pid):
    with open(name, "w") as f:
        f.write(str(pid))

def test_fails_while_its_child_and_grandchild_run():
    with processes.started(SLEEPER) as child:
        time.sleep(0.5)                     # the grandchild is started
        write("through-the-context-manager", child.pid)
        assert False, "the body fails"

def test_starts_a_child_by_itself_and_fails():
    child = subprocess.Popen(SLEEPER)
    write("by-itself", child.pid)
    assert False, "the body fails"

def test_leaves_a_process_the_fork_server_forked():
    import multiprocessing
    child = multiprocessing.get_context("forkserver").Process(target=time.sleep, args=(60,), daemon=True)
    child.start()
    write("forked-by-the-fork-server", child.pid)

@pytest.fixture(scope="module")
def server():
    child = subprocess.Popen(SLEEPER)
    write("by-a-module-fixture", child.pid)
    yield child

def test_passes_with_a_server_nobody_ends(server):
    assert server.poll() is None
"""


@pytest.fixture(scope="module")
def inner(tmp_path_factory):
    """The inner run: (its exit status, its output, its directory)."""
    where = tmp_path_factory.mktemp("inner")
    (where / "conftest.py").write_text("import processes\n"
                                       "from processes import no_process_left, pytest_configure, "
                                       "pytest_sessionfinish, pytest_unconfigure  # noqa\n"
                                       "processes.GRACE_SECONDS = 0.2\n")
    (where / "test_inner.py").write_text(INNER)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")]),
               PYTEST_DISABLE_PLUGIN_AUTOLOAD="1", COLUMNS="400")
    env.pop(processes.RUN_ID)       # a run of its own
    done = processes.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--rootdir", str(where),
                          "-o", "addopts=", str(where / "test_inner.py")], cwd=where, env=env,
                         capture_output=True, text=True, timeout=60)
    return done.returncode, done.stdout, where


def test_a_child_started_through_the_context_manager_dies_with_its_failing_test(inner):
    status, out, where = inner
    assert "FAILED test_inner.py::test_fails_while_its_child_and_grandchild_run - AssertionError: the body" in out
    child = int((where / "through-the-context-manager").read_text())
    assert processes.gone(child, 0)           # at once, not by the check after the test
    assert f"{child} (" not in out  # and the check found nothing of it: the grandchild went with it


def test_a_child_a_failing_test_started_by_itself_is_reaped_and_the_test_errs_naming_it(inner):
    status, out, where = inner
    child = int((where / "by-itself").read_text())
    assert "ERROR at teardown of test_starts_a_child_by_itself_and_fails" in out
    assert re.search(rf"the test left \d process\(es\) running, now killed: (.*; )?{child} \(", out), out
    assert processes.gone(child)


def test_a_process_the_fork_server_forked_is_reaped_though_the_server_is_left(inner):
    """multiprocessing's fork server lives as long as its pytest process, as its resource tracker does; what the
    server forks (the table's computer worker) carries the server's command line, and is a leftover like any other."""
    status, out, where = inner
    child = int((where / "forked-by-the-fork-server").read_text())
    assert "ERROR at teardown of test_leaves_a_process_the_fork_server_forked" in out
    assert re.search(rf"the test left 1 process\(es\) running, now killed: {child} \(", out), out
    assert processes.gone(child)


def test_a_child_that_outlives_the_session_fails_the_run(inner):
    """A process of a module-scoped fixture that never ends it escapes the check after each test (it was
    there before the test began): the check at the session's end finds it, and the run fails."""
    status, out, where = inner
    child = int((where / "by-a-module-fixture").read_text())
    assert status == pytest.ExitCode.TESTS_FAILED
    assert "error: 1 process(es) started by the tests outlived them, now killed" in out and f"{child} (" in out
    assert "2 failed, 2 passed, 2 errors" in out
    assert processes.gone(child)


def test_a_child_starts_with_the_stop_signals_at_their_default_whatever_the_parent_ignores():
    """A test run from a script's `&` job ignores SIGINT; its children must not inherit that (the signal
    tests of the table service waited out their timeouts, and left the service running)."""
    code = "import signal; print(signal.getsignal(signal.SIGINT) is signal.SIG_IGN)"
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        assert processes.run([sys.executable, "-c", code], capture_output=True, text=True).stdout == "False\n"
        ignored = processes.run([sys.executable, "-c", code], capture_output=True, text=True,
                                ignoring=[signal.SIGINT])
        assert ignored.stdout == "True\n"
    finally:
        signal.signal(signal.SIGINT, previous)
