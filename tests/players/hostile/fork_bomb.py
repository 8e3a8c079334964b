"""Attack 9: fork until refused.

    python -m tests.players.hostile.fork_bomb --marker TEXT [--attempts 3000] [--keep 8]

Forks up to ``--attempts`` times, each child sleeping (with the bot's command line,
marker included), until the kernel refuses; reports how many it got. Then kills all
but ``--keep`` of them (so that it has room left for gRPC's threads) and plays: the
test then looks for any process with the marker once the tournament is over.
"""

from __future__ import annotations

import os
import signal
import time

from .common import error, parse, parser, play, report


def main() -> None:
    cli = parser(__doc__ or "")
    cli.add_argument("--attempts", type=int, default=3000)
    cli.add_argument("--keep", type=int, default=8)
    args = parse(cli)
    children: list[int] = []
    ended = f"no refusal in {args.attempts} forks"
    began = time.monotonic()
    for _ in range(args.attempts):
        try:
            pid = os.fork()
        except OSError as err:
            ended = error(err)
            break
        if pid == 0:
            try:
                time.sleep(600)
            finally:
                os._exit(0)
        children.append(pid)
    report("fork_bomb", forked=len(children), ended=ended,
           seconds=round(time.monotonic() - began, 2), kept=min(args.keep, len(children)))
    for pid in children[args.keep:]:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    play()


if __name__ == "__main__":
    main()
