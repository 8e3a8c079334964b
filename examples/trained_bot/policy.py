"""The trained bot's policy: a two-layer perceptron from what a seat sees (the numbers of
``sdk.rl``'s environments) to a score for each action of the game's action space; the legal
action with the best score is played. numpy only: the bot that loads it needs nothing else.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

NAMES = ("w1", "b1", "w2", "b2")


class Policy:
    """Weights ``w1`` (inputs, hidden), ``b1`` (hidden), ``w2`` (hidden, actions), ``b2``."""

    def __init__(self, weights: dict[str, np.ndarray]) -> None:
        self.weights = {name: weights[name].astype(np.float32) for name in NAMES}

    @classmethod
    def new(cls, inputs: int, actions: int, hidden: int, rng: np.random.Generator) -> Policy:
        return cls({"w1": rng.standard_normal((inputs, hidden)) * np.sqrt(2 / inputs),
                    "b1": np.zeros(hidden), "w2": rng.standard_normal((hidden, actions)) *
                    np.sqrt(1 / hidden), "b2": np.zeros(actions)})

    @classmethod
    def load(cls, path: Path) -> Policy:
        with np.load(path) as saved:
            return cls({name: saved[name] for name in NAMES})

    def save(self, path: Path) -> None:
        with path.open("wb") as file:
            np.savez_compressed(file, w1=self.weights["w1"], b1=self.weights["b1"],
                                w2=self.weights["w2"], b2=self.weights["b2"])

    @property
    def shape(self) -> tuple[int, int, int]:
        """(inputs, hidden, actions)."""
        inputs, hidden = self.weights["w1"].shape
        return inputs, hidden, self.weights["w2"].shape[1]

    def hidden(self, x: np.ndarray) -> np.ndarray:
        found: np.ndarray = np.maximum(x @ self.weights["w1"] + self.weights["b1"], 0)
        return found

    def probabilities(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Each legal action's probability, row by row (``mask``: the legal ones)."""
        scores = self.hidden(x) @ self.weights["w2"] + self.weights["b2"]
        scores = np.where(mask, scores, -np.inf)
        scores -= scores.max(axis=-1, keepdims=True)
        odds = np.exp(scores)
        found: np.ndarray = odds / odds.sum(axis=-1, keepdims=True)
        return found

    def choose(self, x: np.ndarray, mask: np.ndarray) -> int:
        """The legal action with the best score, for one observation."""
        scores = self.hidden(x) @ self.weights["w2"] + self.weights["b2"]
        return int(np.where(mask, scores, -np.inf).argmax())
