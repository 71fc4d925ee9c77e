"""The learned evaluation: features of a position (`features`), the model and its shipped weights
(`model`), self-play and fitting (`train`). Standard library only, as the rest of the engine."""
