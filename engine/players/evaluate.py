"""Evaluations shared by the players: results (R19) and the classical score margin (R18).

Values are seen from one colour (0 red, 1 white); in the teams variant a colour's
heroes are its two seats' heroes together (R21, R22).
"""
from engine.scoring import figures

HERO_VALUE = 6  # points an unused hero is worth to the classical evaluation
WIN = 1000  # a decided game outweighs any margin


def result(bits, colour):
    """1, 0.5 or 0: whether `colour` wins, draws or loses the finished board (R19)."""
    mine, theirs = figures(bits[colour]), figures(bits[1 - colour])
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


def heroes(pos, colour):
    """Unused heroes of every seat of `colour` (R5, R21)."""
    return sum(pos.heroes[colour::2])


def margin(pos, colour):
    """Score difference plus HERO_VALUE per unused hero difference, for `colour`."""
    mine, theirs = figures(pos.bits[colour])[0], figures(pos.bits[1 - colour])[0]
    return mine - theirs + HERO_VALUE * (heroes(pos, colour) - heroes(pos, 1 - colour))


def final(pos, colour):
    """The value of a finished game for `colour`: ±(WIN + score difference), 0 for a draw (R19)."""
    mine, theirs = figures(pos.bits[colour]), figures(pos.bits[1 - colour])
    if mine == theirs:
        return 0
    diff = mine[0] - theirs[0]
    return WIN + diff if mine > theirs else -WIN + diff
