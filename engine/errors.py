"""Errors the engine raises for bad input; each message names the field or move at fault."""


class RoseKingError(ValueError):
    """Base of every error caused by input rather than by a bug."""


class NotationError(RoseKingError):
    """A square, card or move that is not well formed."""


class PositionError(RoseKingError):
    """A position (JSON) that is invalid; the message names the field, e.g. `hands.red[2]: …`."""


class IllegalMoveError(RoseKingError):
    """A well-formed move that the rules do not allow in this position."""


class RecordError(RoseKingError):
    """A game record that is malformed or does not replay."""


class UnknownPlayerError(RoseKingError):
    """A player name that is not one of the levels (`engine.players.NAMES`)."""
