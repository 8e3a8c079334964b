"""A random bot that notes every answer, for the notes tests: ``<b>decision N</b> of M
offered`` (markup, which a viewer must show as text) on its odd decisions of a match, and on
its even ones a note of 20,000 bytes (the SDK sends 16 KB of it; the arena keeps its first
256 bytes and counts the rest as cut).

    python -m tests.bots.noter
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bots.random_bot import RandomBot

LONG = "é" * 10_000  # 20,000 bytes of UTF-8: two bytes a character


class Noter(RandomBot):
    decisions = 0

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        self.decisions += 1
        self.note(LONG if self.decisions % 2 == 0 else
                  f"<b>decision {self.decisions}</b> of {len(legal_actions)} offered")
        return super().act(observation, legal_actions)


if __name__ == "__main__":
    from sdk.run import run

    run(Noter)
