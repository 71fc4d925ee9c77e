"""`roseking tournament`: every pairing on paired deals; W/D/L, 95% Wilson intervals and Elo."""
import argparse
import contextlib
import json
import math
from typing import Any

from engine import simulate
from engine.players import NAMES
from engine.stats import sprt
from engine.tournament import Standings, pairing, schedule
from engine.variants import VARIANT_NAMES
from firmware_py import executors
from firmware_py.atomic import atomic_writer
from firmware_py.commands import Subparsers
from firmware_py.errors import UsageError
from firmware_py.inputs import shown


def register(sub: Subparsers) -> None:
    p = sub.add_parser("tournament", help="round robin of computer players on paired deals")
    p.add_argument("--players", required=True, metavar="P,P[,…]",
                   help=f"two or more players: {', '.join(NAMES)}, or `name:WORK` with its own budget")
    p.add_argument("--games", type=int, default=100, metavar="N",
                   help="games per pairing, each deal twice with colours swapped (default 100)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="deal k is seeded from (S, k)")
    p.add_argument("--variant", default="classic", choices=VARIANT_NAMES)
    p.add_argument("--json", action="store_true", help="print the table as JSON")
    p.add_argument("--records", metavar="PATH", help="write one game record per line (JSON Lines)")
    p.add_argument("--sprt", metavar="P0,P1",
                   help="two players only: stop once a sequential test (α = β = 5%%) settles whether the "
                        "first scores P1%% rather than P0%%; --games is then the most games to play")
    executors.add_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    players = args.players.split(",")
    if len(set(players)) != len(players) or len(players) < 2:
        raise UsageError(f"--players: name two or more different players, got {args.players!r}")
    if args.games < 2 or args.games % 2:
        raise UsageError(f"--games: must be an even number, at least 2 (each deal is played twice), "
                         f"got {args.games}")
    executors.check(args)
    recording = args.records is not None
    hypotheses = _sprt_option(args.sprt, players) if args.sprt is not None else None
    standings = Standings(players)
    deal_scores: list[float] = []
    test: dict[str, Any] | None = None
    total = len(players) * (len(players) - 1) // 2 * args.games
    done = 0
    with contextlib.ExitStack() as stack:
        out = stack.enter_context(atomic_writer(args.records)) if recording else None  # checked before any game
        bar = stack.enter_context(executors.progress(total))
        workers = stack.enter_context(executors.executor(args))
        pace = simulate.Pace(workers.slots)
        # A sequential test looks after every deal, in deal order, so it stops after the same games
        # whatever the workers; it needs the games themselves, and the tasks in flight are cancelled.
        todo = schedule(args.variant, args.seed, players, args.games, recording, pace, fold=not hypotheses)
        played = simulate.run(todo, workers.executor, pace, workers.watch)
        results = stack.enter_context(contextlib.closing(workers.guard(played)))
        for batch in results:
            if not hypotheses:
                standings.merge(batch.folded)
                if out:
                    out.write(batch.lines)
                done += batch.task.count
                bar.update(batch.task.count)
                continue
            lines = batch.lines.splitlines(keepends=True)
            for k in range(0, batch.task.count, 2):
                deal_scores.append(standings.add(pairing(batch.task), batch.folded[k:k + 2]))
                if out:
                    out.write("".join(lines[k:k + 2]))
                done += 2
                bar.update(2)
                test = _sprt_result(deal_scores, *hypotheses)
                if test["verdict"]:
                    break
            if test and test["verdict"]:
                break
    workers.raise_if_gone(done, total, "game", f"their records are in {shown(args.records)}, each whole"
                          if recording else "no records were asked for")
    table: dict[str, Any] = dict(standings.to_dict())
    if test:
        table["sprt"] = test
    print(json.dumps(table, indent=2) if args.json else text(table))
    return 0


def _sprt_option(value: str, players: list[str]) -> tuple[float, float]:
    """(p0, p1) as fractions from `--sprt P0,P1` in percent; UsageError when malformed."""
    if len(players) != 2:
        raise UsageError(f"--sprt: compares exactly two players, got {len(players)}")
    try:
        p0, p1 = (float(x) for x in value.split(","))
    except ValueError:
        raise UsageError(f"--sprt: expected two percentages P0,P1 such as 50,60, got {value!r}") from None
    if not (math.isfinite(p0) and math.isfinite(p1) and 0 < p0 < p1 < 100):
        raise UsageError(f"--sprt: need 0 < P0 < P1 < 100, got {value!r}")
    return p0 / 100, p1 / 100


def _sprt_result(deal_scores: list[float], p0: float, p1: float) -> dict[str, Any]:
    """The test's state as the JSON `sprt` object."""
    llr, (lower, upper), verdict = sprt(deal_scores, p0, p1)
    return {"h0": p0, "h1": p1, "alpha": 0.05, "beta": 0.05, "llr": round(llr, 3),
            "bounds": [round(lower, 3), round(upper, 3)], "games": 2 * len(deal_scores),
            "verdict": verdict}


def _seconds(value: float | None) -> str:
    return "–" if value is None else f"{value:.3g}"


def text(table: dict[str, Any]) -> str:
    """The standings as an aligned table, then one line per pairing."""
    width = max(len(r["player"]) for r in table["players"]) + 2
    head = (f"{'player':<{width}}{'games':>6}{'W':>6}{'D':>5}{'L':>6}{'score':>8}  {'95% CI':<14}{'Elo':>6}"
            f"{'CPU s/move':>12}")
    lines = [head]
    for r in table["players"]:
        lo, hi = r["ci95"]
        lines.append(f"{r['player']:<{width}}{r['games']:>6}{r['wins']:>6}{r['draws']:>5}{r['losses']:>6}"
                     f"{100 * r['score']:>7.1f}%  {100 * lo:4.1f}–{100 * hi:4.1f}%   {r['elo']:>+5d}"
                     f"{_seconds(r['seconds_per_move']):>12}")
    lines.append("")
    for r in table["pairings"]:
        lo, hi = r["ci95"]
        lines.append(f"{r['player']} vs {r['opponent']}: {r['wins']}-{r['draws']}-{r['losses']} "
                     f"({100 * r['score']:.1f}%, 95% CI {100 * lo:.1f}–{100 * hi:.1f}%)")
    test = table.get("sprt")
    if test:
        first = table["pairings"][0]["player"]
        lo, hi = test["bounds"]
        near = {"H1": (test["h1"], test["h0"]), "H0": (test["h0"], test["h1"])}.get(test["verdict"])
        settled = (f"{test['verdict']} accepted: {first}'s score is nearer {100 * near[0]:g}% than {100 * near[1]:g}%"
                   if near else "not settled within --games")
        lines.append(f"SPRT {100 * test['h0']:g}% vs {100 * test['h1']:g}% (α = β = 5%) after {test['games']} games: "
                     f"LLR {test['llr']:+.2f} in [{lo:+.2f}, {hi:+.2f}]: {settled}")
    return "\n".join(lines)
