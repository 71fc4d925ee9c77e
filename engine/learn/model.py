"""The learned evaluation: a linear model of the features for each stage of the game.

A position's value for `colour` is, in points of final margin (R18), the bias and the
weighted features of its stage (`features.phase`), rounded to a whole point so that the
search's values stay integers. The weights are a small JSON file (`weights.json`, shipped
in the package and loaded once):

    {"format": 1, "features": [...NAMES], "phases": [18, 36],
     "weights": [[bias, w1, …], [...], [...]], "trained": {how they were made}}

>>> model = shipped()
>>> from engine.position import Position
>>> isinstance(model(Position.new(seed=1), 0), int)
True
"""
from __future__ import annotations

import functools
import json
import math
import operator
from collections.abc import Sequence
from importlib import resources
from typing import Any, Final

from engine.errors import RoseKingError
from engine.learn.features import NAMES, PHASES, Features, phase
from engine.position import Position

FORMAT: Final = 1
CLASSICAL: Final = [[0.0, 1.0, 30.0] + [0.0] * (len(NAMES) - 2)] * (len(PHASES) + 1)
"""Today's evaluation in these terms: the score difference plus 30 points a hero, at every stage."""


class Model:
    """A linear evaluation, called as the search calls one: `model(pos, colour)` -> whole points."""

    def __init__(self, weights: Sequence[Sequence[float]], trained: dict[str, Any] | None = None) -> None:
        if len(weights) != len(PHASES) + 1 or any(len(w) != len(NAMES) + 1 for w in weights):
            raise RoseKingError(f"weights: expected {len(PHASES) + 1} rows of {len(NAMES) + 1} numbers")
        if not all(isinstance(x, (int, float)) and math.isfinite(x) for w in weights for x in w):
            raise RoseKingError("weights: every weight must be a finite number")
        self.weights = [[float(x) for x in w] for w in weights]
        self.trained = dict(trained or {})
        self.features = Features()
        self._rows = [(w[0], tuple(w[1:])) for w in self.weights]

    def value(self, pos: Position, colour: int) -> float:
        """The model's estimate of `colour`'s final margin from `pos`."""
        bias, w = self._rows[phase(pos.stones)]
        return sum(map(operator.mul, w, self.features(pos, colour)), bias)

    def __call__(self, pos: Position, colour: int) -> int:
        """`value` rounded to a whole point: the Negamax evaluation hook."""
        return round(self.value(pos, colour))

    def to_json(self) -> dict[str, Any]:
        """The weights file's content."""
        return {"format": FORMAT, "features": list(NAMES), "phases": list(PHASES),
                "weights": [[round(x, 6) for x in w] for w in self.weights], "trained": self.trained}

    @classmethod
    def from_json(cls, obj: object) -> Model:
        """The model a weights file holds; RoseKingError when it is not one of this version's."""
        if not isinstance(obj, dict) or obj.get("format") != FORMAT:
            raise RoseKingError(f"weights: not a weights file of format {FORMAT}")
        if obj.get("features") != list(NAMES) or obj.get("phases") != list(PHASES):
            raise RoseKingError("weights: made for other features or stages than this engine's")
        weights, trained = obj.get("weights"), obj.get("trained", {})
        if not isinstance(weights, list) or not all(isinstance(w, list) for w in weights):
            raise RoseKingError("weights: `weights` must be a list of rows")
        return cls(weights, trained if isinstance(trained, dict) else {})


@functools.cache
def shipped() -> Model:
    """The model in the package's weights.json, loaded once per process."""
    text = resources.files("engine.learn").joinpath("weights.json").read_text(encoding="utf-8")
    return Model.from_json(json.loads(text))


def shipped_evaluation() -> Model:
    """A fresh model with the shipped weights (its own memory of figures), for one player."""
    model = shipped()
    return Model(model.weights, model.trained)
