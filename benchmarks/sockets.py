"""(8) The referee over a Unix socket against the same over TCP.

Section 2's single match (King, four trivial raw-gRPC bot processes, one per seat,
:mod:`benchmarks.trivial_bot`), served four ways at once, each with its own server
and bot processes:

* over TCP on 127.0.0.1, one server for all four bots (section 2's setup): the reference;
* over one Unix socket, one server for all four bots: the transport alone;
* over a Unix socket per bot, a server each (:meth:`BotServer.for_bot`: the bot's token
  only, capped connections and calls), as a tournament serves its managed bots;
* the same with each bot in the sandbox, as ``arena tournament run`` plays.

Every round plays one match each way, the order turning from round to round (and
reversed every other round), so that drift in the machine's speed hits every way
alike; each way's figure is the median of its rounds' ratios to the same round's
TCP match.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
from contextlib import AsyncExitStack
from pathlib import Path

from arena.players import sandbox as bwrap
from benchmarks.common import Row
from benchmarks.transport import Arena, _options

FULL_ROUNDS = 21
QUICK_ROUNDS = 5


async def _run(quick: bool, tmp: Path) -> list[Row]:
    options = _options(quick_game=quick)
    rounds = QUICK_ROUNDS if quick else FULL_ROUNDS
    ways = {
        "tcp": Arena(tmp, label="tcp"),
        "unix": Arena(tmp, address=f"unix:{tmp / 'referee.sock'}", label="unix"),
        "per-bot": Arena(tmp, per_bot=True, label="own"),
    }
    found = bwrap.check()
    if found.works:
        ways["sandboxed"] = Arena(tmp, per_bot=True, sandbox=bwrap.Sandbox(hidden=(tmp,)), label="boxed")
    rates: dict[str, list[float]] = {name: [] for name in ways}
    decisions = 0
    async with AsyncExitStack() as stack:
        for arena in ways.values():
            await stack.enter_async_context(arena)
        for arena in ways.values():  # warm-up: connections, first imports
            await arena.play(1, options, seed=999)
        names = list(ways)
        for r in range(rounds):
            turn = names[r % len(names):] + names[:r % len(names)]
            for name in turn if r % 2 == 0 else turn[::-1]:
                d, t = await ways[name].play(1, options, seed=r)
                rates[name].append(d / t)
                decisions = d
        print(f"  {rounds} rounds: tcp {statistics.median(rates['tcp']):,.0f}, unix "
              f"{statistics.median(rates['unix']):,.0f} decisions/s", file=sys.stderr, flush=True)

    tcp = statistics.median(rates["tcp"])

    def paired(name: str, against: str = "tcp") -> tuple[float, list[float]]:
        ratios = sorted(a / b for a, b in zip(rates[name], rates[against], strict=True))
        return statistics.median(ratios), ratios

    def spread(ratios: list[float]) -> str:
        return f"{ratios[0]:.3f}-{ratios[-1]:.3f}"

    how = f"median of {rounds} paired rounds, one match each way per round, order turning"
    rows = [Row("8 unix socket", "one match over TCP (127.0.0.1), one server", tcp, "decisions/s",
                note=f"{decisions} decisions/match; median of {rounds} matches "
                     f"({min(rates['tcp']):,.0f}-{max(rates['tcp']):,.0f}); the reference")]
    labels = {"unix": "one match over a Unix socket, one server",
              "per-bot": "one match, a Unix socket and server per bot (as a tournament)",
              "sandboxed": "one match, a Unix socket per bot, bots sandboxed (as run)"}
    for name, label in labels.items():
        if name not in rates:
            rows.append(Row("8 unix socket", label, 0.0, "decisions/s", note=f"skipped: {found.why_not}"))
            continue
        ratio, ratios = paired(name)
        note = (f"{how}; pair ratios {spread(ratios)}; its matches "
                f"{min(rates[name]):,.0f}-{max(rates[name]):,.0f}")
        if name == "sandboxed":
            inner, inner_ratios = paired("sandboxed", "per-bot")
            note += (f"; {inner:.3f}x the same unsandboxed (pair ratios {spread(inner_ratios)}): "
                     "what the sandbox itself costs a decision")
        rows.append(Row("8 unix socket", label, statistics.median(rates[name]), "decisions/s",
                        "TCP, same run", tcp, ratio, note=note))
    return rows


def run(quick: bool) -> list[Row]:
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as tmp:
        return asyncio.run(_run(quick, Path(tmp)))


if __name__ == "__main__":
    for row in run(quick=True):
        print(row)
