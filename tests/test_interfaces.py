"""The declared interfaces (issue 7): device roles every backend satisfies, imports that load
only what a command needs, value types that refuse misuse, enums that stay strings, the package."""
import ast
import functools
import importlib
import importlib.metadata
import json
import re
import sys
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

import processes

import engine
import engine.players
import hardware
from engine.errors import NotationError
from engine.moves import MOVES, Move
from engine.notation import square_name
from engine.outcomes import Outcome, Winner
from engine.position import Position
from hardware.events import ButtonEvent, ButtonKind, ButtonTiming
from hardware.frame import Frame
from hardware.roles import ButtonSource, CardDisplays, Lights

ROOT = Path(__file__).resolve().parent.parent
TABLE_LIBRARIES = ("gpiozero", "luma", "PIL", "neopixel", "board")


def python(code, *args, check=True):
    """Run `code` in a fresh interpreter at the repository root."""
    return processes.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, check=check)


# --- device roles -------------------------------------------------------------------------

def drive(lights: Lights, displays: CardDisplays, buttons: ButtonSource) -> list[str]:
    """What the table service does with any backend: show a picture, ask for a button, close."""
    board = [(9, 0, 0)] * 81
    lights.show(board)
    displays.show({displays.slots[0]: hardware.glyph("NE2")})
    event = buttons.get(timeout=0)
    buttons.close()
    displays.close()
    lights.close()
    return [type(lights).__name__, type(displays).__name__, repr(event)]


def test_the_simulated_backend_plays_every_role():
    shown = []
    devices = hardware.open_devices(hardware.parse_config({}), sim=True, view=False)
    devices.screen._outputs.append(lambda frame, t: shown.append(frame))
    assert isinstance(devices.lights, Lights)
    assert isinstance(devices.displays, CardDisplays)
    assert isinstance(devices.buttons, ButtonSource)
    assert drive(devices.lights, devices.displays, devices.buttons) == ["SimLights", "SimDisplays", "None"]
    assert shown[1].bitmap("red.card1") == hardware.glyph("NE2")
    assert shown[-1] == hardware.Frame()            # closing blanks the board and the displays, as on a Pi


def test_the_pi_backend_plays_every_role():
    """The Pi backend's own classes, with only the wire replaced (Blinka OS-agnostic, luma noop, mock pins)."""
    import board
    from gpiozero.pins.mock import MockFactory
    from luma.core.interface.serial import noop

    from hardware.buttons import Buttons
    from hardware.lights import NeoPixelLights
    from hardware.matrices import MatrixDisplays

    config = hardware.parse_config({})
    factory = MockFactory()
    lights = NeoPixelLights(config.board, board.NEOPIXEL)
    displays = MatrixDisplays(config.displays, noop())
    buttons = Buttons(config.buttons.pins, ButtonTiming(), factory)
    assert isinstance(lights, Lights) and isinstance(displays, CardDisplays) and isinstance(buttons, ButtonSource)
    assert drive(lights, displays, buttons) == ["NeoPixelLights", "MatrixDisplays", "None"]
    factory.close()


def test_an_object_missing_a_role_method_is_not_that_role():
    class Mute:
        slots = ("red.card1",)

        def close(self):
            pass

    assert not isinstance(Mute(), Lights) and not isinstance(Mute(), CardDisplays)
    assert not isinstance(Mute(), ButtonSource)


# --- imports ------------------------------------------------------------------------------

def test_roseking_legal_imports_no_hardware_library(tmp_path):
    path = tmp_path / "start.json"
    path.write_text(json.dumps(Position.new(seed=1).to_json()))
    code = ("import sys, json\n"
            "from firmware_py.cli import main\n"
            "status = main(['legal', sys.argv[1]])\n"
            f"print(json.dumps([status, sorted({{m.split('.')[0] for m in sys.modules}} & {set(TABLE_LIBRARIES)})]),"
            " file=sys.stderr)\n")
    proc = python(code, str(path))
    assert proc.stdout.split() == [str(m) for m in Position.new(seed=1).legal_moves()]
    assert json.loads(proc.stderr) == [0, []]


BLOCK = """
import importlib.abc, sys
class NoTableLibraries(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in {blocked}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
sys.meta_path.insert(0, NoTableLibraries())
from firmware_py.cli import main
sys.exit(main(sys.argv[1:]))
""".format(blocked=set(TABLE_LIBRARIES))


def test_without_the_table_libraries_the_engine_commands_work_and_the_table_commands_say_why(tmp_path):
    path = tmp_path / "start.json"
    path.write_text(json.dumps(Position.new(seed=2).to_json()))
    assert python(BLOCK, "legal", str(path)).stdout.split() == [str(m) for m in Position.new(seed=2).legal_moves()]
    assert "selftest" in python(BLOCK, "--help").stdout
    proc = python(BLOCK, "selftest", "--sim", check=False)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("error: this command needs the table libraries")
    assert "pip install 'roseking[table]'" in proc.stderr and proc.stderr.count("\n") == 1


def imports_of(path):
    """The modules `path` imports at run time (not those under `if TYPE_CHECKING:`)."""
    tree = ast.parse(path.read_text())
    hidden = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
              and getattr(node.test, "id", None) == "TYPE_CHECKING" for n in ast.walk(node)}
    for node in ast.walk(tree):
        if id(node) in hidden:
            continue
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module
            yield from (f"{node.module}.{a.name}" for a in node.names)


@functools.cache
def module_graph():
    """Module -> the project modules it makes Python import (a module imports its packages too); read once."""
    files = {}
    for package in ("engine", "hardware", "firmware_py"):
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            files[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph = {}
    for name, path in files.items():
        targets = set()
        for imported in imports_of(path):
            parts = imported.split(".")
            targets |= {".".join(parts[:k]) for k in range(1, len(parts) + 1)} & files.keys()
        parent = name.rpartition(".")[0]
        graph[name] = (targets | ({parent} if parent else set())) - {name}
    return graph


def cycles(graph):
    """The strongly connected components with more than one module (Tarjan)."""
    index, low, stack, found, counter = {}, {}, [], [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycles_not_even_through_package_init_files():
    assert cycles(module_graph()) == []
    assert "engine.position" not in module_graph()["engine.serialize"]


def test_the_graph_sees_a_cycle_when_there_is_one():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


ENGINE_LAYERS = (
    "engine",           # the rules, notation and records: everything not below
    "engine.players engine.learn",                 # the players, and the learned evaluation some of them use
    "engine.simulate engine.summary engine.tournament engine.tally engine.learn.train",  # runs of games
    "engine.bench",
)
"""The engine's layers, lowest first: a module imports from its own layer and those below only."""


def layer(module):
    """The index in ENGINE_LAYERS of an engine module: the last layer that names it or a package of it."""
    return max(i for i, names in enumerate(ENGINE_LAYERS)
               if any(module == n or module.startswith(n + ".") for n in names.split()))


def upward_imports(graph):
    """(module, imported) for each engine module that imports one of a higher layer."""
    return sorted((m, t) for m, targets in graph.items() if m.split(".")[0] == "engine"
                  for t in targets if layer(t) > layer(m))


def test_the_engine_imports_only_downwards():
    """The players never import the runs of games that use them, nor the core the players; the benches sit on top."""
    assert upward_imports(module_graph()) == []
    assert [layer(m) for m in ("engine.position", "engine.players.mcts", "engine.tally", "engine.bench.search")] == \
        [0, 1, 2, 3]


def test_the_layer_check_sees_an_upward_import():
    graph = {"engine.players.bench": {"engine.simulate", "engine.position"}, "engine.simulate": {"engine.players"}}
    assert upward_imports(graph) == [("engine.players.bench", "engine.simulate")]


@pytest.mark.parametrize("package", [engine, engine.players, hardware])
def test_every_lazy_name_of_a_package_loads(package):
    assert set(package.__all__) - {"__version__"} == set(package._HOME)
    for name, home in package._HOME.items():
        assert getattr(package, name) is getattr(importlib.import_module(f"{package.__name__}.{home}"), name)
    # what the type checker is shown (the `if TYPE_CHECKING:` imports) is what loads
    tree = ast.parse(Path(package.__file__).read_text())
    shown = {a.name: node.module for block in tree.body if isinstance(block, ast.If)
             for node in block.body if isinstance(node, ast.ImportFrom) for a in node.names}
    assert shown == {name: f"{package.__name__}.{home}" for name, home in package._HOME.items()}
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        package.__getattr__("nothing")


# --- value types --------------------------------------------------------------------------

def test_every_move_repr_round_trips_and_numbers_name_the_same_moves():
    """R9–R14: each of the 50 moves is its notation and its number."""
    for n, move in enumerate(MOVES):
        assert eval(repr(move)) is move
        assert Move(n) is move and Move(str(move)) is move


@given(st.integers(-100, 100) | st.booleans() | st.floats() | st.text(max_size=6) | st.none())
def test_move_takes_exactly_its_numbers_and_its_notation(value):
    """R9–R14: 50 moves; a number names one only if it is an int (not a bool) from 0 to 49."""
    number = type(value) is int and 0 <= value < 50
    try:
        move = Move(value)
    except NotationError:
        assert not number
        if isinstance(value, str):
            with pytest.raises(NotationError):
                Move.parse(value)
    else:
        assert number or (isinstance(value, str) and move is Move.parse(value))
        assert move is MOVES[move] and (move == value or isinstance(value, str))


@pytest.mark.parametrize("bad", [50, 99, -1, True, False, 1.0, None, b"N1", "W4"])
def test_a_move_out_of_range_or_of_the_wrong_type_is_refused(bad):
    with pytest.raises(NotationError):
        Move(bad)


def test_play_refuses_a_bool_rather_than_playing_move_one():
    pos = Position.new(seed=7)
    for bad in (True, False):
        with pytest.raises(NotationError, match="not a move"):
            pos.play(bad)
        with pytest.raises(NotationError):
            pos.why_illegal(bad)
    assert pos.stack == []


def test_position_and_score_say_what_they_are():
    pos = Position.new("teams", seed=3)
    pos.play(pos.legal_moves()[0])
    assert repr(pos) == f"<Position teams: white1 to move, crown {square_name(pos.crown)}, 1 stones, 1 moves made>"
    score = pos.score()
    assert repr(score).startswith("Score(red=Side(score=1, largest=1, stones=1, regions=(")
    assert repr(score).endswith("winner=<Winner.RED: 'red'>, reason=None)")


def test_outcomes_and_winners_are_enums_that_stay_strings():
    """R16, R19: a finished game's reason and winner; JSON and old comparisons see plain text."""
    pos = Position.from_json(Position.new(seed=3).to_json() | {
        "board": ["RRRRRRRRR"] * 5 + ["WWWWWWW.."] + ["........."] * 3})
    score = pos.score()
    assert pos.outcome() is Outcome.LAST_STONE and pos.outcome() == "last-stone"
    assert score.winner is Winner.RED and score.winner == "red"
    assert json.loads(json.dumps(score.to_dict()))["reason"] == "last-stone"


def test_button_kinds_are_an_enum_that_stays_a_string():
    event = ButtonEvent("red", "card3", ButtonKind.PRESS)
    assert event.kind == "press" and str(event) == "red.card3 press"
    assert [k.value for k in ButtonKind] == ["press", "hold", "stuck", "release"]


def test_the_tables_mode_and_screen_are_enums_that_stay_strings():
    """`--mode` takes the mode's text, a save's players give it back, and `Setup` refuses any other."""
    from firmware_py.table.game import Mode, Setup
    from firmware_py.table.session import Screen
    assert [m.value for m in Mode] == ["humans", "vs-computer", "demo", "teams"]
    assert Setup("demo").mode is Mode.DEMO and Setup(Mode.DEMO) == Setup("demo") and f"{Mode.TEAMS}" == "teams"
    assert [s.value for s in Screen] == ["menu", "play", "options", "over", "attract", "staff", "asleep"]
    with pytest.raises(ValueError):
        Setup("solitaire")
    usage = python("import sys; from firmware_py.cli import main; sys.exit(main())", "play", "--mode", "x",
                   check=False)
    assert "(choose from 'humans', 'vs-computer', 'demo', 'teams')" in usage.stderr


def test_frame_takes_any_sequence_of_colours():
    assert Frame([(1, 2, 3)] * 81).board == ((1, 2, 3),) * 81


# --- the package --------------------------------------------------------------------------

def test_the_version_has_one_source():
    assert engine.__version__ == importlib.metadata.version("roseking")
    proc = python("import sys; from firmware_py.cli import main; sys.exit(main())", "--version")
    assert proc.stdout.strip() == f"roseking {engine.__version__}"


def test_the_engine_installs_without_the_table_libraries():
    requires = importlib.metadata.requires("roseking")
    base = [r for r in requires if "extra ==" not in r]
    table = [r for r in requires if 'extra == "table"' in r]
    assert not any(lib in r for r in base for lib in ("gpiozero", "luma", "neopixel", "pillow"))
    assert sorted(re.split(r"[<>=;, ]", r)[0] for r in table) == ["Adafruit-Blinka", "adafruit-circuitpython-neopixel",
                                                                  "gpiozero", "luma.led_matrix", "pillow"]
    assert importlib.metadata.metadata("roseking")["License-Expression"] == "MIT"
