"""`roseking report`'s output: its numbers need the standard library alone (`write_numbers`); its
pictures and page (`figures`, `page`) need the `[report]` extra: matplotlib, numpy."""
from __future__ import annotations

import json
from typing import Any

from firmware_py.atomic import Output


def write_numbers(f: Output, report: dict[str, Any]) -> None:
    """Write `report` (`engine.tally.Report.to_dict()`) to `f` as JSON: `report.json` and `--json FILE`."""
    json.dump(report, f, indent=1)
