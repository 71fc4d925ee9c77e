"""Evaluations shared by the players: results (R19) and the classical score margin (R18).

Values are seen from one colour (0 red, 1 white); in the teams variant a colour's
heroes are its two seats' heroes together (R21, R22).
"""
from typing import Final

from engine.position import Position
from engine.scoring import figures

HERO_VALUE: Final = 6  # points an unused hero is worth to the `alphabeta` baseline's evaluation
WIN: Final = 1000  # a decided game outweighs any margin


def result(bits: list[int], colour: int) -> float:
    """1, 0.5 or 0: whether `colour` wins, draws or loses the finished board (R19)."""
    mine, theirs = figures(bits[colour]), figures(bits[1 - colour])
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


def heroes(pos: Position, colour: int) -> int:
    """Unused heroes of every seat of `colour` (R5, R21)."""
    return sum(pos.heroes[colour::2])


def margin(pos: Position, colour: int, hero: int = HERO_VALUE) -> int:
    """Score difference plus `hero` points per unused hero difference, for `colour` (R18).

    >>> pos = Position.new(seed=1)
    >>> pos.push(pos.legal_moves()[0]); margin(pos, 0, hero=30)
    1
    """
    mine, theirs = figures(pos.bits[colour])[0], figures(pos.bits[1 - colour])[0]
    return mine - theirs + hero * (heroes(pos, colour) - heroes(pos, 1 - colour))


def final(pos: Position, colour: int) -> int:
    """The value of a finished game for `colour`: ±(WIN + score difference), 0 for a draw (R19)."""
    mine, theirs = figures(pos.bits[colour]), figures(pos.bits[1 - colour])
    if mine == theirs:
        return 0
    diff = mine[0] - theirs[0]
    return WIN + diff if mine > theirs else -WIN + diff
