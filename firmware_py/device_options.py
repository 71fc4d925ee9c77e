"""Command-line options shared by the commands that open devices (selftest, and the service later)."""
import argparse
import contextlib
import os
import signal
from collections.abc import Callable, Iterator, Sequence

from firmware_py.atomic import _sigterm_unwinds, atomic_writer, check_output, check_output_directory, \
    output_directory, write_file
from firmware_py.errors import UsageError
from firmware_py.inputs import input_name, read_text
from hardware import Config, open_devices, parse_config, read_config
from hardware.backends import backend_of, check_sim_options
from hardware.devices import Devices
from hardware.script import Step, parse_script


def add_device_arguments(parser: argparse.ArgumentParser) -> None:
    """`--config`, `--sim` and the simulator's `--snapshot`, `--frames`, `--input-script`, `--exit-after-script`."""
    parser.add_argument("--config", metavar="FILE", help="hardware configuration (TOML); default: built-in defaults")
    parser.add_argument("--sim", action="store_true", help="use the simulated backend whatever the config says")
    sim = parser.add_argument_group("simulator")
    sim.add_argument("--snapshot", metavar="DIR", help="write a PNG of every shown frame into DIR (made if missing)")
    sim.add_argument("--frames", metavar="PATH", help="write every shown frame to PATH as JSON Lines")
    sim.add_argument("--input-script", metavar="FILE", help="press buttons as FILE says (e.g. 'red.card3 press')")
    sim.add_argument("--exit-after-script", action="store_true", help="end the program when the script ends")
    sim.add_argument("--led-levels", action="store_true",
                     help="draw the board as the LEDs light it (after gamma, brightness cap and supply limit)")


def load_config(path: str) -> Config:
    """The validated configuration in the TOML file at `path`, read with the input limits."""
    return read_config(read_text(path), input_name(path))


def config_from_args(args: argparse.Namespace) -> Config:
    """The validated configuration named by `--config`, or the defaults."""
    return load_config(args.config) if args.config is not None else parse_config({})


def _saver(folder: str) -> Callable[[str, bytes], None]:
    def save(name: str, png: bytes) -> None:
        write_file(os.path.join(folder, name), png)
    return save


def check_device_args(args: argparse.Namespace, config: Config) -> list[Step] | None:
    """Every device option checked before anything is opened, written or changed: the steps of
    `--input-script` (None without one); an error naming the option that cannot be honoured."""
    if args.exit_after_script and args.input_script is None:
        raise UsageError("--exit-after-script needs --input-script FILE")
    check_sim_options(backend_of(config, args.sim), snapshot=args.snapshot, frames=args.frames,
                      input_script=args.input_script, led_levels=args.led_levels)
    if args.frames is not None:
        check_output(args.frames)
    if args.snapshot is not None:
        check_output_directory(args.snapshot)
    if args.input_script is None:
        return None
    return parse_script(read_text(args.input_script), list(config.buttons.pins), input_name(args.input_script))


@contextlib.contextmanager
def open_from_args(args: argparse.Namespace, config: Config | None = None, exit_after_script: bool | None = None,
                   steps: list[Step] | None = None, staff: Sequence[Step] = ()) -> Iterator[Devices]:
    """The devices the options ask for, with their output files; closed (and the files
    put in place) when the block ends. `steps` is what `check_device_args` gave, when it has
    been called; `staff`, the staff's combination the simulator's `S` key plays. While it runs, SIGTERM
    and SIGHUP end the program as Ctrl-C does, through this block (LEDs and displays blanked, pins
    released, the terminal given back), status 143 and 129."""
    config = config or config_from_args(args)
    exit_after = args.exit_after_script if exit_after_script is None else exit_after_script
    if steps is None:
        steps = check_device_args(args, config)
    frames, snapshot = args.frames, args.snapshot
    with contextlib.ExitStack() as stack:
        stack.enter_context(_sigterm_unwinds(signal.SIGTERM, signal.SIGHUP))
        if backend_of(config, args.sim) == "sim":  # else open_devices refuses the simulator's options
            if frames is not None:
                frames = stack.enter_context(atomic_writer(frames))
            if snapshot is not None:
                snapshot = _saver(output_directory(snapshot))
        devices = stack.enter_context(open_devices(config, sim=args.sim, snapshot=snapshot, frames=frames,
                                                   input_script=steps, exit_after_script=exit_after,
                                                   led_levels=args.led_levels, staff=staff))
        yield devices
