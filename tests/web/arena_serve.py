"""For the tests of secrecy and caps on a real ``arena serve`` (:mod:`tests.served`): a bot that
holds its match running until the test lets it go.

The gate bot plays random legal actions, but at its ``HOLD``-th decision of a match it waits
until the file ``open-SEAT`` exists in its own folder (the sandbox shows a bot its folder,
read-only, as it is now: a file the test creates there appears inside). In a duplicate deal it
sits in another seat in each rotation, so each rotation is released on its own. Released with
``fail-SEAT`` there too, it then fails with its observation in its message (an ``error`` fault
whose reason names its cards). Made with ``again``, it holds a second time, at that decision,
until ``again-SEAT`` exists: a test sees the match go on between the two holds, however fast
the machine (a match let go to its end may end before a live feed's next look).
"""

from __future__ import annotations

from pathlib import Path

GATE_BOT = '''
import random
import time
from pathlib import Path

from sdk import Bot
from sdk.run import run

HERE = Path(__file__).resolve().parent
HOLD = {hold}
AGAIN = {again}


class Gate(Bot):
    def __init__(self):
        self.random = random.Random(1)
        self.decisions = 0
        self.seat = 0

    def on_start(self, match):
        self.decisions, self.seat = 0, match.seat

    def act(self, observation, legal_actions):
        self.decisions += 1
        if self.decisions == HOLD:
            while not (HERE / f"open-{{self.seat}}").exists():
                time.sleep(0.05)
            if (HERE / f"fail-{{self.seat}}").exists():  # a fault whose reason names its cards
                raise RuntimeError(f"gave up holding {{observation!r}}")
        if self.decisions == AGAIN:
            while not (HERE / f"again-{{self.seat}}").exists():
                time.sleep(0.05)
        return self.random.choice(list(legal_actions))


run(Gate)
'''


def gate_bot(folder: Path, hold: int = 3, again: int | None = None) -> Path:
    """The gate bot's folder (see the module's docstring); ``release(folder, seat)`` lets the
    rotation where it sits in ``seat`` go on (to its second hold, at decision ``again``, if
    given)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "bot.py").write_text(GATE_BOT.format(hold=hold, again=again))
    return folder


def release(folder: Path, seat: int, fail: bool = False, again: bool = False) -> None:
    """Let the gate bot's rotation where it sits in ``seat`` go on from its first hold, failing
    there if ``fail``; ``again``: from its second hold."""
    if fail:
        (folder / f"fail-{seat}").touch()
    (folder / f"{'again' if again else 'open'}-{seat}").touch()


__all__ = ["gate_bot", "release"]
