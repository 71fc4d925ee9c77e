"""`roseking bench --only startup`: how long `roseking legal` takes in a fresh process, start to exit."""
import json
import os
import subprocess
import sys
import tempfile

from engine.bench.core import median_seconds
from engine.position import Position

RUNS = 9


def figures(quick: bool = False) -> dict[str, float]:
    """Median milliseconds of `roseking legal POSITION` and of a bare `python -c pass`, each a new process
    (`quick`: one run of each)."""
    runs = 1 if quick else RUNS
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "start.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(Position.new(seed=1).to_json(), f)
        legal = [sys.executable, "-c", "import sys; from firmware_py.cli import main; sys.exit(main())", "legal", path]
        bare = [sys.executable, "-c", "pass"]

        def run(argv: list[str]) -> None:
            subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)

        return {
            "legal_ms": round(median_seconds(lambda: run(legal), runs) * 1000, 1),
            "bare_python_ms": round(median_seconds(lambda: run(bare), runs) * 1000, 1),
            "runs": runs,
        }
