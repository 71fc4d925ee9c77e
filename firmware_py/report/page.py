"""The report's directory: each figure as PNG and SVG, the numbers as JSON, and one offline page, `index.html`."""
from __future__ import annotations

import base64
import html
import io
import os
from typing import Any

from matplotlib.figure import Figure

from engine.stats import proportion
from engine.variants import COLOURS
from firmware_py.atomic import atomic_writer, output_directory, write_file
from firmware_py.report import write_numbers
from firmware_py.report.elo import elo_ratings_with_errors
from firmware_py.report.figures import DPI, drawn, short

NAME_CHARS = 60  # a longer player name is cut on the page (report.json and the CSV hold it whole)
STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1180px; padding: 0 1em; color: #222; }
h1 { font-size: 1.6em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; } h3 { margin-bottom: .3em; }
table { border-collapse: collapse; margin: .5em 0 1em; } td, th { padding: .2em .7em; text-align: right; }
th { background: #f1f1f1; } td:first-child, th:first-child { text-align: left; }
tr:nth-child(even) td { background: #fafafa; } figure { margin: 1em 0 2em; } img { max-width: 100%; height: auto; }
figcaption { color: #555; font-size: .9em; } .files { color: #555; font-size: .9em; }
"""


def _e(x: Any) -> str:
    return html.escape(str(x))


def _pct(r: dict[str, Any], key: str = "rate") -> str:
    if r[key] is None:
        return "–"
    lo, hi = r["ci95"]
    return f"{100 * r[key]:.1f}% <small>[{100 * lo:.1f}–{100 * hi:.1f}]</small>"


class Raw(str):
    """Markup that `_table` writes as it is."""


def _table(head: list[str], rows: list[list[Any]]) -> str:
    """An HTML table; cells are escaped unless they are Raw."""
    def cell(x: Any) -> str:
        return x if isinstance(x, Raw) else _e(x)
    out = ["<table><tr>" + "".join(f"<th>{_e(h)}</th>" for h in head) + "</tr>"]
    out += ["<tr>" + "".join(f"<td>{cell(x)}</td>" for x in row) + "</tr>" for row in rows]
    return "\n".join(out) + "</table>"


def _spread(s: dict[str, Any]) -> str:
    return f"{s['mean']} ± {s['sd']} ({s['min']}–{s['max']})"


def _summary(t: dict[str, Any]) -> str:
    s = t["summary"]
    team = " team" if t["variant"] == "teams" else ""
    rows: list[list[Any]] = [[f"{c}{team} wins", f"{s['colours'][c]['wins']:,}", Raw(_pct(s["colours"][c]))]
                             for c in COLOURS]
    draws, ci95 = proportion(s["colours"]["draws"], s["games"])
    rows.append(["draws", f"{s['colours']['draws']:,}", Raw(_pct({"rate": draws, "ci95": ci95}))])
    rows.append(["first player wins", f"{s['first_player_wins']['wins']:,}", Raw(_pct(s["first_player_wins"]))])
    for name, p in s["players"].items():
        name = short(name, NAME_CHARS)
        if p["games"]:
            rows.append([f"player {name}: score in {p['games']:,} games", f"{p['wins']:,} W, {p['draws']:,} D",
                         Raw(_pct(p))])
        if p["games_against_itself"]:
            rows.append([f"player {name}: games against itself", f"{p['games_against_itself']:,}", "see the colours"])
    rows += [[f"{c}{team} score", "", _spread(s["scores"][c])] for c in COLOURS]
    rows.append(["margin red − white", "", _spread(s["scores"]["margin_red"])])
    rows += [[f"{c}{team} heroes used", "", _spread(s["heroes_used"][c])] for c in COLOURS]
    rows.append(["moves per game", "", _spread(s["moves"])])
    rows += [[f"end: {reason}", f"{k:,}", f"{100 * k / s['games']:.1f}%"] for reason, k in s["reasons"].items()]
    return _table(["", "games", "rate [95% interval] or mean ± sd (min–max)"], rows)


def _seats(t: dict[str, Any]) -> str:
    n = max(t["games"], 1)
    rows = [[seat, ", ".join(f"{short(name, NAME_CHARS)} ({k:,})" for name, k in d["players"].items()),
             *(f"{d[kind] / n:.2f}" for kind in ("stones", "heroes", "draws", "passes"))]
            for seat, d in t["seats"].items()]
    return _table(["seat", "players (games)", "stones placed", "heroes", "draws", "passes"], rows) + \
        "<p>Per game, on average. Stones placed count plain card moves (R10); heroes flip a stone (R12); " \
        "passes are forced (R14).</p>"


def _tournament(t: dict[str, Any]) -> str:
    table = t["tournament"]
    elo = elo_ratings_with_errors(table)
    players = [[short(r["player"], NAME_CHARS), r["games"], r["wins"], r["draws"], r["losses"],
                Raw(_pct(r, "score")), f"{elo[r['player']][0]:+.0f} ± {elo[r['player']][1]:.0f}"]
               for r in table["players"]]
    pairs = [[" vs ".join(short(r[side], NAME_CHARS) for side in ("player", "opponent")), r["games"], r["wins"],
              r["draws"], r["losses"],
              Raw(_pct(r, "score"))] for r in table["pairings"]]
    return (_table(["side", "games", "W", "D", "L", "score [95% interval]", "Elo ± 95%"], players)
            + _table(["pairing", "games", "W", "D", "L", "first-named side's score"], pairs))


def _save(fig: Figure, path: str, fmt: str) -> bytes:
    """Write `fig` to `path` whole or not at all; return the bytes written (no date in an SVG:
    the same records give the same files)."""
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, metadata={"Date": None} if fmt == "svg" else None)
    write_file(path, buf.getvalue())
    return buf.getvalue()


def _figure(out: str, prefix: str, name: str, title: str, caption: str, fig: Figure) -> str:
    """Save one figure as PNG and SVG in `out`; its <figure> for the page, the SVG inline."""
    width, height = (round(x) for x in fig.get_size_inches() * DPI)
    _save(fig, os.path.join(out, f"{prefix}-{name}.png"), "png")
    fig.set_layout_engine("none")  # keep the layout the PNG got: the same picture, drawn once more
    svg = _save(fig, os.path.join(out, f"{prefix}-{name}.svg"), "svg")
    data = base64.b64encode(svg).decode("ascii")
    return (f'<figure id="{prefix}-{name}"><h3>{_e(title)}</h3>'
            f'<img src="data:image/svg+xml;base64,{data}" width="{width}" height="{height}" alt="{_e(title)}">'
            f'<figcaption>{_e(caption)} Files: <a href="{prefix}-{name}.png">PNG</a>, '
            f'<a href="{prefix}-{name}.svg">SVG</a>.</figcaption></figure>')


def write(out: str, report: dict[str, Any], sources: list[tuple[str, int]]) -> list[str]:
    """Write the report into directory `out` (made if missing, not its parents; other files in it stay).

    `report` is `engine.tally.Report.to_dict()`; `sources` lists (file, games read). Returns the
    file names written."""
    output_directory(out)
    body = [f"<h1>The Rose King: what {sum(t['games'] for t in report.values()):,} games show</h1>",
            '<p class="files">From ' + ", ".join(f"<code>{_e(f)}</code> ({n:,} games)" for f, n in sources)
            + ". Rates carry 95% Wilson score intervals, the same as <code>roseking simulate</code>'s summary.</p>"]
    with atomic_writer(os.path.join(out, "report.json")) as f:  # the numbers first: they stand if a drawing fails
        write_numbers(f, report)
    names = []
    for variant, t in report.items():
        body.append(f'<h2 id="{_e(variant)}">{_e(variant.capitalize())}: {t["games"]:,} games</h2>')
        if t["unfinished"]:
            body.append(f"<p>Unfinished games, left out of every figure and table: {t['unfinished']:,}.</p>")
        if not t["games"]:
            continue
        body.append(_summary(t))
        body.append("<h3>Seats</h3>" + _seats(t))
        if t["tournament"]:
            body.append("<h3>Tournament</h3>" + _tournament(t))
        for name, title, caption, fig in drawn(t):
            body.append(_figure(out, variant, name, title, caption, fig))
            names += [f"{variant}-{name}.png", f"{variant}-{name}.svg"]
    with atomic_writer(os.path.join(out, "index.html")) as f:
        f.write(f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>The Rose King: report'
                f"</title>\n<style>{STYLE}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")
    return ["report.json", *names, "index.html"]

