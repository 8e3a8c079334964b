"""Bots that misbehave on purpose, for the referee's tests.

    python -m tests.bots.misbehaving crash      # dies when asked for its first decision
    python -m tests.bots.misbehaving spawn      # starts a grandchild process, then plays
    python -m tests.bots.misbehaving exit       # exits at once
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

from bots.random_bot import RandomBot
from sdk.run import run


class CrashingBot(RandomBot):
    def __init__(self) -> None:
        super().__init__(0)
        self.decisions = 0

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        self.decisions += 1
        if self.decisions >= 1:
            os._exit(3)
        return super().act(observation, legal_actions)


def main(mode: str) -> None:
    if mode == "crash":
        run(CrashingBot)
    elif mode == "spawn":
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        pid_file = os.environ.get("GRANDCHILD_PID_FILE")
        if pid_file:
            with open(pid_file, "w") as out:
                out.write(str(child.pid))
        run(RandomBot)
    elif mode == "exit":
        sys.exit(0)
    else:
        raise SystemExit(f"unknown mode {mode!r}")


if __name__ == "__main__":
    main(sys.argv[1])
