"""Scenes: pure functions from the session and the time to the `Frame` the table shows.

The board is drawn as seen from the south (rank 9 at the top). Stones are red and white;
the crown is gold, and on a stone it alternates gold with the stone's colour so it is
never taken for one. Whose turn it is shows by intensity: every seat's displays but the
mover's are dimmed (`Frame.dimmed`), each dot still lit, so that every hand stays legible
from every seat (R7: hands are open). A card is drawn turned as its seat sees the board
(`Session.views`), so that on the table its arrow points the card's board direction for
every seat (R2); text reads upright for each seat, each text starts at its first
letter when it appears (`firmware_py.table.reading`), and every text is said in the table's
language (`[table] language`, `firmware_py.table.messages`); the caption is English, for the
operator.
"""
import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from types import MappingProxyType

from engine.notation import CARD_NAMES, STEPS, TARGET
from engine.position import Position
from engine.scoring import squares
from firmware_py.table import howto
from firmware_py.table.faults import FAULT_MESSAGES
from firmware_py.table.game import NO_SECONDS, TRAVEL_SHARE, Game
from firmware_py.table.game_menu import undo_question
from firmware_py.table.menu import Menu
from firmware_py.table.messages import Language, Phrase, say
from firmware_py.table.reading import lasts, pages, text
from firmware_py.table.session import Screen, Session
from firmware_py.table.staff import HOLD_SECONDS
from hardware.frame import BLANK, RGB, Bitmap, Frame, turn
from hardware.glyphs import glyph, hero, number

RED, WHITE, CROWN, NO = (255, 0, 0), (170, 170, 170), (255, 150, 0), (160, 0, 200)
FAULT: RGB = (0, 60, 255)    # the board's corners when the card displays fail: a colour the game never shows
STONES: dict[int, RGB] = {1: RED, 2: WHITE}
COLOURS = (RED, WHITE)
OFF: RGB = (0, 0, 0)
BLINK = 0.25                 # preview blink half-period
CROWN_PERIOD = 1.0           # gold for the first 0.6 of it, the stone's colour for the rest
JUMP_SECONDS = 2.5           # the last jump's trail stays this long; a hero's flipped stone flashes as long
REGION_STEP = 1.5            # end of game: the least time each step of the regions is shown
FAULT_PERIOD = 15.0          # a fault's text comes back on the displays this often
CORNERS = (0, 8, 72, 80)     # a9, i9, a1, i1 in the frame
NO_FAULTS: Mapping[str, float] = MappingProxyType({})

@lru_cache(maxsize=512)
def card_glyph(card: int, view: int) -> Bitmap:
    """Card `card` drawn for a seat that sees the board turned by `view` degrees: once that seat's
    display is mounted to read upright for it, the arrow points the card's board direction (R2)."""
    return turn(glyph(CARD_NAMES[card]), view)


def dim(colour: RGB, factor: float) -> RGB:
    """`colour` scaled by `factor` (0–1)."""
    return (int(colour[0] * factor), int(colour[1] * factor), int(colour[2] * factor))


def cell(square: int) -> int:
    """The frame index of an engine square (a1 = 0): rank 9 is the frame's first row."""
    return (8 - square // 9) * 9 + square % 9


def on(now: float, since: float, half: float = BLINK) -> bool:
    """True in the first half of each blink period counted from `since`."""
    return int((now - since) / half) % 2 == 0


def path(origin: int, target: int) -> list[int]:
    """The squares from `origin` towards `target` along a card's line, `origin` first, `target` last."""
    df, dr = (target % 9 > origin % 9) - (target % 9 < origin % 9), (target // 9 > origin // 9) - (
        target // 9 < origin // 9)
    assert (df, dr) in STEPS
    out = [origin]
    while out[-1] != target:
        out.append(out[-1] + dr * 9 + df)
    return out


# --- text on the displays ------------------------------------------------------

def seconds(left: float) -> Bitmap:
    """The whole seconds `left` of a wait, counted down on one display (99 at most)."""
    return number(min(99, math.ceil(left)))


def panel_text(out: dict[str, Bitmap], name: str, cards: Sequence[int], message: str, since: float, now: float,
               speed: float) -> None:
    """Put `message` across the card displays `cards` (0 = card 1) of seat `name`."""
    for k, bitmap in zip(cards, text(message, since, now, len(cards), speed)):
        out[f"{name}.card{k + 1}"] = bitmap


# --- the board ------------------------------------------------------------

def trail(board: list[RGB], game: Game, origin: int, target: int, seat: int, fade: float) -> None:
    """The crown's way from `origin` to `target`, faded to `fade` on the empty squares it crossed."""
    for sq in path(origin, target)[:-1]:
        if not game.pos.board[sq]:
            board[cell(sq)] = dim(COLOURS[seat & 1], fade)


def stones_of(pos: Position) -> list[RGB]:
    """The stones of `pos` on a dark board."""
    board = [OFF] * 81
    for sq, stone in enumerate(pos.board):
        if stone:
            board[cell(sq)] = STONES[stone]
    return board


def board_at(pos: Position) -> list[RGB]:
    """The still picture of a position (a replay's): its stones, and the crown in gold.

    >>> board_at(Position.new(seed=1))[40] == CROWN
    True
    """
    board = stones_of(pos)
    board[cell(pos.crown)] = CROWN
    return board


def board_of(game: Game, now: float) -> list[RGB]:
    """The game board: stones, crown, the last jump (a hero's flipped stone flashing), the preview,
    the computer's move, the 'no'."""
    pos = game.pos
    board = stones_of(pos)
    jump = game.jump
    if jump is not None and now < jump.since + JUMP_SECONDS:
        trail(board, game, jump.origin, jump.target, jump.seat, 0.25 * (1 - (now - jump.since) / JUMP_SECONDS))
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
    if jump is not None and jump.hero and now < jump.since + JUMP_SECONDS and crown == jump.target:
        board[cell(crown)] = COLOURS[jump.seat & 1] if on(now, jump.since) else COLOURS[1 - (jump.seat & 1)]  # R12
    p = game.preview
    if p is not None and p.kind != "no" and p.move is not None and p.move.card is not None:
        target = TARGET[pos.crown * 24 + p.move.card]
        mover = COLOURS[p.seat & 1]
        if p.kind == "play":
            board[cell(target)] = mover if on(now, p.since) else OFF
        else:                      # R12: the opponent's stone would turn
            board[cell(target)] = mover if on(now, p.since) else STONES[pos.board[target]]
    if game.no_since is not None and now < game.no_since + NO_SECONDS:
        for i in range(9):
            board[i * 9 + i] = board[i * 9 + 8 - i] = NO
    return board


def board_last(game: Game, since: float, now: float) -> list[RGB]:
    """The board with the last card move drawn again: its trail, and its target blinking."""
    board = board_of(game, now)
    jump = game.last_jump()
    if jump is not None:
        origin, target, seat = jump
        trail(board, game, origin, target, seat, 0.3)
        if not on(now, since, 0.4):
            board[cell(target)] = OFF
    return board


def end_schedule(game: Game, count: int, speed: float) -> list[tuple[float, float, int, int, str]]:
    """The end's steps: (from, to seconds after the end, colour 0 red / 1 white, regions, text), each colour
    on its own panels at once. A colour's regions of three stones or more come one by one, largest first,
    each with its size squared (`7²=49`, R18); several of one or two stones come together, so many times a
    size squared (`5x1²+2x2²=13`: five of one stone, two of two). `x` always counts regions, `²` always
    squares a size; the sums read the same in every language."""
    score = game.score()
    out = []
    for colour, side in enumerate((score.red, score.white)):
        small = [r for r in side.regions if r.bit_count() <= 2]
        small = small if len(small) > 1 else []
        steps = [(r, f"{n}²={n * n}") for r in side.regions if r not in small for n in [r.bit_count()]]
        if small:
            sizes = [r.bit_count() for r in small]
            parts = [f"{k}x{n}²" if k > 1 else f"{n}²" for n in (1, 2) if (k := sizes.count(n))]
            steps.append((sum(small), "+".join(parts) + f"={sum(n * n for n in sizes)}"))
        t = 0.0
        for bits, message in steps:
            step = max(REGION_STEP, lasts(message, count, speed))
            out.append((t, t + step, colour, bits, message))
            t += step
    return sorted(out)


def summary_at(schedule: Sequence[tuple[float, float, int, int, str]]) -> float:
    """When the end's steps are over and the scores and the winner are shown."""
    return max((step[1] for step in schedule), default=0.0)


def board_over(game: Game, schedule: Sequence[tuple[float, float, int, int, str]], now: float) -> list[RGB]:
    """The end: each colour's regions light up largest first, then empty squares glow in the winner's colour (R19)."""
    since = now - (game.ended or 0)
    board = [OFF] * 81
    for start, _, colour, bits, _ in schedule:
        shade = COLOURS[colour] if since >= start else dim(COLOURS[colour], 0.15)
        for sq in squares(bits):
            board[cell(sq)] = shade
    if since >= summary_at(schedule):
        glow = {"red": (RED,), "white": (WHITE,), "draw": (RED, WHITE)}[game.score().winner]
        for i, lit in enumerate(board):
            if lit == OFF:
                board[i] = dim(glow[i % len(glow)], 0.12)
    return board


RING = tuple(r * 9 + c for r, c in [(0, c) for c in range(9)] + [(r, 8) for r in range(1, 9)]
             + [(8, c) for c in range(7, -1, -1)] + [(r, 0) for r in range(7, 0, -1)])
"""The board's edge, clockwise from its top-left corner (a9), as frame cells."""


def board_menu(now: float) -> list[RGB]:
    """The menu's board: a ring of alternating red and white turning round the gold crown."""
    board = [OFF] * 81
    turn_ = int(now * 4)
    for i, at in enumerate(RING):
        board[at] = dim(COLOURS[((i + turn_) // 4) % 2], 0.5)
    board[40] = CROWN
    return board


def board_warning(board: Sequence[RGB], share: float) -> list[RGB]:
    """The walk-away warning over `board`: the game dimmed, and its edge lit in gold for the `share` of the
    warning's time left, running out clockwise."""
    out = [dim(colour, 0.3) for colour in board]
    for i, at in enumerate(RING):
        out[at] = CROWN if i < math.ceil(share * len(RING)) else OFF
    return out


def board_howto(key: str, t: float) -> list[RGB]:
    """How to play's picture for step `key`, `t` seconds into it: twice over, the move shown (its target
    blinking) and then made. A move (R10): the crown jumps two squares east and a red stone goes there; a hero
    (R12): the same jump onto a white stone, which turns red; a draw (R11): a fifth card joins a hand of four,
    along the bottom edge; regions (R18): three red stones side by side light up together, worth 9."""
    board = [OFF] * 81
    made = t % 4.0 >= 2.0
    crown, target = 40, 42                                   # e5, two squares east: g5
    if key == "howto-score":
        for at in (38, 39, 30):                              # c5, d5, d6: one region of three
            board[at] = RED if on(t, 0.0, 0.5) else dim(RED, 0.4)
        for at in (42, 24):                                  # two white stones apart: 1 + 1
            board[at] = WHITE
        return board
    if key == "howto-draw":
        for at in range(74, 79):                             # five cards along the bottom edge
            board[at] = dim(CROWN, 0.6)
        board[78] = CROWN if made else OFF
        board[crown] = CROWN
        return board
    before = WHITE if key == "howto-hero" else OFF
    for at in (30, 50, 52):                                  # a few stones for the scene: d6, f4, h4
        board[at] = WHITE if at == 30 else RED
    if made:
        board[crown + 1] = dim(RED, 0.25)                    # the crown's way, as a game's last jump shows it
        board[target] = CROWN if on(t, 2.0, 0.6) else RED
    else:
        board[crown] = CROWN
        board[target] = RED if on(t, 0.0) else before
    return board


# --- the displays -----------------------------------------------------------

def displays_of(game: Game, session: Session, now: float) -> dict[str, Bitmap]:
    """Each card on its button (`Game.slots`, turned for its seat), hero counts, previews and notes."""
    pos, seats, cards, speed = game.pos, session.seats, session.settings.cards_per_seat, session.settings.scroll_speed
    out: dict[str, Bitmap] = {}
    shown = game.shown
    limit = pos.variant.hand_limit      # R11, R21: slots beyond it never hold a card
    for seat, name in enumerate(seats[:len(pos.hands)]):
        view, held, mover = session.views.get(name, 0), game.slots[seat], seat == pos.to_move
        for k in range(cards):
            card = held[k] if k < limit else None
            bitmap = card_glyph(card, view) if card is not None else glyph("empty") if k < limit else BLANK
            p = game.preview
            if mover and p is not None and p.slot == k and p.seat == seat and not on(now, p.since):
                bitmap = BLANK
            if mover and shown is not None and card is not None and card == shown.move.card \
                    and not on(now, shown.since, 0.1):
                bitmap = BLANK
            if mover and shown is not None and shown.move.is_draw and None in held and k == held.index(None) \
                    and not on(now, shown.since, 0.1):
                bitmap = BLANK
            out[f"{name}.card{k + 1}"] = bitmap
        out[f"{name}.hero"] = hero(pos.heroes[seat])
    note = game.note
    if note is not None and (note.seat is None or note.seat < len(seats)):
        where = list(range(cards)) if note.slot is None else [note.slot]
        if now < note.since + lasts(note.text, len(where), speed):
            for name in seats[:len(pos.hands)] if note.seat is None else [seats[note.seat]]:
                panel_text(out, name, where, note.text, note.since, now, speed)
    return out


def displays_options(game: Game, session: Session, now: float) -> dict[str, Bitmap]:
    """The game menu: its items with their titles, or the state, or the last move; a takeback waiting
    for the other colour counts down on the TAKE BACK display."""
    options = session.options
    cards, speed, language = session.settings.cards_per_seat, session.settings.scroll_speed, session.settings.language
    out: dict[str, Bitmap] = {}
    seats = session.seats[:len(game.players)]
    info = options.info
    not_agreed = say("not-agreed", language)
    for seat, name in enumerate(seats):
        if info is not None:
            for k, bitmap in enumerate(pages(info.lines, info.since, now, cards, speed)):
                out[f"{name}.card{k + 1}"] = bitmap
            continue
        for k, label in enumerate(options.labels(language)):
            if label:
                panel_text(out, name, [k], label, options.since, now, speed)
        pending = options.pending
        if pending is not None and (left := pending.left(now)) is not None:
            items = options.page_items()
            rest = [k for k in range(cards) if items[k] != "takeback"]
            if "takeback" in items:
                out[f"{name}.card{items.index('takeback') + 1}"] = seconds(left)
            panel_text(out, name, rest, undo_question(pending.count, seat & 1 in pending.agreed, language),
                       pending.since, now, speed)
        elif pending is not None and now < pending.until + lasts(not_agreed, cards, speed):
            panel_text(out, name, list(range(cards)), not_agreed, pending.until, now, speed)
        refusal = options.refusal
        if refusal is not None and now < refusal.since + lasts(refusal.text, cards, speed):
            panel_text(out, name, list(range(cards)), refusal.text, refusal.since, now, speed)
    return out


def displays_over(game: Game, session: Session, schedule: Sequence[tuple[float, float, int, int, str]], now: float
                  ) -> dict[str, Bitmap]:
    """Each colour's regions, with size and points, on its panels; then the reason the game ended (R16,
    R17), the scores and the winner (R19), scrolled on every panel."""
    cards, speed, language = session.settings.cards_per_seat, session.settings.scroll_speed, session.settings.language
    since = now - (game.ended or 0)
    out: dict[str, Bitmap] = {}
    seats = session.seats[:len(game.players)]
    end = summary_at(schedule)
    if since < end:
        score = game.score()
        for seat, name in enumerate(seats):
            step = [s for s in schedule if s[2] == seat % 2 and s[0] <= since < s[1]]
            total = f"{say(('red', 'white')[seat % 2], language)} {(score.red, score.white)[seat % 2].score}"  # done
            said, start = (step[0][4], step[0][0]) if step else (total, 0.0)
            panel_text(out, name, list(range(cards)), said, (game.ended or 0) + start, now, speed)
        return out
    for name in seats:
        panel_text(out, name, list(range(cards)), ending(game, language), (game.ended or 0) + end, now, speed)
    return out


def ending(game: Game, language: Language) -> str:
    """Why the game ended (R16, R17), the scores and the winner (R19), as the displays say it in `language`."""
    return ending_words(game).say(language)


def ending_words(game: Game) -> Phrase:
    """Why the game ended (R16, R17), the scores and the winner (R19), in words."""
    score = game.score()
    red, white = score.red, score.white
    if score.winner == "draw":
        result = Phrase("tie")
    else:
        why = "wins" if red.score != white.score else "wins-larger" if red.largest != white.largest else "wins-stones"
        result = Phrase.of(why, winner=Phrase(score.winner))
    return Phrase.joined(Phrase(f"end-{score.reason or 'last-stone'}"), Phrase.joined(Phrase("red"), red.score),
                         Phrase.joined(Phrase("white"), white.score), result, sep="  ")


def displays_menu(menu: Menu, session: Session, now: float) -> dict[str, Bitmap]:
    """Each card display shows what its button sets, with its title; leaving a game asks again on the
    start display, counting the seconds down; a refusal scrolls over them."""
    cards, speed, language = session.settings.cards_per_seat, session.settings.scroll_speed, session.settings.language
    out: dict[str, Bitmap] = {}
    labels = menu.labels(language)
    leave, not_started = say("leave", language), say("not-started", language)
    left = menu.confirming(now)
    since = menu.confirm_since
    for name in session.seats:
        for k, label in enumerate(labels):
            if label:
                panel_text(out, name, [k], label, menu.since, now, speed)
        if since is not None and left is not None:
            out[f"{name}.card{cards}"] = seconds(left)
            panel_text(out, name, list(range(cards - 1)), leave, since, now, speed)
        elif since is not None and now < (lapsed := since + menu.confirm_seconds) + lasts(not_started, cards, speed):
            panel_text(out, name, list(range(cards)), not_started, lapsed, now, speed)
        if menu.refusal is not None:
            panel_text(out, name, list(range(cards)), menu.refusal.text, menu.refusal.since, now, speed)
    return out


def displays_attract(game: Game, session: Session, now: float) -> dict[str, Bitmap]:
    """Attract mode: the invitation across every seat's card displays, over the game the computer plays
    (its heroes on the hero displays)."""
    cards, speed = session.settings.cards_per_seat, session.settings.scroll_speed
    out = displays_of(game, session, now)
    for name in session.seats:
        panel_text(out, name, list(range(cards)), say("invite", session.settings.language), session.touched, now,
                   speed)
    return out


def attract(game: Game, session: Session, now: float) -> tuple[list[RGB], dict[str, Bitmap]]:
    """Attract mode's board and displays: the game, its end, then how to play, step by step."""
    cards, speed = session.settings.cards_per_seat, session.settings.scroll_speed
    start = session.howto_since()
    step = howto.step_at(session.howto_steps(), now - start) if start is not None and now >= start else None
    if start is not None and step is not None:
        key, since = step
        out: dict[str, Bitmap] = {}
        for name in session.seats:
            panel_text(out, name, list(range(cards)), say(key, session.settings.language), start + since, now, speed)
        return board_howto(key, now - start - since), out
    board = board_over(game, end_schedule(game, cards, speed), now) if game.over else board_of(game, now)
    return board, displays_attract(game, session, now)


def displays_staff(session: Session, now: float) -> dict[str, Bitmap]:
    """The staff menu: NEW GAME, the brightness, SHUT DOWN on cards 1–3, its title on the cards after them; SHUT
    DOWN held down counts its seconds down on its display and says HOLD TO SHUT DOWN on the others; let go too
    soon, it says why nothing happened."""
    staff, language = session.staff, session.settings.language
    cards, speed = session.settings.cards_per_seat, session.settings.scroll_speed
    out: dict[str, Bitmap] = {}
    labels = staff.labels(session.light, language)
    confirm = staff.confirm
    short = say("staff-held-short", language, seconds=f"{HOLD_SECONDS:g}")
    for name in session.seats:
        for k, label in enumerate(labels):
            panel_text(out, name, [k], label, staff.since, now, speed)
        if cards > len(labels):
            panel_text(out, name, list(range(len(labels), cards)), say("staff", language), staff.since, now, speed)
        if confirm is None:
            continue
        left = confirm.left(now)
        if left is not None:
            out[f"{name}.card{len(labels)}"] = seconds(left)
            rest = [k for k in range(cards) if k != len(labels) - 1]
            panel_text(out, name, rest, say("staff-hold", language), confirm.since, now, speed)
        elif confirm.let_go is not None and now < confirm.let_go + lasts(short, cards, speed):
            panel_text(out, name, list(range(cards)), short, confirm.let_go, now, speed)
    return out


def caption(session: Session, now: float) -> str:
    """The terminal's status line: the game's state and its last move, the walk-away warning counting down,
    then a notice that stays (RESUMED, a save set aside) while the game it speaks of is on; in two lines of
    the terminal (`hardware.terminal.caption_lines`), which a long notice may overrun."""
    game = session.game
    if session.screen in (Screen.ATTRACT, Screen.STAFF, Screen.ASLEEP):
        state = {Screen.ATTRACT: "attract mode: the computer plays itself; any button for the menu",
                 Screen.STAFF: f"the staff menu: 1 new game, 2 brightness, 3 shut down (held {HOLD_SECONDS:g} s); "
                               "MENU leaves",
                 Screen.ASLEEP: "asleep outside the opening hours: any button wakes the table"}[session.screen]
    elif session.screen is Screen.MENU or game is None:
        resume = session.menu.resume_card
        state = "the new-game menu" + (f"; card {resume} resumes the game walked away from" if resume else "")
    else:
        pos, score = game.pos, game.score()
        scores = f"red {score.red.score}, white {score.white.score}"
        if session.screen is Screen.OVER:
            state = f"game over: {ending(game, Language.EN).lower()}"
        else:
            heroes = ", ".join(f"{n} {h}" for n, h in zip(pos.variant.seats, pos.heroes))
            made = pos.last_move()
            mover = pos.variant.seats[(pos.to_move - 1) % len(game.players)]
            last = f" · last {mover} {made}" if made is not None else ""
            state = (f"{pos.seat} to move · {scores} · {pos.supply} stones · pile {len(pos.pile)} · heroes {heroes}"
                     + last)
    left = session.warning_left(now)
    if left is not None:
        state = f"STILL PLAYING? archived in {math.ceil(left)} s unless a button is pressed · {state}"
    notice = session.notice
    return f"{state} · {notice.caption}" if notice is not None else state


def frame(session: Session, slots: Sequence[str], now: float, faults: Mapping[str, float] = NO_FAULTS) -> Frame:
    """What the table shows at time `now`, with the parts at `faults` (part → since when; `Faults.down`)
    said on what still works: a fault's text on every seat's displays when it comes and every
    FAULT_PERIOD seconds after, and the board's corners steady in FAULT when the displays fail."""
    game, cards, speed = session.game, session.settings.cards_per_seat, session.settings.scroll_speed
    dimmed: set[str] = set()
    if session.screen is Screen.ASLEEP:
        return Frame(caption=caption(session, now))             # dark: the devices are switched off too (the loop)
    if session.screen is Screen.STAFF:
        board, displays = board_menu(now), displays_staff(session, now)
    elif session.screen is Screen.ATTRACT and game is not None:
        board, displays = attract(game, session, now)
    elif session.screen is Screen.MENU or game is None:
        board, displays = board_menu(now), displays_menu(session.menu, session, now)
    elif session.screen is Screen.OVER:
        schedule = end_schedule(game, cards, speed)
        board, displays = board_over(game, schedule, now), displays_over(game, session, schedule, now)
    elif session.screen is Screen.OPTIONS:
        info = session.options.info
        board = board_last(game, info.since, now) if info is not None and info.kind == "last" else board_of(game, now)
        displays = displays_options(game, session, now)
    else:
        board, displays = board_of(game, now), displays_of(game, session, now)
        mover = session.seats[game.pos.to_move] if game.pos.to_move < len(session.seats) else None
        dimmed = {s for s in slots if s.rpartition(".")[0] in session.seats[:len(game.players)]
                  and s.rpartition(".")[0] != mover}
    left = session.warning_left(now)
    if left is not None:
        board = board_warning(board, left / session.exhibit.warning)
        dimmed = set()
        for name in session.seats:
            displays[f"{name}.card{cards}"] = seconds(left)
            panel_text(displays, name, list(range(cards - 1)), say("walk-away", session.settings.language),
                       session.touched + session.exhibit.walk_away, now, speed)
    notice = session.notice
    if notice is not None and session.screen is not Screen.OVER and now < notice.until:
        for name in session.seats:
            panel_text(displays, name, list(range(cards)), notice.text, notice.since, now, speed)
    for part, since in faults.items():
        key = FAULT_MESSAGES.get(part)
        said = say(key, session.settings.language) if key is not None else ""
        start = since + (now - since) // FAULT_PERIOD * FAULT_PERIOD
        if said and now < start + lasts(said, cards, speed):
            for name in session.seats:
                panel_text(displays, name, list(range(cards)), said, start, now, speed)
    if "displays" in faults:
        for corner in CORNERS:
            board[corner] = FAULT
    return Frame(board, {k: v for k, v in displays.items() if k in slots}, frozenset(dimmed), caption(session, now))
