"""The report's figures, drawn with matplotlib from one variant's `Tally.to_dict()`.

Figures are made with matplotlib's object API (`Figure`, no pyplot): no window, no global
state; `savefig` renders PNG with the headless Agg backend and SVG with its own."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import matplotlib
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.image import AxesImage
from matplotlib.patches import Rectangle

from engine.tally import CROWN_START
from engine.stats import proportion
from engine.variants import COLOURS
from firmware_py.report.elo import elo_ratings_with_errors

DPI = 100
INK = {"red": "#b8322a", "white": "#5b6f86", "draw": "#9a9a9a"}  # white stones are drawn slate: white on white is lost
FILES = "abcdefghi"
BOARD_LEFT, BOARD_STEP, BOARD_BOTTOM, BOARD_SIDE = 0.3, 4.3, 0.6, 3.3  # inches: room for a colour bar's "−100"
LABEL_CHARS = 24  # a longer player name is cut in the figures (report.json and the CSV hold it whole)
matplotlib.rcParams.update({"svg.fonttype": "none", "font.size": 10, "axes.spines.top": False,
                            "axes.spines.right": False, "figure.dpi": DPI, "savefig.dpi": DPI,
                            "svg.hashsalt": "roseking",  # the SVG's ids made from its content: the same each run
                            "axes.titley": 1.0})  # nothing is drawn above an axes: no search for it at each draw

Draw = Callable[[dict[str, Any]], Figure]


def short(name: str, width: int) -> str:
    """A player's name cut to `width` characters, the last an ellipsis, when it is longer.

    >>> short("hard:5000", 24), short("x" * 40, 24)
    ('hard:5000', 'xxxxxxxxxxxxxxxxxxxxxxx…')
    """
    return name if len(name) <= width else name[:width - 1] + "…"


def _name(name: str) -> str:
    """A player's name as a figure shows it: `short`, `$` not taken for mathtext.

    >>> _name("$1 bet$")
    '\\\\$1 bet\\\\$'
    """
    return short(name, LABEL_CHARS).replace("$", r"\$")


def _side(t: dict[str, Any], colour: str) -> str:
    """`red` or `red team` (R20)."""
    return f"{colour} team" if t["variant"] == "teams" else colour


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _rates(ax: Axes, rows: list[tuple[str, float | None, list[float], str]], title: str) -> None:
    """Horizontal bars of rates with their 95% intervals, the first row on top, the figures in the labels."""
    rows = [r for r in rows if r[1] is not None]
    y = list(range(len(rows)))[::-1]
    rates = [r[1] or 0.0 for r in rows]
    ax.barh(y, rates, color=[r[3] for r in rows], alpha=0.85, capsize=4,
            xerr=[[rate - r[2][0] for rate, r in zip(rates, rows)], [r[2][1] - rate for rate, r in zip(rates, rows)]],
            error_kw={"elinewidth": 1.2, "ecolor": "#222"})
    ax.set_yticks(y, [f"{r[0]}\n{_pct(rate)} [{_pct(r[2][0])}–{_pct(r[2][1])}]" for rate, r in zip(rates, rows)])
    ax.set(xlim=(0, 1), ylim=(-0.6, len(rows) - 0.4))
    ax.axvline(0.5, color="#444", lw=0.8, ls="--")
    ax.xaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}%")
    ax.set_title(title, loc="left")


def results(t: dict[str, Any]) -> Figure:
    """Win rates by colour (or team), draws, the first player and each player, with 95% Wilson intervals."""
    s = t["summary"]
    n = s["games"]
    rows = [(f"{_side(t, c)} wins", s["colours"][c]["rate"], s["colours"][c]["ci95"], INK[c]) for c in COLOURS]
    draw_rate, draw_ci = proportion(s["colours"]["draws"], n)
    rows.append(("draws", draw_rate, draw_ci, INK["draw"]))
    rows.append(("first player wins", s["first_player_wins"]["rate"], s["first_player_wins"]["ci95"], "#7a5c99"))
    players = [(f"{_name(name)} (score)", p["rate"], p["ci95"], "#3f7f5f") for name, p in s["players"].items()
               if p["games"]]  # a player on both sides of every game (random vs random) has no score of its own
    fig = Figure(figsize=(11, 0.6 * max(len(rows), len(players)) + 1.4), layout="constrained")
    axes = fig.subplots(1, 2 if players else 1, squeeze=False)[0]
    _rates(axes[0], rows, f"Results of {n:,} games")
    if players:
        _rates(axes[1], players, "Each player's score (win 1, draw ½)")
    return fig


def _hist(ax: Axes, counts: dict[int, int], bins: int | list[float], colour: str, label: str) -> None:
    ax.hist(list(counts), bins=bins, weights=list(counts.values()), histtype="step", lw=1.6, color=colour,
            label=label)


def _bins(keys: list[int], width: int, edge: float = -0.5) -> list[float]:
    """Bin edges `width` apart, at `edge` + multiples of `width`, covering all `keys`."""
    low, high = min(keys), max(keys)
    start = low - (low - edge) % width
    return [start + width * k for k in range(int((high - start) // width) + 2)]


def scores(t: dict[str, Any]) -> Figure:
    """Distribution of the final score per colour, and of the margin red − white (R18)."""
    h = t["histograms"]
    fig = Figure(figsize=(11, 4), layout="constrained")
    left, right = fig.subplots(1, 2)
    keys = [k for c in COLOURS for k in h["score"][c]]
    for c in COLOURS:
        m = t["summary"]["scores"][c]
        _hist(left, h["score"][c], _bins(keys, 10), INK[c], f"{_side(t, c)}: mean {m['mean']}, sd {m['sd']}")
    left.set(title="Final score", xlabel="points (regions of n stones score n²)", ylabel="games")
    left.legend(frameon=False)
    margin = h["margin_red"]
    _hist(right, margin, _bins(list(margin), 10), "#444", "")
    right.axvline(0, color="#444", lw=0.8, ls="--")
    m = t["summary"]["scores"]["margin_red"]
    right.set(title=f"Margin red − white: mean {m['mean']}, sd {m['sd']}", xlabel="points", ylabel="games")
    return fig


def length(t: dict[str, Any]) -> Figure:
    """Game length in moves (draws and passes included) and how games end (R16, R17)."""
    h, s = t["histograms"], t["summary"]
    fig = Figure(figsize=(11, 4), layout="constrained")
    left, right = fig.subplots(1, 2, width_ratios=(2.2, 1))
    _hist(left, h["moves"], _bins(list(h["moves"]), 2), "#444", "")
    m = s["moves"]
    left.set(title=f"Game length: mean {m['mean']} moves, sd {m['sd']} ({m['min']}–{m['max']})",
             xlabel="moves in the game, draws and passes included", ylabel="games")
    names = list(s["reasons"])
    counts = [s["reasons"][r] for r in names]
    bars = right.bar(names, counts, color="#6b8e9e")
    right.bar_label(bars, [f"{c:,}\n{_pct(c / s['games'])}" for c in counts], fontsize=9)
    right.set(title="How games end", ylabel="games")
    right.margins(y=0.25)
    return fig


def heroes(t: dict[str, Any]) -> Figure:
    """Heroes used by each colour per game, and the move numbers at which each seat played one (R12)."""
    h = t["histograms"]
    fig = Figure(figsize=(11, 4), layout="constrained")
    left, right = fig.subplots(1, 2, width_ratios=(1, 1.8))
    most = max((k for c in COLOURS for k in h["heroes_used"][c]), default=0)
    for i, c in enumerate(COLOURS):
        used = h["heroes_used"][c]
        x = [k + (i - 0.5) * 0.38 for k in range(most + 1)]
        mean = t["summary"]["heroes_used"][c]["mean"]
        left.bar(x, [used.get(k, 0) for k in range(most + 1)], width=0.38, color=INK[c],
                 label=f"{_side(t, c)}: mean {mean}")
    left.set_xticks(range(most + 1))
    left.set(title="Heroes used per game", xlabel="heroes used", ylabel="games")
    left.legend(frameon=False)
    keys = [k for seat in h["hero_moves"].values() for k in seat]
    width = 5 * len(h["hero_moves"])  # every seat has the same number of turns in each bin
    styles = ["-", "-", ":", ":"]
    for k, (seat, moves) in enumerate(h["hero_moves"].items()):
        if moves:
            right.hist(list(moves), bins=_bins(keys, width, 0.5), weights=list(moves.values()), histtype="step",
                       lw=1.6, color=INK[COLOURS[k & 1]], ls=styles[k], label=seat)
    right.set(title="When heroes are played", xlabel=f"move number ({width}-move bins)", ylabel="hero moves")
    if keys:
        right.legend(frameon=False)
    return fig


def _board(ax: Axes, values: list[float], title: str, cmap: str, low: float, high: float) -> AxesImage:
    """A 9 × 9 board, rank 9 at the top (NOTATION.md), each square's value written in it."""
    grid = [[values[9 * rank + f] for f in range(9)] for rank in range(8, -1, -1)]
    image = ax.imshow(grid, cmap=cmap, vmin=low, vmax=high)
    for r in range(9):
        for f in range(9):
            v = grid[r][f]
            shade = (v - low) / ((high - low) or 1)
            dark = abs(shade - 0.5) > 0.3 if low < 0 else shade > 0.6  # diverging maps are dark at both ends
            ax.text(f, r, f"{round(100 * v)}", ha="center", va="center", fontsize=7.5,
                    color="white" if dark else "black")
    ax.add_patch(Rectangle((CROWN_START % 9 - 0.5, 7.5 - CROWN_START // 9), 1, 1, fill=False, ec="#e0a800",
                           lw=2.6))  # the crown's start (R6)
    ax.set_xticks(range(9), list(FILES))
    ax.set_yticks(range(9), [str(9 - r) for r in range(9)])
    ax.tick_params(length=0)
    for side in ("top", "right", "bottom", "left"):
        ax.spines[side].set_visible(False)
    ax.set_title(title, fontsize=10)
    return image


def board(t: dict[str, Any]) -> Figure:
    """For each square, the share of decided games in which it ended in the winner's colour,
    in the loser's, and the difference; the crown's start e5 is framed in gold."""
    b = t["board"]
    n = max(b["decided"], 1)
    won = [k / n for k in b["winner"]]
    lost = [k / n for k in b["loser"]]
    diff = [w - l for w, l in zip(won, lost)]
    spread = max(max(map(abs, diff)), 0.01)
    top = max(max(won), max(lost), 0.01)
    fig = Figure(figsize=(13, 4.8))  # laid out here: its labels take the same room every time
    width, height = fig.get_size_inches()
    for k, (values, title, cmap, low, high) in enumerate((
            (won, "winner's stone (% of decided games)", "Purples", 0.0, top),
            (lost, "loser's stone (%)", "Purples", 0.0, top),
            (diff, "winner's − loser's (points of %)", "RdBu_r", -spread, spread))):
        left = BOARD_LEFT + BOARD_STEP * k  # inches: the board, then its colour bar
        ax = fig.add_axes((left / width, BOARD_BOTTOM / height, BOARD_SIDE / width, BOARD_SIDE / height))
        bar = fig.add_axes(((left + BOARD_SIDE + 0.12) / width, BOARD_BOTTOM / height, 0.18 / width,
                            BOARD_SIDE / height))
        fig.colorbar(_board(ax, values, title, cmap, low, high), cax=bar, format=lambda v, _: f"{100 * v:g}")
    fig.suptitle(f"Who holds each square at the end: {b['decided']:,} decided games; gold frame: the crown's "
                 "start, e5", fontsize=11)
    return fig


def tournament(t: dict[str, Any]) -> Figure:
    """Each pairing's score with its 95% Wilson interval, and each side's Elo with its 95% interval."""
    table = t["tournament"]
    pairs = table["pairings"]
    fig = Figure(figsize=(11, 0.6 * max(len(pairs), len(table["players"])) + 1.4), layout="constrained")
    left, right = fig.subplots(1, 2)
    _rates(left, [(f"{_name(p['player'])} vs {_name(p['opponent'])}", p["score"], p["ci95"], "#3f7f5f")
                  for p in pairs], "Pairings: first-named side's score")
    elo = elo_ratings_with_errors(table)
    names = [r["player"] for r in table["players"]]
    y = list(range(len(names)))[::-1]
    right.errorbar([elo[n][0] for n in names], y, xerr=[elo[n][1] for n in names], fmt="o", color="#3f7f5f",
                   capsize=4)
    right.set_yticks(y, [f"{_name(n)}\n{elo[n][0]:+.0f} ± {elo[n][1]:.0f}" for n in names])
    right.axvline(0, color="#444", lw=0.8, ls="--")
    right.set(title="Elo (mean 0) with its 95% interval", xlabel="Elo", ylim=(-0.6, len(names) - 0.4))
    return fig


FIGURES: dict[str, tuple[str, str, Draw]] = {
    "results": ("Who wins", ("Wins per colour (per team in teams), draws, wins of the side that moved first, and "
                "each player's score; bars are 95% Wilson intervals."), results),
    "scores": ("Scores", "Final scores per colour (R18) and the margin red − white, in 10-point bins.", scores),
    "length": ("Game length and end", ("Moves per game (draws and passes count) and the end: last stone (R16) "
               "or blockade (R17)."), length),
    "heroes": ("Heroes", ("How many heroes each colour used, and at which move numbers each seat played them "
               "(R12)."), heroes),
    "board": ("The board", ("For each square, the share of decided games in which it held the winner's stone, "
              "the loser's, and the difference: where games are decided."), board),
    "tournament": ("Tournament", ("Each pairing's score for its first-named side with a 95% Wilson interval, and "
                   "each side's Bradley–Terry Elo with a 95% interval from the fit's Fisher information."),
                   tournament),
}


def drawn(t: dict[str, Any]) -> Iterator[tuple[str, str, str, Figure]]:
    """(name, title, caption, figure) of each figure this tally has data for; counts read 12,000."""
    for name, (title, caption, draw) in FIGURES.items():
        if t["games"] and (name != "tournament" or t["tournament"]):
            fig = draw(t)
            for ax in fig.axes:
                if ax.get_ylabel() in ("games", "hero moves"):
                    ax.yaxis.set_major_formatter(lambda v, _: f"{v:,.0f}")
            yield name, title, caption, fig
