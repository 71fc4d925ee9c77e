"""The learning curve of `roseking train` as a figure: each reference's score by self-play games."""
from __future__ import annotations

import io
from typing import Any

from matplotlib.figure import Figure

from firmware_py.report.figures import _name


def curve_figure(points: list[dict[str, Any]]) -> bytes:
    """A PNG of the judged player's score against each fixed reference, with its 95% interval,
    by the self-play games trained on; a line at 50%."""
    fig = Figure(figsize=(6.4, 4.0), layout="constrained")
    ax = fig.add_subplot()
    refs = sorted({ref for p in points for ref in p["strength"]})
    for k, ref in enumerate(refs):
        shown = [p for p in points if ref in p["strength"]]
        x = [p["games"] + k * 0.01 * max(1, points[-1]["games"]) for p in shown]
        y = [100 * p["strength"][ref]["score"] for p in shown]
        lo = [v - 100 * p["strength"][ref]["ci95"][0] for v, p in zip(y, shown)]
        hi = [100 * p["strength"][ref]["ci95"][1] - v for v, p in zip(y, shown)]
        ax.errorbar(x, y, yerr=[lo, hi], marker="o", capsize=3, label=f"against {_name(ref)}")
    ax.axhline(50, color="#9a9a9a", linewidth=1, linestyle="--")
    ax.set_ylim(0, 100)
    ax.set_xlabel("self-play games trained on (0: the classical evaluation)")
    ax.set_ylabel("score, % (95% interval)")
    ax.set_title("The learned evaluation against fixed references")
    if refs:
        ax.legend(loc="best", frameon=False)
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()
