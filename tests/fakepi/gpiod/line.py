"""The fake binding's line enums."""
import enum


class Value(enum.Enum):
    INACTIVE = 0
    ACTIVE = 1


class Direction(enum.Enum):
    AS_IS = 0
    INPUT = 1
    OUTPUT = 2


class Bias(enum.Enum):
    AS_IS = 0
    DISABLED = 1
    PULL_UP = 2
    PULL_DOWN = 3
