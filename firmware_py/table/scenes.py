"""Scenes: pure functions from the session and the time to the `Frame` the table shows.

The board is drawn as a person sees it from Red's seat (rank 9 at the top). Stones
are red and white; the crown is gold, and on a stone it alternates gold with the
stone's colour so it is never taken for one. The mover's displays are lit fully,
the other seats' at half their dots (a checkerboard), so whose turn it is shows
from across the table.
"""
from collections.abc import Sequence
from functools import lru_cache

from engine.notation import CARD_NAMES, STEPS, TARGET
from engine.scoring import squares
from firmware_py.table.game import NO_SECONDS, TRAVEL_SHARE, Game, Note
from firmware_py.table.menu import Menu
from firmware_py.table.session import MENU, OVER, Session
from hardware.frame import BLANK, RGB, Bitmap, Frame
from hardware.glyphs import glyph, hero, scroll
from hardware.glyphs import scroll_length as _length

RED, WHITE, CROWN, NO = (255, 0, 0), (170, 170, 170), (255, 150, 0), (160, 0, 200)
STONES: dict[int, RGB] = {1: RED, 2: WHITE}
COLOURS = (RED, WHITE)
OFF: RGB = (0, 0, 0)
BLINK = 0.25                 # preview blink half-period
CROWN_PERIOD = 1.0           # gold for the first 0.6 of it, the stone's colour for the rest
JUMP_SECONDS = 1.5           # the last jump's trail stays this long
SCROLL_SPEED = 24.0          # columns per second
REGION_STEP = 0.8            # end of game: one region lit after another; regions of 1–2 stones
SHORT_STEP = 0.2             # go faster
CHECKER = (0xAA, 0x55) * 4

scrolled = lru_cache(maxsize=4096)(scroll)
"""`hardware.glyphs.scroll`, remembered: a scene draws the same few texts at the same offsets again and again."""
scroll_length = lru_cache(maxsize=256)(_length)


def dim(colour: RGB, factor: float) -> RGB:
    """`colour` scaled by `factor` (0–1)."""
    return (int(colour[0] * factor), int(colour[1] * factor), int(colour[2] * factor))


def cell(square: int) -> int:
    """The frame index of an engine square (a1 = 0): rank 9 is the frame's first row."""
    return (8 - square // 9) * 9 + square % 9


def on(now: float, since: float, half: float = BLINK) -> bool:
    """True in the first half of each blink period counted from `since`."""
    return int((now - since) / half) % 2 == 0


def halved(bitmap: Bitmap) -> Bitmap:
    """Every other dot of `bitmap`: the same picture at half its light."""
    return tuple(row & mask for row, mask in zip(bitmap, CHECKER))


def path(origin: int, target: int) -> list[int]:
    """The squares from `origin` towards `target` along a card's line, `origin` first, `target` last."""
    df, dr = (target % 9 > origin % 9) - (target % 9 < origin % 9), (target // 9 > origin // 9) - (
        target // 9 < origin // 9)
    assert (df, dr) in STEPS
    out = [origin]
    while out[-1] != target:
        out.append(out[-1] + dr * 9 + df)
    return out


# --- the board ------------------------------------------------------------

def board_of(game: Game, now: float) -> list[RGB]:
    """The game board: stones, crown, the last jump, the preview, the computer's move, the 'no'."""
    pos = game.pos
    board = [OFF] * 81
    for sq, stone in enumerate(pos.board):
        if stone:
            board[cell(sq)] = STONES[stone]
    jump = game.jump
    if jump is not None and now < jump.since + JUMP_SECONDS:
        fade = 0.25 * (1 - (now - jump.since) / JUMP_SECONDS)
        for sq in path(jump.origin, jump.target)[:-1]:
            if not pos.board[sq]:
                board[cell(sq)] = dim(COLOURS[jump.seat & 1], fade)
    crown = pos.crown
    shown = game.shown
    travel = game.show_seconds * TRAVEL_SHARE
    if shown is not None and shown.move.card is not None and now >= shown.since + game.show_seconds - travel:
        line = path(crown, TARGET[crown * 24 + shown.move.card])
        step = (now - shown.since - game.show_seconds + travel) / travel
        crown = line[min(len(line) - 1, int(step * len(line)))]
    stone = pos.board[crown]
    in_period = (now % CROWN_PERIOD) / CROWN_PERIOD
    board[cell(crown)] = CROWN if not stone or in_period < 0.6 else STONES[stone]
    p = game.preview
    if p is not None and p.kind != "no":
        target = TARGET[pos.crown * 24 + pos.hands[p.seat][p.slot]]
        mover = COLOURS[p.seat & 1]
        if p.kind == "play":
            board[cell(target)] = mover if on(now, p.since) else OFF
        else:                      # R12: the opponent's stone would turn
            board[cell(target)] = mover if on(now, p.since) else STONES[pos.board[target]]
    if game.no_since is not None and now < game.no_since + NO_SECONDS:
        for i in range(9):
            board[i * 9 + i] = board[i * 9 + 8 - i] = NO
    return board


def regions_in_order(game: Game) -> list[tuple[float, int, int]]:
    """The end's schedule: (seconds after the end, colour 0 red / 1 white, region bitboard), largest first (R18).

    A region of one or two stones gets a short step, a larger one a long step.
    """
    score = game.pos.score()
    regions = sorted([(r.bit_count(), 0, r) for r in score.red.regions]
                     + [(r.bit_count(), 1, r) for r in score.white.regions], key=lambda x: (-x[0], x[1]))
    out, t = [], 0.0
    for size, colour, bits in regions:
        out.append((t, colour, bits))
        t += REGION_STEP if size > 2 else SHORT_STEP
    out.append((t, -1, 0))      # the end of the schedule: the scores and the winner
    return out


def board_over(game: Game, now: float) -> list[RGB]:
    """The end: regions light up largest first, then empty squares glow in the winner's colour (R19)."""
    since = now - (game.ended or 0)
    schedule = regions_in_order(game)
    board = [OFF] * 81
    for start, colour, bits in schedule[:-1]:
        shade = COLOURS[colour] if since >= start else dim(COLOURS[colour], 0.15)
        for sq in squares(bits):
            board[cell(sq)] = shade
    if since >= schedule[-1][0]:
        score = game.pos.score()
        glow = {"red": (RED,), "white": (WHITE,), "draw": (RED, WHITE)}[score.winner]
        for i, lit in enumerate(board):
            if lit == OFF:
                board[i] = dim(glow[i % len(glow)], 0.12)
    return board


def board_menu(now: float) -> list[RGB]:
    """The menu's board: a ring of alternating red and white turning round the gold crown."""
    ring = [(0, c) for c in range(9)] + [(r, 8) for r in range(1, 9)] + [(8, c) for c in range(7, -1, -1)] + [
        (r, 0) for r in range(7, 0, -1)]
    board = [OFF] * 81
    turn = int(now * 4)
    for i, (r, c) in enumerate(ring):
        board[r * 9 + c] = dim(COLOURS[((i + turn) // 4) % 2], 0.5)
    board[40] = CROWN
    return board


# --- the displays -----------------------------------------------------------

def text(message: str, since: float, now: float, count: int) -> tuple[Bitmap, ...]:
    """`message` scrolled across `count` displays, starting from the left edge at `since`."""
    return scrolled(message, int((now - since) * SCROLL_SPEED) % scroll_length(message), count)


def note_lasts(note: Note) -> float:
    """Seconds a note stays: one pass of its text, at least one second."""
    return max(1.0, scroll_length(note.text) / SCROLL_SPEED)


def displays_of(game: Game, seats: Sequence[str], slots: Sequence[str], cards: int, now: float
                ) -> dict[str, Bitmap]:
    """Hands (slot k = the k-th card of the hand), hero counts, previews and notes."""
    pos = game.pos
    out: dict[str, Bitmap] = {}
    shown = game.shown
    limit = pos.variant.hand_limit      # R11, R21: slots beyond it never hold a card
    for seat, name in enumerate(seats[:len(pos.hands)]):
        hand = pos.hands[seat]
        mover = seat == pos.to_move
        for k in range(cards):
            bitmap = glyph(CARD_NAMES[hand[k]]) if k < len(hand) else glyph("empty") if k < limit else BLANK
            p = game.preview
            if mover and p is not None and p.slot == k and p.seat == seat and not on(now, p.since):
                bitmap = BLANK
            if mover and shown is not None and shown.move.card is not None and k < len(hand) \
                    and hand[k] == shown.move.card and not on(now, shown.since, 0.1):
                bitmap = BLANK
            if mover and shown is not None and shown.move.is_draw and k == len(hand) and not on(now, shown.since, 0.1):
                bitmap = BLANK
            out[f"{name}.card{k + 1}"] = bitmap if mover else halved(bitmap)
        out[f"{name}.hero"] = hero(pos.heroes[seat]) if mover else halved(hero(pos.heroes[seat]))
    note = game.note
    if note is not None and now < note.since + note_lasts(note) and note.seat < len(seats):
        name = seats[note.seat]
        names = [f"{name}.card{note.slot + 1}"] if note.slot is not None else [
            f"{name}.card{k + 1}" for k in range(cards)]
        for slot_name, bitmap in zip(names, text(note.text, note.since, now, len(names))):
            out[slot_name] = bitmap
    return {k: v for k, v in out.items() if k in slots}


def displays_over(game: Game, seats: Sequence[str], slots: Sequence[str], cards: int, now: float
                  ) -> dict[str, Bitmap]:
    """The size of the region being lit on its colour's displays; then the scores and the winner, scrolled."""
    since = now - (game.ended or 0)
    schedule = regions_in_order(game)
    out: dict[str, Bitmap] = {}
    if since < schedule[-1][0]:
        _, colour, bits = [s for s in schedule if s[0] <= since][-1]
        size = scrolled(str(bits.bit_count()), 0, cards, gap=8 * cards)
        for seat, name in enumerate(seats):
            for k in range(cards):
                out[f"{name}.card{k + 1}"] = size[k] if seat % 2 == colour else BLANK
        return {k: v for k, v in out.items() if k in slots}
    score = game.pos.score()
    winner = "DRAW" if score.winner == "draw" else f"{score.winner.upper()} WINS"
    message = f"RED {score.red.score}  WHITE {score.white.score}  {winner}"
    for name in seats:
        for k, bitmap in enumerate(text(message, (game.ended or 0) + schedule[-1][0], now, cards)):
            out[f"{name}.card{k + 1}"] = bitmap
    return {k: v for k, v in out.items() if k in slots}


def displays_menu(menu: Menu, seats: Sequence[str], slots: Sequence[str], now: float) -> dict[str, Bitmap]:
    """Each card display shows what its button sets; a refusal or 'sure?' scrolls over them."""
    labels = menu.labels()
    out: dict[str, Bitmap] = {}
    for name in seats:
        for k, label in enumerate(labels):
            out[f"{name}.card{k + 1}"] = text(label, 0.0, now, 1)[0] if label else BLANK
        if menu.refusal is not None:
            for k, bitmap in enumerate(text(menu.refusal.text, menu.refusal.since, now, len(labels))):
                out[f"{name}.card{k + 1}"] = bitmap
    return {k: v for k, v in out.items() if k in slots}


def frame(session: Session, slots: Sequence[str], now: float) -> Frame:
    """What the table shows at time `now`."""
    game, seats, cards = session.game, session.seats, session.settings.cards_per_seat
    if session.screen == MENU or game is None:
        return Frame(board_menu(now), displays_menu(session.menu, seats, slots, now))
    if session.screen == OVER:
        return Frame(board_over(game, now), displays_over(game, seats, slots, cards, now))
    return Frame(board_of(game, now), displays_of(game, seats, slots, cards, now))
