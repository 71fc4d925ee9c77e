"""Helpers for the engine tests: hand-made positions through the JSON format (NOTATION.md),
and rule-level reference computations written from RULES.md, independent of the engine's tables.
"""
import json

from engine.position import Position

FILES = "abcdefghi"
DIRS = {  # R2: (file step, rank step), written out from RULES.md
    "N": (0, 1), "NE": (1, 1), "E": (1, 0), "SE": (1, -1),
    "S": (0, -1), "SW": (-1, -1), "W": (-1, 0), "NW": (-1, 1),
}
ALL_CARDS = [d + str(n) for d in DIRS for n in (1, 2, 3)]  # R3
SEATS = {"classic": ("red", "white"), "teams": ("red1", "white1", "red2", "white2")}
HAND_LIMIT = {"classic": 5, "teams": 3}
HEROES = {"classic": 4, "teams": 2}


def colour_of(seat):
    return "red" if seat.startswith("red") else "white"


def sq(name):
    """(file 0–8, rank 0–8) of a square name."""
    return FILES.index(name[0]), int(name[1:]) - 1


def name(f, r):
    return FILES[f] + str(r + 1)


def target(crown, card):
    """R10: crown + distance × direction, or None when off the board — computed by hand."""
    f, r = sq(crown)
    df, dr = DIRS[card[:-1]]
    n = int(card[-1])
    f, r = f + df * n, r + dr * n
    return name(f, r) if 0 <= f < 9 and 0 <= r < 9 else None


def board_rows(stones=(), rows=None):
    """9 strings, rank 9 first. `stones` maps square name -> 'R'/'W' (or is a list of pairs)."""
    grid = [list(row) for row in rows] if rows else [["."] * 9 for _ in range(9)]
    items = stones.items() if isinstance(stones, dict) else stones
    for square, colour in items:
        f, r = sq(square)
        grid[8 - r][f] = colour
    return ["".join(row) for row in grid]


def position_json(variant="classic", stones=(), rows=None, crown="e5", to_move=None, hands=None,
                  heroes=None, draw_pile=None, discard=()):
    """A NOTATION.md position. Cards in no hand and not discarded go to the draw pile in
    R3 order (N1 on top) unless `draw_pile` is given; `draw_pile=False` leaves it out."""
    seats = SEATS[variant]
    hands = {s: list((hands or {}).get(s, [])) for s in seats}
    heroes = {s: (heroes or {}).get(s, HEROES[variant]) for s in seats}
    used = {c for h in hands.values() for c in h} | set(discard)
    obj = {
        "format": "roseking-position/1",
        "variant": variant,
        "board": board_rows(stones, rows),
        "crown": crown,
        "to_move": to_move or seats[0],
        "hands": hands,
        "heroes": heroes,
        "discard": list(discard),
    }
    if draw_pile is None:
        obj["draw_pile"] = [c for c in ALL_CARDS if c not in used]
    elif draw_pile is not False:
        obj["draw_pile"] = list(draw_pile)
    return obj


def make(variant="classic", seed=0, reshuffle="lazy", **kw):
    """A Position built through Position.from_json from `position_json(**kw)`."""
    return Position.from_json(position_json(variant, **kw), seed=seed, reshuffle=reshuffle)


def moves_of(pos):
    return sorted(str(m) for m in pos.legal_moves())


def stone_at(pos, square):
    """'R', 'W' or '.' at a square, read from the position's JSON board."""
    f, r = sq(square)
    return pos.to_json()["board"][8 - r][f]


def snapshot(pos):
    """Everything that defines a position, as plain data (JSON incl. pile, heroes, to_move)."""
    return json.dumps(pos.to_json(), sort_keys=True)


def naive_regions(rows, colour):
    """R18 from scratch: maximal edge-connected sets of `colour` ('R'/'W') on 9 JSON rows."""
    cells = {(f, 8 - i) for i, row in enumerate(rows) for f, ch in enumerate(row) if ch == colour}
    seen, out = set(), []
    for start in sorted(cells):
        if start in seen:
            continue
        region, todo = set(), [start]
        seen.add(start)
        while todo:
            f, r = todo.pop()
            region.add((f, r))
            for nf, nr in ((f + 1, r), (f - 1, r), (f, r + 1), (f, r - 1)):
                if (nf, nr) in cells and (nf, nr) not in seen:
                    seen.add((nf, nr))
                    todo.append((nf, nr))
        out.append(region)
    return out


def naive_figures(rows, colour):
    """(score, largest, stones) of R18/R19 from scratch."""
    regs = naive_regions(rows, colour)
    sizes = [len(r) for r in regs]
    return sum(n * n for n in sizes), max(sizes, default=0), sum(sizes)


def naive_winner(rows):
    """R19 from scratch: compare score, then largest region, then stones; else a draw."""
    red, white = naive_figures(rows, "R"), naive_figures(rows, "W")
    for a, b in zip(red, white):
        if a != b:
            return "red" if a > b else "white"
    return "draw"


def naive_actions(obj, seat):
    """R9–R13 from scratch on a position's JSON: the actions `seat` could take."""
    variant = obj["variant"]
    mine = colour_of(seat)[0].upper()
    out = []
    for card in obj["hands"][seat]:
        t = target(obj["crown"], card)
        if t is None:
            continue  # R10, R13: off the board
        f, r = sq(t)
        here = obj["board"][8 - r][f]
        if here == ".":
            out.append(card)  # R10
        elif here != mine and obj["heroes"][seat] > 0:
            out.append("H+" + card)  # R12
    if len(obj["hands"][seat]) < HAND_LIMIT[variant]:
        out.append("draw")  # R11
    return out


def naive_legal(obj):
    """R14, R16, R17 (and R22) from scratch: the legal moves of the seat to move."""
    stones = sum(ch != "." for row in obj["board"] for ch in row)
    if stones >= 52:
        return []  # R16
    seat = obj["to_move"]
    own = naive_actions(obj, seat)
    if own:
        return sorted(own)
    if any(naive_actions(obj, s) for s in SEATS[obj["variant"]] if s != seat):
        return ["pass"]  # R14, R22
    return []  # R17
