"""The documents' examples work and their links resolve.

Every Markdown file of the repository is found (hidden folders and virtual environments aside),
and its fenced blocks are read by their info string:

- ```sh  runs, in bash with `set -eo pipefail`. Each block stands alone, as a reader may copy it:
  it runs in a fresh directory of its own, in which the repository's files are linked (so
  `examples/…` or `docs/img/…` name the repository's files, as from a checkout). A block whose
  lines start with `$ ` is a transcript: each `$ command` runs on its own and must print exactly
  the lines that follow it. To keep the suite short, `--games N` of 20 or more runs 2 games, and
  `roseking bench` runs `--quick`.
- ```console  is shown, never run: what needs a Raspberry Pi, root, a cluster, the network or a
  tool the project does not install (valgrind), what runs until it is stopped (`make run`), the
  suite's own caller (`make test`), and measurements of half a minute or more (`bench --only
  play`, whole matches of the strong players). A shell block under another name (bash, shell…)
  is an error, and so is a block without a name that holds a command: each block says whether
  it runs.
- ```pycon  is a Python session (`>>>`): it runs as a doctest, the blocks of one document sharing
  their names. ```python is a program shown, not run (it needs a Pi or a batch system).
- ```json, ```toml, ```text and unnamed blocks are data, messages and diagrams; any other name is
  an error.

Every relative link (and image) must name a file of the repository, and its `#anchor` a heading of
that file. The position example of docs/NOTATION.md must be a valid position.
"""
import doctest
import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import processes

from engine.position import Position

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^( *)```([\w-]*)[^\n]*\n(.*?)^\1```[ \t]*$", re.MULTILINE | re.DOTALL)
KINDS = {"sh", "console", "pycon", "python", "json", "toml", "text", ""}   # runs, or is shown, as the docstring says
COMMAND = re.compile(r"^\s*(\$ |roseking\b|make\b|pip\b|sudo\b|python3?\b|\.venv/)", re.MULTILINE)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)|^\[[^\]]+\]:\s*(\S+)", re.MULTILINE)


def documents():
    """The repository's Markdown files, relative to it: found, not listed."""
    found = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in {"__pycache__", "build", "dist"}
                         and not d.endswith(".egg-info") and not (Path(folder, d) / "pyvenv.cfg").exists())
        found += [str(Path(folder, f).relative_to(ROOT)) for f in files if f.endswith(".md")]
    return sorted(found)


def fences(doc):
    """(info string, body, line number) of each fenced block of `doc`, indented ones too."""
    text = (ROOT / doc).read_text()
    return [(m[2], re.sub(rf"(?m)^{m[1]}", "", m[3]), text.count("\n", 0, m.start()) + 1) for m in FENCE.finditer(text)]


def blocks(doc, kind):
    return [(body, line) for info, body, line in fences(doc) if info == kind]


def shortened(script):
    """`script` at the small size the docstring says: 2 games for 20 or more, `bench` quick."""
    script = re.sub(r"--games (\d{3,}|[2-9]\d)\b", "--games 2", script)
    return re.sub(r"^(roseking bench\b.*)$", r"\1 --quick", script, flags=re.MULTILINE)


def anchors(doc):
    """The anchors GitHub makes of the headings of `doc`."""
    text = FENCE.sub("", (ROOT / doc).read_text())
    slugs, seen = set(), {}
    for heading in re.findall(r"^#+ +(.+?) *#*$", text, re.MULTILINE):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        slugs.add(slug if slug not in seen else f"{slug}-{seen[slug]}")
        seen[slug] = seen.get(slug, 0) + 1
    return slugs


DOCS = documents()


def test_the_documents_are_found():
    assert {"README.md", "docs/DESIGN.md", "docs/NOTATION.md", "hardware/README.md"} <= set(DOCS)
    assert blocks("README.md", "sh") and blocks("README.md", "pycon")


@pytest.mark.parametrize("doc", DOCS)
def test_every_block_says_whether_it_runs(doc):
    for info, body, line in fences(doc):
        assert info in KINDS, f"{doc}:{line}: ```{info}: sh or pycon to run it, console or python to show it"
        if info in {"", "text"}:
            assert not COMMAND.search(body), f"{doc}:{line}: a command in a block without sh or console"


@pytest.mark.parametrize("doc", DOCS)
def test_the_links_resolve(doc):
    text = FENCE.sub("", (ROOT / doc).read_text())
    for inline, reference in LINK.findall(text):
        target = inline or reference
        if re.match(r"[a-z][a-z0-9+.-]*:", target):      # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        file = (ROOT / doc).parent / path if path else ROOT / doc
        assert file.exists(), f"{doc}: broken link {target}"
        if anchor and file.suffix == ".md":
            assert anchor in anchors(str(file.resolve().relative_to(ROOT))), f"{doc}: no heading #{anchor} in {path}"


def checkout(tmp_path):
    """A fresh directory in which the repository's files are at hand, as in a checkout."""
    for entry in ROOT.iterdir():
        if not entry.name.startswith(".") and not (entry / "pyvenv.cfg").exists():
            (tmp_path / entry.name).symlink_to(entry)
    return tmp_path


def bash(script, cwd):
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    return processes.run(["bash", "-c", "set -eo pipefail\n" + script], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300, stdin=subprocess.DEVNULL, check=False)


def transcript(body):
    """(command, the output it must print) of each `$ ` line of a transcript block."""
    steps = []
    for line in body.splitlines(keepends=True):
        if line.startswith("$ "):
            steps.append([line[2:].rstrip("\n"), ""])
        else:
            steps[-1][1] += line
    return steps


SHELL_BLOCKS = [pytest.param(body, id=f"{doc}:{line}") for doc in DOCS for body, line in blocks(doc, "sh")]


@pytest.mark.parametrize("body", SHELL_BLOCKS)
def test_shell_blocks_run(body, tmp_path):
    cwd = checkout(tmp_path)
    if body.lstrip().startswith("$ "):
        for command, expected in transcript(body):
            proc = bash(shortened(command), cwd)
            assert proc.returncode == 0 and "Traceback" not in proc.stderr, f"{command}\n{proc.stderr}"
            assert proc.stdout == expected, command
    else:
        proc = bash(shortened(body), cwd)
        assert proc.returncode == 0 and "Traceback" not in proc.stderr, f"{body}\n{proc.stderr}"


@pytest.mark.parametrize("doc", [d for d in DOCS if blocks(d, "pycon")])
def test_python_sessions_run(doc, tmp_path, monkeypatch):
    monkeypatch.chdir(checkout(tmp_path))
    names: dict = {}
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for body, line in blocks(doc, "pycon"):
        test = doctest.DocTestParser().get_doctest(body, names, f"{doc}:{line}", doc, line)
        report = []
        result = runner.run(test, out=report.append, clear_globs=False)
        assert result.failed == 0, "".join(report)


PICTURE_SCRIPTS = sorted((ROOT / "docs/img").glob("*.txt"))


@pytest.mark.parametrize("script", PICTURE_SCRIPTS, ids=lambda p: p.name)
def test_each_picture_script_is_run_by_the_command_its_readme_shows_and_parses(script):
    """The pictures' commands take 20 s each and are shown only (docs/img/README.md): each script's first line
    is one of them, and every step of the script names a button of the table it runs on."""
    from hardware import parse_config
    from hardware.script import parse_script
    command = script.read_text().splitlines()[0].removeprefix("# ")
    [shown] = blocks("docs/img/README.md", "console")[:1]
    assert f"$ {command}\n" in shown[0]
    config = re.search(r"--config (\S+)", command)[1]
    buttons = parse_config(tomllib.loads((ROOT / config).read_text())).buttons.pins
    assert parse_script(script.read_text(), buttons, script.name)


def test_the_position_example_is_a_valid_position():
    example = json.loads(blocks("docs/NOTATION.md", "json")[0][0])
    pos = Position.from_json(example)
    assert (pos.seat, pos.supply, len(pos.pile)) == ("white", 51, 14)
