"""The compiled core and its fallback (issue 31): the same seeds give the same records and summaries
whether the engine runs compiled by mypyc or in pure Python; `engine.COMPILED` says which one runs,
`ROSEKING_PURE=1` forces the pure one, and a build that cannot compile installs the pure one.

`make test-compiled` runs the engine's tests, these among them, against a compiled install with
ROSEKING_EXPECT_COMPILED=1; `make test` runs them against the pure sources."""
import contextlib
import hashlib
import importlib.util
import io
import os
import sys
from pathlib import Path

import pytest

import processes
import engine
from firmware_py.cli import main

ROOT = Path(__file__).resolve().parent.parent

# sha256 (first 16 hex digits) of the records and the JSON summary of each run, as the pure engine
# made them before the compiled core existed (the same at the commit before issue 31's work).
RUNS = {
    "random": (["--games", "300", "--seed", "3", "--players", "random,random"], "94aeeedbbed869d9"),
    "teams": (["--games", "60", "--seed", "5", "--variant", "teams", "--players", "random,random"],
              "45c08db8c414bf53"),
    "easy": (["--games", "3", "--seed", "6", "--players", "easy:30,random"], "bae93a0a11686d62"),
    "hard": (["--games", "1", "--seed", "7", "--players", "hard:1200,alphabeta:600"], "912858cd27ea60b0"),
    "medium": (["--games", "2", "--seed", "8", "--players", "medium:60,ab7"], "b6973cd3c2ccd244"),
    "greedy": (["--games", "1", "--seed", "9", "--players", "greedy,max:2600"], "8e0a819bfe8cdabe"),
}


@pytest.mark.parametrize("name", RUNS)
def test_the_same_seeds_give_the_same_records_and_summaries(name, tmp_path):
    """Every player's moves, every deal (R7) and reshuffle (R11), every score (R18, R19): byte for byte."""
    argv, digest = RUNS[name]
    records, out = tmp_path / "r.jsonl", io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["simulate", *argv, "--records", str(records), "--json"]) == 0
    assert hashlib.sha256(records.read_bytes() + out.getvalue().encode()).hexdigest()[:16] == digest


def test_the_core_in_use_is_the_one_this_run_expects():
    """A compiled run that fell back to the sources, or a pure run that found compiled modules, fails here."""
    expected = os.environ.get("ROSEKING_EXPECT_COMPILED", "0") == "1"
    assert engine.COMPILED is expected
    assert (Path(engine.__file__).parent == ROOT / "engine") is not expected  # compiled: an install, not the tree


def test_roseking_pure_makes_a_process_use_the_sources():
    code = "import engine, engine.players.negamax as n; print(engine.COMPILED, n.__file__.endswith('.py'))"
    env = {**os.environ, "ROSEKING_PURE": "1"}
    out = processes.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True,
                         cwd=ROOT / "tests").stdout
    assert out.split() == ["False", "True"]


def test_a_build_that_cannot_compile_installs_no_extension(tmp_path, capsys, monkeypatch):
    """No C compiler (CC=false): the build's extensions are dropped whole with one line saying why, and
    the install goes on with the pure-Python engine."""
    backend = build_backend()
    from setuptools import Distribution, Extension

    (tmp_path / "core.c").write_text("int answer(void) { return 42; }\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CC", "false")
    dist = Distribution({"name": "probe", "ext_modules": [Extension("probe.core", ["core.c"])]})
    command = backend.BuildExt(dist)
    command.build_lib, command.build_temp = str(tmp_path / "lib"), str(tmp_path / "temp")
    command.ensure_finalized()
    command.run()
    assert command.extensions == [] and not list(tmp_path.glob("lib/**/*.so"))
    err = capsys.readouterr().err
    assert "roseking: the compiled core could not be built" in err and "pure-Python engine" in err


def test_compiling_asks_for_mypy_only_when_asked_to(monkeypatch):
    backend = build_backend()
    monkeypatch.setattr(backend._setuptools, "get_requires_for_build_wheel", lambda settings=None: ["wheel"])
    for value, wanted in (("1", True), ("yes", True), ("0", False), ("", False)):
        monkeypatch.setenv("ROSEKING_COMPILE", value)
        assert backend.compiling() is wanted
        assert backend.get_requires_for_build_wheel() == (["wheel", backend.MYPY] if wanted else ["wheel"])


def build_backend():
    """build_backend/roseking_build.py, the build backend pip runs (not a module of the packages)."""
    spec = importlib.util.spec_from_file_location("roseking_build", ROOT / "build_backend" / "roseking_build.py")
    backend = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(backend)
    return backend
