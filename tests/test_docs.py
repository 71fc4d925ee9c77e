"""The documentation's examples work (issue 9): every shell block of README.md and docs/*.md runs
with the installed `roseking` in a fresh directory, and the formats' JSON examples are valid.

`make …` lines are skipped (they are the suite's own caller). A `$ command` line is followed by
the output it must print. To keep the suite short, a run of more than 20 games runs 2.
"""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.position import Position

ROOT = Path(__file__).resolve().parent.parent
DOCS = ["README.md", "docs/NOTATION.md", "docs/RULES.md", "docs/CLUSTER.md"]
LINKED = DOCS + ["docs/DESIGN.md", "docs/PERFORMANCE.md", "hardware/README.md"]  # their links must resolve too
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def blocks(doc, kind):
    return [body for info, body in BLOCK.findall((ROOT / doc).read_text()) if info == kind]


def commands(doc):
    """(command, expected output or None) for each shell line of `doc`, in order."""
    out = []
    for body in blocks(doc, "sh"):
        for line in body.splitlines():
            if line.startswith("$ "):
                out.append([line[2:], ""])
            elif out and out[-1][1] is not None and not line.startswith("#") and "roseking" not in line:
                out[-1][1] += line + "\n"
            elif line.strip() and not line.startswith(("#", "make ")):
                out.append([line, None])
    return [(re.sub(r"--games (\d{3,}|[2-9]\d)\b", "--games 2", cmd), expected) for cmd, expected in out]


def test_every_document_has_examples_and_the_links_resolve():
    assert commands("README.md") and commands("docs/NOTATION.md")
    for doc in LINKED:
        for target in re.findall(r"\]\(([^)#:]+)[)#]", (ROOT / doc).read_text()):
            assert (ROOT / doc).parent.joinpath(target).exists(), f"{doc}: broken link {target}"


@pytest.mark.parametrize("doc", [d for d in DOCS if commands(d)])
def test_shell_examples_run(doc, tmp_path):
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    for cmd, expected in commands(doc):
        proc = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=120, stdin=subprocess.DEVNULL, check=False)
        assert proc.returncode == 0 and "Traceback" not in proc.stderr, f"{doc}: {cmd}\n{proc.stderr}"
        if expected is not None:
            assert proc.stdout == expected, f"{doc}: {cmd}"


def test_the_position_example_is_a_valid_position():
    example = json.loads(blocks("docs/NOTATION.md", "json")[0])
    pos = Position.from_json(example)
    assert (pos.seat, pos.supply, len(pos.pile)) == ("white", 51, 14)
