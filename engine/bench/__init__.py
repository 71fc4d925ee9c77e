"""The engine's speed figures, sections of `roseking bench`: `core` (`engine`: games, move generation,
scoring) and `search` (the players and simulation). The top of the engine: a bench may time any
engine module, and no engine module imports a bench."""
