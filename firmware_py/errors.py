"""The errors that are the user's, not the program's: reported in one line, status 2."""
from engine.errors import RoseKingError
from hardware.errors import HardwareError


class UsageError(Exception):
    """A bad command line, file or option."""


USER_ERRORS = (UsageError, RoseKingError, HardwareError)
