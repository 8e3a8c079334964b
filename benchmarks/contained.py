"""(7) What the sandbox costs: the tournament with and without it, and one bot's start.

``sandbox``: the 6-bot Kill round-robin of section 4 played in pairs, once with the
sandbox (the default) and once with ``--no-sandbox`` (bots still on Unix sockets of
their own, in cgroups), the order alternating from pair to pair (sandboxed first,
then unsandboxed first, ...). The machine's speed drifts over minutes, so the figure
is the median of the pairs' ratios, not the ratio of two single runs. The same runs
give the bots' start-up share of each tournament's wall time: the executor's start
(servers, sandbox, spawns) until the first lane of every bot attends, the time the first
matches wait, plus every wait of a match for a later lane (those start in the background).

``bot-start``: where a bot's start goes. One bot (``python -m bots.random_bot``, as the
tournament's) is started alone and timed until it attends, in turn in each of four
ways: plain (no launcher, no cgroups, no sandbox), as ``--no-sandbox`` starts it
(launcher and cgroups), as the tournament starts it (launcher, cgroups and bwrap), and
in bwrap alone; then the pieces on their own: cgroup creation and removal, the
sandbox's check and command line, and ``bwrap`` and the launcher each running
``/bin/true``, against ``/bin/true`` spawned directly.
"""

from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from arena.net.bot_service import BotServer, MatchHost
from arena.players import cgroups
from arena.players import sandbox as bwrap
from arena.players.limits import ResourceLimits
from arena.players.process import BotProcess
from arena.wire.tokens import digest
from benchmarks import tournament
from benchmarks.common import Row

FULL_PAIRS = 6  # even: as many pairs with each order
QUICK_PAIRS = 2
PAIRS: int | None = None  # overrides FULL_PAIRS / QUICK_PAIRS (``--sandbox-pairs``)
TARGET_RATIO = 1.10
BOT = "python -m bots.random_bot"


def _spread(values: list[float], fmt: str) -> str:
    return f"{format(min(values), fmt)}-{format(max(values), fmt)}"


def run(quick: bool) -> list[Row]:
    pairs = PAIRS or (QUICK_PAIRS if quick else FULL_PAIRS)
    runs: list[tuple[tournament.Played, tournament.Played]] = []
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as tmp_name:
        tmp = Path(tmp_name)
        for pair in range(pairs):
            order = (True, False) if pair % 2 == 0 else (False, True)
            played = {sandbox: tournament.play(tmp / f"{pair}-{'on' if sandbox else 'off'}", quick,
                                               sandbox=sandbox) for sandbox in order}
            runs.append((played[True], played[False]))
            print(f"  pair {pair + 1}/{pairs}: sandboxed {played[True].wall_s:.2f} s "
                  f"(start {played[True].start_s:.2f} s, {played[True].match_s:.3f} s/match), "
                  f"unsandboxed {played[False].wall_s:.2f} s (start {played[False].start_s:.2f} s, "
                  f"{played[False].match_s:.3f} s/match)", file=sys.stderr, flush=True)
    on = [a for a, _ in runs]
    off = [b for _, b in runs]
    ratios = [a.wall_s / b.wall_s for a, b in runs]
    ratio = statistics.median(ratios)
    wall_on, wall_off = statistics.median(a.wall_s for a in on), statistics.median(b.wall_s for b in off)
    size = "1 round per match (quick)" if quick else "full matches (to 31)"
    faults = sum(p.faults for p in on + off)
    outcomes = {p.decided for p in on + off}
    same = ("every run played the same matches (same scores)" if len(outcomes) == 1 else
            f"the runs' outcomes differ ({len(outcomes)} kinds): not the same matches")
    how = f"{pairs} pairs, order alternating (sandboxed first in pairs 1, 3, ...)"
    share_on = [a.start_share for a in on]
    share_off = [b.start_share for b in off]
    start_on = statistics.median(a.start_s for a in on)
    start_off = statistics.median(b.start_s for b in off)
    spawned_on = statistics.median(a.bot_start_s for a in on) * 1000
    ready_on = statistics.median(a.spawn_to_ready_s for a in on)
    match_on = statistics.median(a.match_s for a in on)
    match_off = statistics.median(b.match_s for b in off)
    after_ratio = statistics.median((a.wall_s - a.start_s) / (b.wall_s - b.start_s) for a, b in runs)
    return [
        Row("7 sandbox", f"6-bot Kill round-robin, {on[0].matches} matches, sandboxed", wall_on, "s",
            "--no-sandbox, same run", wall_off, ratio, f"<= {TARGET_RATIO:.2f}x", ratio <= TARGET_RATIO,
            f"median of {how}; pair ratios {_spread(ratios, '.3f')} "
            f"({', '.join(f'{r:.3f}' for r in ratios)}); walls (s) "
            f"{', '.join(f'{p.wall_s:.2f}' for p in on)}; {size}; {faults} faults in all runs; {same}; "
            f"a match {match_on:.3f} s sandboxed, {match_off:.3f} s not (referee clock, medians); "
            f"wall less the start {after_ratio:.3f}x (median of pairs)"),
        Row("7 sandbox", f"6-bot Kill round-robin, {off[0].matches} matches, --no-sandbox", wall_off, "s",
            note=f"median of the {pairs} unsandboxed runs; walls (s) "
                 f"{', '.join(f'{p.wall_s:.2f}' for p in off)}; bots on their own Unix sockets "
                 "and in cgroups all the same"),
        Row("7 sandbox", "bot start-up, sandboxed (6 bots x lanes, start and lane waits)",
            statistics.median(share_on) * 100, "% of wall", "tournament wall time", wall_on,
            statistics.median(share_on), "< 5%", statistics.median(share_on) < 0.05,
            f"median over the {pairs} sandboxed runs ({_spread([s * 100 for s in share_on], '.1f')}%); "
            f"{start_on:.2f} s (the executor's start: sockets, servers, sandbox, spawns, until the "
            f"first lane of each bot attends), {ready_on:.2f} s of it from the first spawn, then "
            f"{statistics.median(a.lane_wait_s for a in on):.2f} s of matches waiting for the other "
            f"lanes ({on[0].processes} processes in all); runner's bot_start_s {spawned_on:.0f} ms"),
        Row("7 sandbox", "bot start-up, --no-sandbox (6 bots x lanes, start and lane waits)",
            statistics.median(share_off) * 100, "% of wall", "tournament wall time", wall_off,
            statistics.median(share_off), "< 5%", statistics.median(share_off) < 0.05,
            f"median over the {pairs} unsandboxed runs ({_spread([s * 100 for s in share_off], '.1f')}%); "
            f"{start_off:.2f} s; the sandbox adds {start_on - start_off:+.2f} s to the start"),
    ]


# ------------------------------------------------------------------ one bot's start

@dataclass(frozen=True)
class Way:
    """One way of starting a bot."""

    label: str
    sandboxed: bool
    limited: bool  # the launcher, with the default limits, in cgroups where there are


async def _start_once(tmp: Path, number: int, way: Way, sandbox: bwrap.Sandbox,
                      support: cgroups.CgroupSupport) -> tuple[float, float]:
    """(seconds of ensure_running, seconds from spawn until the bot attends) for one start,
    the bot on its own Unix socket and server, as the tournament's executor gives it."""
    host = MatchHost()
    socket = tmp / f"{number}.sock"
    bot = BotProcess(f"bot{number}", BOT, f"unix:{socket}", tmp / "logs",
                     limits=ResourceLimits() if way.limited else None,
                     sandbox=sandbox if way.sandboxed else None,
                     cgroups=support if way.limited else None)
    token_hash = digest(bot.token)
    server = await BotServer.for_bot(host, socket, token_hash)
    host.admit_hash(token_hash)
    try:
        began = time.perf_counter()
        await bot.ensure_running()
        spawned = time.perf_counter() - began
        while not host.attending(token_hash):
            if time.perf_counter() - began > 30 or not bot.alive:
                raise RuntimeError(f"bot ({way.label}) did not attend: see {tmp / 'logs'}")
            await asyncio.sleep(0.001)
        return spawned, time.perf_counter() - began
    finally:
        host.dismiss_hash(token_hash)
        await bot.stop()
        await server.stop(grace=0.2)


def _run_to_exit(argv: list[str]) -> float:
    began = time.perf_counter()
    subprocess.run(argv, check=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    return time.perf_counter() - began


def _median_ms(body: Callable[[], float | None], times: int) -> tuple[float, float, float]:
    """(median, min, max) in ms of ``times`` calls of ``body`` (its own figure, else its wall time)."""
    samples = []
    for _ in range(times):
        began = time.perf_counter()
        got = body()
        samples.append((got if got is not None else time.perf_counter() - began) * 1000)
    return statistics.median(samples), min(samples), max(samples)


async def _bot_start(quick: bool, tmp: Path) -> list[Row]:
    support = cgroups.detect()
    if not bwrap.check().works:
        return [Row("7 sandbox", "one bot's start", 0.0, "ms", note=f"skipped: {bwrap.check().why_not}")]
    sandbox = bwrap.Sandbox(hidden=(tmp,))
    ways = [Way("plain (no launcher, cgroups or sandbox)", False, False),
            Way("--no-sandbox (launcher + cgroups)", False, True),
            Way("sandboxed (launcher + cgroups + bwrap), as run", True, True),
            Way("bwrap alone (no launcher or cgroups)", True, False)]
    rounds = 4 if quick else 12
    spawn: dict[str, list[float]] = {w.label: [] for w in ways}
    ready: dict[str, list[float]] = {w.label: [] for w in ways}
    await _start_once(tmp, 0, ways[0], sandbox, support)  # warm-up: the file cache
    number = 0
    for r in range(rounds):  # every way in each round, the order turning, against drift
        turn = ways[r % len(ways):] + ways[:r % len(ways)]
        for way in (turn if r % 2 == 0 else turn[::-1]):
            number += 1
            s, t = await _start_once(tmp, number, way, sandbox, support)
            spawn[way.label].append(s * 1000)
            ready[way.label].append(t * 1000)
    plain = statistics.median(ready[ways[0].label])
    # paired: each round's start against the same round's plain start
    rows: list[Row] = []
    for way in ways:
        median = statistics.median(ready[way.label])
        extra = [t - p for t, p in zip(ready[way.label], ready[ways[0].label], strict=True)]
        rows.append(Row(
            "7 sandbox", f"one bot start to Attend: {way.label}", median, "ms",
            "plain start" if way is not ways[0] else "", plain if way is not ways[0] else None,
            median / plain if way is not ways[0] else None,
            note=f"median of {rounds} starts ({_spread(ready[way.label], '.0f')} ms); spawning call "
                 f"{statistics.median(spawn[way.label]):.1f} ms"
                 + ("" if way is ways[0] else
                    f"; {statistics.median(extra):+.0f} ms against the same round's plain start "
                    f"(median of {rounds})")))

    times = 5 if quick else 15
    socket = tmp / "component.sock"
    socket.touch()
    folder = Path.cwd()
    true = "/bin/true"
    bwrap_argv = sandbox.command([true], folder, socket, {})
    launcher_argv = ResourceLimits().split(support.controllers)[1].wrap([true])

    def groups() -> None:
        made = cgroups.BotGroups.create(support, "bench", memory_mb=2048, processes=64, cpus=1.0)
        made.remove()

    def check() -> None:
        bwrap.check.cache_clear()
        bwrap.check()

    def paths() -> None:
        bwrap.Sandbox(hidden=(tmp,))

    def command() -> None:
        sandbox.command([true], folder, socket, {})

    direct = _median_ms(lambda: _run_to_exit([true]), times)
    parts = [
        ("cgroups: create with limits, remove", groups if support.controllers else None,
         f"{support.label}, {', '.join(support.controllers) or 'none'}"),
        ("sandbox check (bwrap --version + a trial), once per run", check, "cached per process"),
        ("Sandbox(): the runtime's paths, once per run", paths, ""),
        ("Sandbox.command(): the bwrap command line, per start", command,
         f"{len(bwrap_argv)} arguments"),
        ("bwrap running /bin/true, to its exit", lambda: _run_to_exit(bwrap_argv),
         f"/bin/true alone {direct[0]:.1f} ms"),
        ("launcher (python -I -S launcher.py) running /bin/true, to its exit",
         lambda: _run_to_exit(launcher_argv), f"/bin/true alone {direct[0]:.1f} ms"),
    ]
    for label, body, note in parts:
        if body is None:
            continue
        median, low, high = _median_ms(body, times)
        rows.append(Row("7 sandbox", f"piece: {label}", median, "ms",
                        note=f"median of {times} ({low:.1f}-{high:.1f} ms)" + (f"; {note}" if note else "")))
    return rows


def run_bot_start(quick: bool) -> list[Row]:
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as tmp:
        return asyncio.run(_bot_start(quick, Path(tmp)))


if __name__ == "__main__":
    for row in run_bot_start(quick=True):
        print(row)
