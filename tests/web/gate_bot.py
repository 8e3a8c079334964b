"""A test bot that plays random legal actions but, at its ``--hold``-th decision of a match,
waits until the file ``--gate`` exists: its match stays running, frozen, for as long as a
test needs (the tests of the live view and of hidden information).

    python -m tests.web.gate_bot --gate PATH --hold N
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sdk import Bot, MatchInfo


class GateBot(Bot):
    def __init__(self, gate: Path, hold: int) -> None:
        self.gate, self.hold = gate, hold
        self.random = random.Random(1)
        self.decisions = 0

    def on_start(self, match: MatchInfo) -> None:
        self.decisions = 0

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        self.decisions += 1
        if self.decisions == self.hold:
            while not self.gate.exists():
                time.sleep(0.05)
        return self.random.choice(list(legal_actions))


if __name__ == "__main__":
    from sdk.run import run

    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--gate", type=Path, required=True)
    parser.add_argument("--hold", type=int, default=5)
    args = parser.parse_known_args()[0]
    run(lambda: GateBot(args.gate, args.hold))
