"""Command-line options shared by the commands that open devices (selftest, and the service later)."""
import argparse

from hardware import Config, Devices, load_config, open_devices, parse_config


def add_device_arguments(parser: argparse.ArgumentParser) -> None:
    """`--config`, `--sim` and the simulator's `--snapshot`, `--frames`, `--input-script`, `--exit-after-script`."""
    parser.add_argument("--config", metavar="FILE", help="hardware configuration (TOML); default: built-in defaults")
    parser.add_argument("--sim", action="store_true", help="use the simulated backend whatever the config says")
    sim = parser.add_argument_group("simulator")
    sim.add_argument("--snapshot", metavar="DIR", help="write a PNG of every shown frame into DIR")
    sim.add_argument("--frames", metavar="PATH", help="write every shown frame to PATH as JSON Lines")
    sim.add_argument("--input-script", metavar="FILE", help="press buttons as FILE says (e.g. 'red.card3 press')")
    sim.add_argument("--exit-after-script", action="store_true", help="end the program when the script ends")


def config_from_args(args: argparse.Namespace) -> Config:
    """The validated configuration named by `--config`, or the defaults."""
    return load_config(args.config) if args.config else parse_config({})


def open_from_args(args: argparse.Namespace, config: Config | None = None,
                   exit_after_script: bool | None = None) -> Devices:
    """The devices the options ask for."""
    config = config or config_from_args(args)
    return open_devices(config, sim=args.sim, snapshot=args.snapshot, frames=args.frames,
                        input_script=args.input_script,
                        exit_after_script=args.exit_after_script if exit_after_script is None else exit_after_script)
