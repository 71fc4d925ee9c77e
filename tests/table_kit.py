"""A table service on the simulated backend for tests: gpiozero MockFactory pins, one fake clock
that drives the loop, the debounce and every animation, and the frames it showed."""
import datetime
import json

from gpiozero.pins.mock import MockFactory

from engine.moves import DRAW, MOVES
from firmware_py.table.computer import Computer
from firmware_py.table.game import PASS_SECONDS, Game, Setup
from firmware_py.table.exhibit import NO_EXHIBIT
from firmware_py.table.loop import TableLoop, wall_from
from firmware_py.table.saves import CURRENT, Saves
from firmware_py.table.session import Screen, Session
from firmware_py.table.settings import DEFAULT_SETTINGS
from hardware import parse_config
from hardware.buttons import Buttons
from hardware.events import ButtonTiming
from hardware.names import STAFF_KEY
from hardware.sim import SimDevices, SimScreen
from test_hardware_buttons import FakeTime   # one clock for the loop, the debounce and its timers

WINDOW = 0.02
HOLD = 1.0
NOON = datetime.datetime(2024, 5, 1, 12, 0)


class Rig:
    """The service on mock pins: `tap(name)` presses a button as a finger would, `frames` is what was shown."""

    def __init__(self, data_dir, settings=DEFAULT_SETTINGS, seats=("red", "white"), pins=None, slots=None,
                 views=None, exhibit=NO_EXHIBIT, wall=NOON, time_known=None):
        config = parse_config({})
        self.pins = pins or dict(config.buttons.pins)
        self.factory = MockFactory()
        self.time = FakeTime()
        self.buttons = Buttons(self.pins, ButtonTiming(HOLD, WINDOW, 0.0), self.factory, after=self.time.after)
        self.frames = []
        slots = slots or config.displays.chain + tuple(f"{s}.hero" for s in seats)
        screen = SimScreen(slots, [lambda frame, t: self.frames.append(frame)], self.time.clock)
        self.devices = SimDevices(screen, self.buttons, [])
        self.session = Session(settings, seats, Setup(), views, exhibit, staff_key=STAFF_KEY in self.pins)
        self.log = []
        self.saves = Saves(data_dir, log=self.log.append)
        self.computer = Computer(settings.think_seconds)
        self.loop = TableLoop(self.session, self.devices.slots, self.computer, self.saves, [], self.time.clock,
                              devices=self.devices, wall=wall_from(self.time.clock, wall), time_known=time_known)
        """The time of day starts at `wall` (noon by default) and runs with the fake clock, right unless
        `time_known` says otherwise."""

    def start(self, setup, game=None):
        self.session.start(setup, self.time.clock(), game)
        self.loop.step()
        return self.session.game

    def resume(self, game):
        return self.start(game.setup, game)

    @property
    def game(self):
        return self.session.game

    @property
    def frame(self):
        return self.frames[-1]

    def pump(self):
        """Hand every queued button event to the loop."""
        while (event := self.buttons.get(timeout=0)) is not None:
            self.loop.handle(event)

    def tap(self, name):
        """Press and release `name` through its mock pin (down past the debounce window, then up)."""
        pin = self.factory.pin(self.pins[name])
        pin.drive_low()
        self.pump()
        self.wait(2 * WINDOW)
        pin.drive_high()
        self.pump()
        self.wait(2 * WINDOW)

    def hold(self, name, seconds=1.5):
        """A long press through the mock pin: down for `seconds` (the hold event comes after HOLD), then up."""
        pin = self.factory.pin(self.pins[name])
        pin.drive_low()
        self.pump()
        self.wait(seconds)
        pin.drive_high()
        self.pump()
        self.wait(2 * WINDOW)

    def choose(self, label, seat="red"):
        """Open the game menu with MENU and press the card under `label` (turning pages with MORE)."""
        if self.session.screen is not Screen.OPTIONS:
            self.tap("menu")
        for _ in range(3):
            labels = self.session.options.labels(self.session.settings.language)
            if label in labels:
                self.tap(f"{seat}.card{labels.index(label) + 1}")
                return
            self.tap(f"{seat}.card{len(labels)}")
        raise AssertionError(f"no {label} in the game menu")

    def new_game_menu(self, seat="red"):
        """MENU, then NEW GAME: the new-game menu."""
        self.choose(self.session.say("item-new"), seat)

    def wait(self, seconds, step=0.05):
        """Let `seconds` pass on the clock, the loop ticking as it would (every `step`: longer for hours)."""
        end = self.time.now + seconds
        while self.time.now < end:
            self.time.advance(min(step, end - self.time.now))
            self.pump()
            self.loop.step()

    def think(self, timeout=30.0):
        """Wait (really) for the computer's answer and hand it to the loop; False if none was wanted."""
        if self.computer.busy is None:
            return False
        got = self.computer.receive(timeout)
        assert got is not None, "the computer did not answer"
        self.loop.answer(*got)
        return True

    def play(self, move):
        """Press the buttons a person presses to make `move` (legal) for the seat to move."""
        pos = self.game.pos
        seat = self.session.seats[pos.to_move]
        if move == MOVES[DRAW]:
            self.tap(f"{seat}.draw")
        elif move.card is not None:
            slot = self.game.slots[pos.to_move].index(move.card) + 1
            self.tap(f"{seat}.card{slot}")
            if move.is_hero:
                self.tap(f"{seat}.hero")
            else:
                self.tap(f"{seat}.card{slot}")
        else:
            self.wait(PASS_SECONDS + 0.1)      # a forced pass is shown, then made

    def saved(self):
        return json.loads((self.saves.directory / CURRENT).read_text())

    def close(self):
        self.computer.close()
        for pin in self.pins.values():
            self.factory.pin(pin).drive_high()
        self.devices.close()
        self.factory.close()


def game_from(position_json, setup, seed=0):
    """A game that starts from a crafted position (e.g. for a hero or a forced pass)."""
    from engine.position import Position
    start = Position.from_json(position_json, seed=seed)
    return Game(setup, start)

