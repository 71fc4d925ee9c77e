"""What the table is doing: the menu, a game, or a game's end; button events are routed here.

The session holds no devices and no clock: the loop hands it events and the time.
"""
import random

from engine.moves import Move
from engine.position import Position
from firmware_py.table.game import Game, Note, Request, Setup
from firmware_py.table.menu import Menu
from firmware_py.table.settings import Settings
from hardware.buttons import ButtonEvent

MENU, PLAY, OVER = "menu", "play", "over"
OVER_GUARD_SECONDS = 1.5      # presses right after the last move do not leave the end screen
DEMO_PAUSE_SECONDS = 20.0     # a demonstration deals the next game after showing the end


def deal(setup: Setup) -> Position:
    """The starting position of `setup`: the deal of `roseking new --seed`, whose later reshuffles
    (R11) draw from `Random(seed)`, so that a saved game replays to the very same piles."""
    pos = Position.new(setup.variant, seed=setup.seed)
    pos.rng = random.Random(setup.seed)
    return pos


class Session:
    """The table's state: `screen` (menu, play, over), the `game`, the `menu`."""

    def __init__(self, settings: Settings, seats: tuple[str, ...], setup: Setup) -> None:
        self.settings, self.seats = settings, seats
        self.seat_index = {name: i for i, name in enumerate(seats)}
        self.menu = Menu(setup, len(seats), settings.cards_per_seat)
        self.game: Game | None = None
        self.screen = MENU
        self.games = 0

    def start(self, setup: Setup, now: float, resumed: Game | None = None) -> Game:
        """Deal and show a new game of `setup` (or show the `resumed` one)."""
        self.games += 1
        game = resumed or Game(setup, deal(setup), number=self.games, settings=self.settings)
        game.number = self.games
        self.game, self.screen = game, PLAY
        self.menu.setup = setup
        return game

    def want(self) -> Request | None:
        """What the computer should think about: nothing unless a game is on screen."""
        return self.game.want() if self.screen == PLAY and self.game else None

    def answer(self, request: Request, move_text: str, now: float) -> None:
        """Hand the computer's answer to the game it was asked for."""
        if self.game is not None and request == self.want():
            self.game.answer(request, Move.parse(move_text), now)

    def tick(self, now: float) -> None:
        """Timers: shown moves, the end of a game, a demonstration's next deal."""
        game = self.game
        if game is None:
            return
        if self.screen == PLAY:
            game.tick(now)
            if game.over:
                self.screen = OVER
        elif self.screen == OVER and game.setup.mode == "demo" and now >= (game.ended or 0) + DEMO_PAUSE_SECONDS:
            s = game.setup
            self.start(Setup(s.mode, s.level, s.human, s.seed + 1), now)

    def event(self, event: ButtonEvent, now: float) -> None:
        """One button event."""
        if event.control == "menu":
            self._menu_button(event.kind, now)
        elif self.screen == MENU:
            if event.kind == "press" and event.control.startswith("card"):
                setup = self.menu.press(int(event.control[4:]), now)
                if setup is not None:
                    self.start(Setup(setup.mode, setup.level, setup.human, self._next_seed()), now)
        elif self.screen == OVER:
            if event.kind == "press" and self.game and now >= (self.game.ended or 0) + OVER_GUARD_SECONDS:
                self.open_menu()
        elif self.game is not None:
            seat = self.seat_index.get(event.seat or "")
            if seat is not None and seat < len(self.game.players):
                self.game.press(seat, event.control, event.kind, now)

    def _menu_button(self, kind: str, now: float) -> None:
        if kind == "hold":
            self.open_menu()
        elif kind == "press" and self.screen == MENU and self.game is not None and not self.game.over:
            self.screen = PLAY          # a short press leaves the menu for the game
        elif kind == "press" and self.screen == PLAY and self.game is not None:
            self.game.note = Note(self.game.pos.to_move, "HOLD MENU", now)

    def open_menu(self) -> None:
        self.screen = MENU
        self.menu.open(in_progress=self.game is not None and not self.game.over)

    def _next_seed(self) -> int:
        return self.game.setup.seed + 1 if self.game is not None else self.menu.setup.seed
