"""Errors the device layer raises for the user's input or machine, not for bugs."""


class HardwareError(Exception):
    """A device that cannot be opened, or a bad option; the message says what to do."""


class ConfigError(HardwareError):
    """A configuration file that is invalid; the message names the file and the key."""
