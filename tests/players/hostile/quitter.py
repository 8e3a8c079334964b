"""Attack 13: stop the whole tournament by dying before it attends.

    python -m tests.players.hostile.quitter

Reports, then kills itself (SIGKILL) at start-up, every time it is started, before it
ever reaches the referee: a bot that is gone before its first match (by a crash, by
using up its own connections, on purpose) must cost its own seats only, as no-shows,
and never stop the other bots' tournament. A bot that does this by accident is the
``connections`` attacker on a busy machine: its children hold every connection its
socket admits before the bot itself has attended.
"""

from __future__ import annotations

import os
import signal

from .common import parse, parser, report

if __name__ == "__main__":
    parse(parser(__doc__ or ""))
    report("quitter", phase="start", pid=os.getpid())
    os.kill(os.getpid(), signal.SIGKILL)
    os._exit(137)  # the init of a PID namespace ignores even SIGKILL from inside: gone all the same
