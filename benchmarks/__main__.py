"""Run the benchmarks, print the table, write it as JSON.

    python -m benchmarks [--quick] [--json PATH] [--only SECTION ...] [--ratings-matches N]
                         [--sandbox-pairs N]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

from benchmarks import (
    archives,
    builds,
    cluster,
    contained,
    datasets,
    doors,
    engine,
    feeds,
    figures,
    graphs,
    ladder,
    lanes,
    loop,
    memory,
    ratings,
    rl,
    scrimmages,
    search,
    sockets,
    submit,
    tournament,
    transport,
    web,
)
from benchmarks.common import Row

SECTIONS: dict[str, Callable[[bool], list[Row]]] = {
    "engine": engine.run,          # (1)
    "referee": transport.run,      # (2) and (3): one server, the same bot processes
    "tournament": tournament.run,  # (4)
    "ratings": ratings.run,        # (5)
    "memory": memory.run,          # (6)
    "sandbox": contained.run,      # (7) the tournament with and without the sandbox, in pairs
    "bot-start": contained.run_bot_start,  # (7) one bot's start, each way, and its pieces
    "socket": sockets.run,         # (8) the referee over a Unix socket against TCP
    "ladder": ladder.run,          # (11) the ladder's matches per minute against a round-robin
    "scrimmages": scrimmages.run,  # the ladder's matches per minute with a scrimmage beside it
    "submit": submit.run,          # (12) arena bot submit with one small dependency
    "builds": builds.run,          # hostile builds held to their limits; a wheel built offline
    "bot-limits": lanes.run,       # a bot's memory over all its lanes; 12 lanes in the defaults
    "web": web.run,                # the web app's pages over a million matches
    "feeds": feeds.run,            # a tournament on arena serve with 400 live feeds against it
    "loop": loop.run,              # arena serve's loop stall under 20 heavy reads beside a match
    "ray": cluster.run,            # (13) the Ray executor against the local one
    "doors": doors.run,            # descriptors and an operator call under idle connections
    "archives": archives.run,      # refusing a zip of 370,000 entries, against zipfile reading it
    "figures": figures.run,        # a bot seated twice, all-fault matches: the figures shown
    "search": search.run,          # samples, copies and playouts per CPU second; OpenSpiel Hearts
    "rl": rl.run,                  # environment steps per CPU second; RLCard Bridge, PettingZoo
    "dataset": datasets.run,       # arena dataset export: rows per second, peak memory at 100k
    "graphs": graphs.run,          # a match's win-probability graph: CPU s and steps per match
}


def _number(value: float | None) -> str:
    if value is None:
        return ""
    if abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 1:
        return f"{value:.2f}"
    return f"{value:.3f}"


def table(rows: list[Row]) -> str:
    head = ("section", "metric", "value", "unit", "ratio", "vs", "target", "met")
    body = [(r.section, r.metric, _number(r.value), r.unit,
             "" if r.ratio is None else f"{r.ratio:.2f}", r.reference, r.target,
             "" if r.met is None else ("yes" if r.met else "NO")) for r in rows]
    widths = [max(len(str(line[i])) for line in (head, *body)) for i in range(len(head))]
    lines = ["  ".join(str(c).ljust(w) for c, w in zip(line, widths, strict=True))
             for line in (head, *body)]
    lines.insert(1, "  ".join("-" * w for w in widths))
    notes = [f"  [{r.section}] {r.metric}: {r.note}" for r in rows if r.note]
    return "\n".join([*lines, "", "notes:", *notes])


def machine() -> dict[str, object]:
    def version(name: str) -> str:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return "-"

    return {"python": sys.version.split()[0], "platform": platform.platform(),
            "cpus": os.cpu_count(), "load_average_at_start": os.getloadavg(),
            "grpcio": version("grpcio"), "protobuf": version("protobuf"),
            "rlcard": version("rlcard"), "trueskill": version("trueskill"),
            "open-spiel": version("open-spiel")}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes (about 3 minutes)")
    parser.add_argument("--json", type=Path, default=None,
                        help="where to write the results (default: benchmarks/results[-quick].json)")
    parser.add_argument("--only", action="append", choices=list(SECTIONS),
                        help="run only this section (repeatable)")
    parser.add_argument("--ratings-matches", type=int, default=None,
                        help=f"matches for the ratings rebuild (default {ratings.FULL:,}, "
                             f"{ratings.QUICK:,} with --quick)")
    parser.add_argument("--sandbox-pairs", type=int, default=None,
                        help=f"sandboxed/unsandboxed tournament pairs (default {contained.FULL_PAIRS}, "
                             f"{contained.QUICK_PAIRS} with --quick)")
    args = parser.parse_args(argv)
    if args.ratings_matches is not None:
        ratings.MATCHES = args.ratings_matches
    if args.sandbox_pairs is not None:
        contained.PAIRS = args.sandbox_pairs
    started = time.perf_counter()
    info = machine()
    rows: list[Row] = []
    durations: dict[str, float] = {}
    for name in args.only or list(SECTIONS):
        began = time.perf_counter()
        print(f"running {name} ...", file=sys.stderr, flush=True)
        rows += SECTIONS[name](args.quick)
        durations[name] = time.perf_counter() - began
    print(table(rows))
    total = time.perf_counter() - started
    print(f"\n{'quick' if args.quick else 'full'} run, {total:.0f} s; load average at start "
          f"{info['load_average_at_start']}")
    path = args.json or Path(__file__).parent / f"results{'-quick' if args.quick else ''}.json"
    path.write_text(json.dumps({"when": datetime.now(UTC).isoformat(timespec="seconds"),
                                "mode": "quick" if args.quick else "full", "machine": info,
                                "seconds": durations, "rows": [r.as_dict() for r in rows]},
                               indent=2) + "\n")
    print(f"written {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
