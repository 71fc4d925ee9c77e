"""What the table is doing: the new-game menu, a game, the game menu, or a game's end; button events are routed here.

The session holds no devices and no clock: the loop hands it events and the time. Every
button acts when it goes down; how long it is held changes nothing. MENU opens the game
menu during a game (and closes it again); the game menu's NEW GAME opens the new-game
menu. A game that a new one replaces before its end is put in `retired`, for the loop to
archive before anything is saved over it. The people at the seats may be named (`name`)
before a game: each game's record carries the names of the seats a person plays. Every
game deals anew: whatever starts it, its seed differs from the game's before it (the seed
asked for, `--seed`, deals the first game only).

A demonstration is the computer against itself: a press of a seat during it offers the
new-game menu (never just WAIT). One the table deals of its own accord (`--mode demo`,
`[exhibit] start = "demo"`) deals the next game after each end; one a visitor starts from the
menu ends like any other game.

Left alone (`[exhibit]`, `firmware_py.table.exhibit`; a table without that section never is), the
table draws visitors in: on the menu or a game's end nobody pressed for `attract_after`, it
plays the computer against itself (`Screen.ATTRACT`, a transient game, with how to play between
games) until any press wakes it to the menu; a visitor's game without a press for `walk_away`
warns for `warning` seconds (any press cancels it and does nothing else), then is put in
`retired` (archived `unfinished`) and the table goes to attract mode; the new-game menu offers it
back (RESUME, `walked`) until another game has a move. Outside the opening hours (the time of
day `tick` is given; None while the time is not known) it sleeps (`Screen.ASLEEP`, dark) once
nobody has pressed for `sleep_after`; a press wakes it. The staff's way in (`firmware_py.table.staff`:
a combination or a key switch, on the table's own buttons only) opens the staff menu.
"""
import datetime
import random
from dataclasses import dataclass, replace
from enum import StrEnum

from engine.moves import Move
from engine.position import Position
from firmware_py.table import howto
from firmware_py.table.exhibit import NO_EXHIBIT, Exhibit
from firmware_py.table.game import Game, Mode, Request, Setup, Table
from firmware_py.table.game_menu import AGREE_SECONDS, IDLE_SECONDS, INFO_SECONDS, GameMenu, Info, Pending, readout, \
    undo_question
from firmware_py.table.menu import Menu, Refusal
from firmware_py.table.messages import say
from firmware_py.table.reading import window
from firmware_py.table.settings import Settings
from firmware_py.table.staff import Access, StaffMenu, next_light
from hardware.events import PRESS, RELEASE, ButtonEvent, Origin
from hardware.layout import VIEW_TURNS, default_sides
from hardware.names import MENU_BUTTON, STAFF_KEY

OVER_GUARD_SECONDS = 1.5      # presses right after the last move do not leave the end screen
DEMO_PAUSE_SECONDS = 20.0     # a demonstration deals the next game after showing the end
ATTRACT_END_SECONDS = 12.0    # an attract game's end is shown this long before how to play, or the next game


class Screen(StrEnum):
    """What the table shows: the new-game menu, a game, the game menu over a game, a game's end; left alone,
    attract mode; the staff menu; asleep (dark) outside the opening hours."""

    MENU = "menu"
    PLAY = "play"
    OPTIONS = "options"
    OVER = "over"
    ATTRACT = "attract"
    STAFF = "staff"
    ASLEEP = "asleep"


def deal(setup: Setup) -> Position:
    """The starting position of `setup`: the deal of `roseking new --seed`, whose later reshuffles
    (R11) draw from `Random(seed)`, so that a saved game replays to the very same piles."""
    pos = Position.new(setup.variant, seed=setup.seed)
    pos.rng = random.Random(setup.seed)
    return pos


@dataclass(frozen=True)
class Notice:
    """Something the table says once on every seat's displays (`text`, in its language, from `since` to
    `until`), and keeps saying in the caption while this game is on (`caption`, English for the operator):
    RESUMED, a save set aside."""
    text: str
    caption: str
    since: float
    until: float


class Session:
    """The table's state: `screen` (menu, play, options, over), the `game`, the menus.

    `views` gives, per seat, how far the board is turned as that seat sees it (`hardware.layout`);
    by default the seats sit as `default_sides` says. `exhibit` is how it behaves left alone; with
    `staff_key` the staff's key switch is the way into the staff menu, else the combination.
    """

    def __init__(self, settings: Settings, seats: tuple[str, ...], setup: Setup,
                 views: dict[str, int] | None = None, exhibit: Exhibit = NO_EXHIBIT, staff_key: bool = False) -> None:
        self.settings, self.seats, self.exhibit = settings, seats, exhibit
        self.views = views if views is not None else {
            seat: VIEW_TURNS[side] for seat, side in zip(seats, default_sides(len(seats)))}
        self.seat_index = {name: i for i, name in enumerate(seats)}
        self.table = Table(seats, settings.cards_per_seat)
        self.menu = Menu(setup, self.table, settings.scroll_speed, settings.language)
        self.options = GameMenu(settings.cards_per_seat, settings.hint, settings.takeback)
        self.game: Game | None = None
        self.screen: Screen = Screen.MENU
        self.games = 0
        self.notice: Notice | None = None
        self.retired: list[Game] = []
        self.names: dict[str, str] = {}
        """Who sits at each seat (seat → name), for the games to come; a seat left out is not named."""
        self.touched = 0.0
        """When a button was last pressed, or the table last began something of its own accord."""
        self.back = Screen.MENU
        """The screen the staff menu or a wake from sleep goes back to."""
        self.access = Access(seats, staff_key)
        self.staff = StaffMenu()
        self.dealt: int | None = None
        """The seed of the last game dealt or resumed (None before the first): the next deals anew."""
        self.walked: Game | None = None
        """The last game walked away from, which the new-game menu offers back until another game has a move."""
        self.light = 1.0
        """The brightness the staff or the operator chose (0–1 of the configured); the schedule scales it."""
        self.shutdown_asked = False
        """The staff menu's SHUT DOWN was confirmed: the loop runs the shutdown command (and clears this)."""

    def start(self, setup: Setup, now: float, resumed: Game | None = None, transient: bool = False,
              chosen: bool = False) -> Game:
        """Deal and show a new game of `setup` (or show the `resumed` one, its end from now if it is
        over); the game it replaces, if it is not over and has a move, goes to `retired`. A `transient`
        game (attract mode's) is never saved nor archived, and leaves the menu's choices as they are; a
        `chosen` one was started from the new-game menu. A deal never repeats the game's before it: a
        `setup` of the same seed deals from the next."""
        self._retire()
        self.games += 1
        if resumed is None and setup.seed == self.dealt:
            setup = replace(setup, seed=setup.seed + 1)
        game = resumed or Game(setup, deal(setup), number=self.games, settings=self.settings)
        game.number, game.transient, game.chosen, self.touched = self.games, transient, chosen, now
        self.dealt = game.setup.seed
        if resumed is self.walked:
            self.walked = None
        if resumed is not None:
            self.names = dict(resumed.names)
        else:
            game.names = self._people(game)
        if game.over:
            game.ended = now
        self.game, self.screen, self.notice = game, Screen.ATTRACT if transient else Screen.PLAY, None
        if not transient:
            self.menu.setup = setup
        return game

    def _retire(self) -> None:
        """The game on the table leaves it: to `retired` (the archive) if it is a visitor's, not over, with a move."""
        old = self.game
        if old is not None and not old.over and old.pos.stack and not old.transient:
            self.retired.append(old)

    def naming_refused(self) -> str | None:
        """Why the seats cannot be named now, or None: once a game has its first move its names are
        settled, until the new-game menu or its end."""
        game = self.game
        if game is not None and self.screen is not Screen.MENU and not game.over and game.pos.stack:
            return (f"a game is in progress ({len(game.pos.stack)} moves): name the seats before the next "
                    "game (in the new-game menu, or once this one has ended)")
        return None

    def name(self, names: dict[str, str]) -> str | None:
        """Name the people at the seats (seat → name, checked by `engine.record.check_names`; a seat
        left out is not named) for the games to come, and for the game on the table if it has no move
        yet; None when done, else why not (`naming_refused`). A computer's seat keeps its player's name
        in the record."""
        refused = self.naming_refused()
        if refused is not None:
            return refused
        game = self.game
        self.names = dict(names)
        if game is not None and not game.over and not game.pos.stack and game.names != self._people(game):
            game.names = self._people(game)
            game.changes += 1           # its record changed: the loop saves it
        return None

    def _people(self, game: Game) -> dict[str, str]:
        """The names of the seats a person plays in `game`."""
        seats = game.pos.variant.seats
        return {seat: name for seat, name in self.names.items()
                if seat in seats and not game.is_computer(seats.index(seat))}

    def announce(self, text: str, caption: str, now: float) -> None:
        """Say `text` (`say` it) once on every seat's displays and keep `caption` in the caption until the next
        game."""
        self.notice = Notice(text, caption, now, now + self._window([text]))

    def say(self, key: str, **fields: object) -> str:
        """Message `key` in the table's language (`[table] language`)."""
        return say(key, self.settings.language, **fields)

    def _window(self, texts: list[str], count: int | None = None, at_least: float = 0.0) -> float:
        """How long `texts` are shown on `count` displays (default: a whole panel): `reading.window`."""
        settings = self.settings
        return window(texts, settings.cards_per_seat if count is None else count, settings.scroll_speed, at_least)

    def want(self) -> Request | None:
        """What the computer should think about: nothing unless a game is on screen."""
        return self.game.want() if self.screen in (Screen.PLAY, Screen.ATTRACT) and self.game else None

    def answer(self, request: Request, move_text: str, now: float) -> None:
        """Hand the computer's answer to the game it was asked for."""
        if self.game is not None and request == self.want():
            self.game.answer(request, Move.parse(move_text), now)

    def tick(self, now: float, daytime: datetime.time | None = None) -> None:
        """Timers: shown moves, the end of a game, a game menu left alone, a demonstration's next deal; SHUT
        DOWN held long enough, attract mode, a walk-away, and sleep outside the opening hours at `daytime`
        (the time of day; None: always open)."""
        is_open = daytime is None or self.exhibit.is_open(daytime)
        game = self.game
        if self.walked is not None and game is not None and not game.transient and game.pos.stack:
            self.walked = None                          # another game has a move: the walked-away one stays archived
        if self.screen is Screen.ASLEEP:
            if is_open:                                 # the day begins: back to what it was doing
                self.screen, self.touched = self.back, now
            return
        self._tick_screen(now)
        self._left_alone(now, is_open)

    def _tick_screen(self, now: float) -> None:
        game = self.game
        if self.screen is Screen.STAFF and self.staff.due(now):
            self.shutdown_asked = True
            self.announce(say("shutting-down", self.settings.language), "shutting down", now)
            self.screen = self.back
        confirm = self.staff.confirm
        held = confirm is not None and confirm.let_go is None
        if self.screen is Screen.STAFF and now > self.staff.touched + IDLE_SECONDS and not held:
            self.screen = self.back
        if game is None:
            return
        if self.screen is Screen.ATTRACT:
            game.tick(now)
            end = self.howto_since()
            if end is not None and now >= end + self.howto_length():
                self.attract(now)
        elif self.screen is Screen.PLAY:
            game.tick(now)
            if game.over:
                self.screen, self.notice = Screen.OVER, None    # what was said of this game (RESUMED) is over too
        elif self.screen is Screen.OPTIONS and now > self._options_end():
            self.screen = Screen.PLAY
        elif self.screen is Screen.OVER and game.setup.mode is Mode.DEMO and not game.chosen \
                and now >= (game.ended or 0) + DEMO_PAUSE_SECONDS:
            s = game.setup
            self.start(Setup(s.mode, s.level, s.human, self._next_seed()), now)

    # --- left alone --------------------------------------------------------------

    def visitors_game(self) -> Game | None:
        """The game a visitor plays and has left unfinished (on any screen), else None: no attract game, no
        demonstration the table deals of its own accord (one a visitor chose is his)."""
        game = self.game
        if game is None or game.over or game.transient or (game.setup.mode is Mode.DEMO and not game.chosen):
            return None
        return game

    def warning_left(self, now: float) -> float | None:
        """Seconds left of the walk-away warning at `now`, or None when it is not showing."""
        walk_away = self.exhibit.walk_away
        if not walk_away or self.screen in (Screen.STAFF, Screen.ASLEEP) or self.visitors_game() is None:
            return None
        since = self.touched + walk_away
        return since + self.exhibit.warning - now if since <= now < since + self.exhibit.warning else None

    def _left_alone(self, now: float, is_open: bool) -> None:
        """A visitor's game walked away from is archived; a table nobody presses goes to attract mode, or
        outside the opening hours to sleep."""
        exhibit, game = self.exhibit, self.game
        if self.screen is Screen.STAFF:
            return
        if game is not None and self.visitors_game() is not None:
            if exhibit.walk_away and now >= self.touched + exhibit.walk_away + exhibit.warning:
                self._retire()
                if game.pos.stack:
                    self.walked = game
                self.game = None
                self.idle(now, is_open)
            elif not exhibit.walk_away and not is_open and now >= self.touched + exhibit.sleep_after:
                self.sleep()                # a club's game waits, saved, for the morning
            return
        ended = game.ended if game is not None and self.screen is Screen.OVER else None
        quiet = self.touched if ended is None else max(self.touched, ended)     # a game's end waits from its end
        if not is_open and now >= quiet + exhibit.sleep_after:
            self.sleep()
        elif is_open and self.screen in (Screen.MENU, Screen.OVER) and exhibit.attract_after \
                and now >= quiet + exhibit.attract_after:
            self.attract(now)

    def idle(self, now: float, is_open: bool = True) -> None:
        """What the table does with nothing on it: attract mode (or the menu, with `attract_after = 0`); asleep
        when it is not `is_open`."""
        if self.exhibit.attract_after:
            self.attract(now)
        else:
            self.open_menu(now)
        if not is_open:
            self.sleep()

    def attract(self, now: float) -> None:
        """Attract mode from `now`: a new game of the computer against itself at `[exhibit] attract_level`,
        transient."""
        self.start(Setup(Mode.DEMO, self.exhibit.attract_level, seed=self._next_seed()), now, transient=True)

    def howto_since(self) -> float | None:
        """When the attract game's end has been shown, and how to play starts (or the next game, without it)."""
        game = self.game
        if self.screen is not Screen.ATTRACT or game is None or game.ended is None:
            return None
        return game.ended + ATTRACT_END_SECONDS

    def howto_steps(self) -> list[tuple[float, float, str]]:
        """How to play, step by step (`firmware_py.table.howto`); none with `[exhibit] how_to_play = false`."""
        if not self.exhibit.how_to_play:
            return []
        settings = self.settings
        return howto.schedule(settings.language, settings.cards_per_seat, settings.scroll_speed)

    def howto_length(self) -> float:
        return howto.length(self.howto_steps())

    def sleep(self) -> None:
        """Dark until a press or the opening hours; an attract game is dropped then."""
        if self.screen is not Screen.ASLEEP:
            self.back, self.screen = self.screen, Screen.ASLEEP

    def _wake(self, now: float) -> None:
        """A press wakes the sleeping table, for one game: to what it was doing, or from attract mode to the menu."""
        self.screen = self.back
        if self.screen is Screen.ATTRACT:
            self.game = None
            self.open_menu(now)
        self.announce(say("after-hours", self.settings.language), "after hours: one game, then sleep", now)

    def open_staff(self, now: float) -> None:
        """The staff menu, over whatever the table was showing (the game itself, when that was the game menu
        the combination's MENU opened)."""
        if self.screen is not Screen.STAFF:
            self.back = Screen.MENU if self.screen in (Screen.ATTRACT, Screen.ASLEEP) else \
                Screen.PLAY if self.screen is Screen.OPTIONS else self.screen
            if self.screen is Screen.ATTRACT:
                self.game = None
                self.open_menu(now)
        self.screen = Screen.STAFF
        self.staff.open(now)

    def _staff_press(self, card: int | None, name: str, now: float) -> None:
        item = self.staff.press(card, name, now)
        if item == "new":
            self._retire()
            self.game = None
            self.open_menu(now)
        elif item == "light":
            self.light = next_light(self.light)

    def _options_end(self) -> float:
        """When the game menu goes back to the game by itself: once the state or the last move has been
        shown its window; else `IDLE_SECONDS` after its last press, but not before a takeback's question
        and its end, or a refusal, have been said."""
        options = self.options
        if options.info is not None:
            return options.info.until
        ends = [options.touched + IDLE_SECONDS]
        if options.pending is not None:
            ends.append(options.pending.until + self._window([self.say("not-agreed")]))
        if options.refusal is not None:
            ends.append(options.refusal.since + self._window([options.refusal.text]))
        return max(ends)

    def event(self, event: ButtonEvent, now: float) -> None:
        """One button event: each button acts when it goes down, whatever follows. A press that wakes the
        table (from sleep, from attract mode) or cancels the walk-away warning does nothing else. The staff's
        way in and everything in the staff menu take the table's own buttons alone, never the network's."""
        panel = event.origin is Origin.PANEL
        if event.name == STAFF_KEY:                 # the key switch: turned, the staff menu; turned back, closed
            if panel and event.kind is PRESS:
                self.open_staff(now)
            elif panel and event.kind is RELEASE and self.screen is Screen.STAFF:
                self.screen = self.back
            return
        if self.access.event(event, now):
            self.open_staff(now)
            return
        if self.screen is Screen.STAFF and panel and event.kind is RELEASE:
            self.staff.release(event.name, now)
        if event.kind != PRESS or (self.screen is Screen.STAFF and not panel):
            return
        warned = self.warning_left(now) is not None
        self.touched = now
        card = int(event.control[4:]) if event.control.startswith("card") else None
        if self.screen is Screen.ASLEEP:
            self._wake(now)
        elif self.screen is Screen.ATTRACT:
            self.game = None
            self.open_menu(now)
        elif warned:
            return
        elif self.screen is Screen.STAFF:
            if event.name == MENU_BUTTON:
                self.screen = self.back
            else:
                self._staff_press(card, event.name, now)
        elif event.name == MENU_BUTTON:
            self._menu_button(now)
        elif self.screen is Screen.MENU:
            if card is not None:
                self._menu_press(card, now)
        elif self.screen is Screen.OVER:
            if self.game and now >= (self.game.ended or 0) + OVER_GUARD_SECONDS:
                self.open_menu(now)
        elif self.screen is Screen.OPTIONS:
            self._option(self.seat_index.get(event.seat or ""), card, now)
        elif self.game is not None:
            seat = self.seat_index.get(event.seat or "")
            if seat is not None and self.game.setup.mode is Mode.DEMO:
                self.open_menu(now)                 # a demonstration: a visitor's press offers the menu
            elif seat is not None and seat < len(self.game.players):
                self.game.press(seat, event.control, now)

    def _menu_press(self, card: int, now: float) -> None:
        """A card of the new-game menu: RESUME brings the game walked away from back, START deals the choice."""
        walked = self.walked
        if walked is not None and card == self.menu.resume_card:
            self.start(walked.setup, now, walked)
            self.announce(self.say("resumed"), f"RESUMED ({len(walked.pos.stack)} moves)", now)
            return
        setup = self.menu.press(card, now)
        if setup is not None:
            self.start(Setup(setup.mode, setup.level, setup.human, self._next_seed()), now, chosen=True)

    def _menu_button(self, now: float) -> None:
        game = self.game
        if self.screen is Screen.PLAY and game is not None:
            self.screen = Screen.OPTIONS
            self.options.open(now)
        elif self.screen is Screen.OPTIONS or (self.screen is Screen.MENU and game is not None and not game.over):
            self.screen = Screen.PLAY          # MENU again: back to the game
        elif self.screen is Screen.OVER:
            self.open_menu(now)

    def _option(self, seat: int | None, card: int | None, now: float) -> None:
        """A press in the game menu: after the state or the last move has been read, any press goes back
        to the game; HERO and DRAW do nothing here."""
        options, game = self.options, self.game
        assert game is not None
        options.touched = now
        if options.info is not None:
            self.screen = Screen.PLAY
            return
        if card is None or seat is None:
            return
        options.refusal = None
        item = options.press(card, now)
        if item in ("score", "last"):
            language = self.settings.language
            lines = tuple(readout(game, language) if item == "score" else
                          [self.say("last", move=game.last_move(language))])
            options.info = Info(item, lines, now, now + self._window(list(lines), at_least=INFO_SECONDS))
        elif item == "hint":
            self.screen = Screen.PLAY
            game.ask_hint(now)
        elif item == "takeback":
            self._takeback(seat, now)
        elif item == "new":
            self.open_menu(now)

    def _takeback(self, seat: int, now: float) -> None:
        """TAKE BACK pressed by `seat`: done once every colour a person plays has agreed (or at once
        when `[table] takeback_agree` is off), then said on every seat ("UNDO 2")."""
        options, game = self.options, self.game
        assert game is not None
        count = game.takeback_count()
        if count == 0:
            options.refusal = Refusal(self.say("nothing-to-undo"), now)
            return
        need = {s & 1 for s in range(len(game.players)) if not game.is_computer(s)} \
            if self.settings.takeback_agree else {seat & 1}
        pending = options.pending
        if pending is None or pending.count != count or pending.left(now) is None:
            until = now + self._window([undo_question(count, False, self.settings.language)],
                                       self.settings.cards_per_seat - 1,
                                       AGREE_SECONDS)       # the question, on every card but TAKE BACK's
            pending = Pending(count, frozenset(), now, until)
        pending = replace(pending, agreed=pending.agreed | {seat & 1})
        if pending.agreed >= need:
            game.takeback(now)
            options.pending = None
            self.screen = Screen.PLAY
        else:
            options.pending = pending

    def open_menu(self, now: float) -> None:
        """The new-game menu, shown from `now`; leaving a game in progress (not a demonstration) asks twice, and
        a game walked away from is offered back."""
        game = self.game
        self.screen, self.touched = Screen.MENU, now
        self.menu.open(game is not None and not game.over and game.setup.mode is not Mode.DEMO, now,
                       self.walked is not None)

    def _next_seed(self) -> int:
        """The next deal's seed: the one asked for, for the table's first game; then one more than the last."""
        return self.menu.setup.seed if self.dealt is None else self.dealt + 1

