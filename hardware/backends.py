"""Choosing the devices, once, at start-up: the Pi backend or the simulated one, never a fallback."""
from typing import Any

from hardware.config import DEFAULTS, Config
from hardware.devices import Devices
from hardware.errors import HardwareError

SIM_OPTIONS = ("snapshot", "frames", "input_script", "led_levels")


def backend_of(config: Config, sim: bool) -> str:
    """The backend's name: "sim" if asked for on the command line, else the config's; an error if neither."""
    if sim:
        return "sim"
    if config.backend is None and config.source == DEFAULTS:
        raise HardwareError('no backend chosen: pass --sim, or --config FILE that sets backend = "pi" or "sim"')
    if config.backend is None:
        raise HardwareError(f'{config.source}: backend: not set; add backend = "pi" or "sim", or pass --sim')
    return config.backend


def open_devices(config: Config, sim: bool = False, **sim_options: Any) -> Devices:
    """The `Devices` of the chosen backend.

    `sim_options` (snapshot, frames, input_script, exit_after_script, view, …) go to
    `hardware.sim.open_sim`; asking for them with the Pi backend is an error.
    """
    backend = backend_of(config, sim)
    if backend == "sim":
        from hardware.sim import open_sim
        return open_sim(config, **sim_options)
    check_sim_options(backend, **sim_options)
    from hardware.pi import open_pi
    return open_pi(config)


def check_sim_options(backend: str, **sim_options: Any) -> None:
    """HardwareError if the simulator's options are asked of another backend."""
    asked = [name for name in SIM_OPTIONS if sim_options.get(name) not in (None, False)]
    if backend != "sim" and asked:
        raise HardwareError(f"--{asked[0].replace('_', '-')} needs the simulated backend (--sim)")
