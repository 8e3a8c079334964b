"""Attack 3: stop and kill the arena and the other bots.

    python -m tests.players.hostile.signals [--targeted TEXT]

At start-up and again when its first match starts (when the other bots are busy
playing): ``kill(-1, SIGSTOP)``, then ``kill(pid, SIGSTOP)`` for every pid from 1 to
65535 but its own (and its threads'), then the same with SIGKILL. Reports every
signal the kernel accepted, with the target's command line read just before.

``--targeted TEXT`` is for the unsandboxed control run, which must leave the machine
alone: no ``kill(-1)``, no sweep, only SIGKILL to the processes in sight whose command
line holds TEXT and is a random bot's, at start-up and as each of its matches starts.
"""

from __future__ import annotations

import os
import signal

from .common import clipped, cmdline, error, once, parse, parser, play, processes, report

TOP_PID = 65535


def sweep(phase: str, targeted: str) -> None:
    me = os.getpid()
    accepted: list[dict[str, object]] = []
    minus_one: dict[str, str] = {}
    tried = 0
    if targeted:
        victims = {pid: line for pid, line in processes([targeted]).items()
                   if "bots.random_bot" in line}
        for pid, line in victims.items():
            tried += 1
            try:
                os.kill(pid, signal.SIGKILL)
                accepted.append({"pid": pid, "signal": "SIGKILL", "cmdline": clipped(line)})
            except OSError as err:
                minus_one[str(pid)] = error(err)
    else:
        for sig in (signal.SIGSTOP, signal.SIGKILL):
            try:
                os.kill(-1, sig)
                minus_one[sig.name] = "accepted"
            except OSError as err:
                minus_one[sig.name] = error(err)
            for pid in range(1, TOP_PID + 1):
                if pid == me:
                    continue
                line = None
                if os.path.exists(f"/proc/{pid}"):  # (most are not: skip the other checks)
                    if os.path.exists(f"/proc/self/task/{pid}"):
                        continue  # a thread of its own: kill() would stop this very process
                    line = cmdline(pid)
                tried += 1
                try:
                    os.kill(pid, sig)
                except OSError:
                    continue
                accepted.append({"pid": pid, "signal": sig.name, "cmdline": clipped(line or "?")})
    report("signals", phase=phase, kill_minus_one=minus_one, tried=tried, accepted=accepted,
           in_sight=processes([targeted] if targeted else []))


def main() -> None:
    cli = parser(__doc__ or "")
    cli.add_argument("--targeted", default="")
    args = parse(cli)
    sweep("start-up", args.targeted)
    if args.targeted:  # the control: at every match (a match may be over before it acts)
        play(on_match=lambda: sweep("match", args.targeted))
    else:
        play(on_match=once(lambda: sweep("first match", args.targeted)))


if __name__ == "__main__":
    main()
