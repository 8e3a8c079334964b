"""A chaos tournament: good bots mixed with bots that crash, hang, stall, flood, cheat
and answer illegally. Every match must finish, with each misbehaviour recorded as a
fault on its seat, and no bot process may outlive the tournament.

    python -m tests.chaos [--players 3] [--repetitions 2] [--parallel 4] [--db chaos.db]

``tests/tournament/test_chaos.py`` runs a short version.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

from arena.storage.store import Store
from arena.tournament import RunSettings, create_round_robin, run_until_done

GAME = "face-card-kill-card"
GOOD = {"random": "python -m bots.random_bot",
        "heuristic": "python -m bots.face_card_kill_card"}
BAD = {mode: f"python -m tests.bots.misbehaving {mode}"
       for mode in ("crash", "hang", "stall", "flood", "illegal", "forge")}
# The faults each bot may be recorded with. A bot that hangs or stops times out on
# its first decision and never shows up for a later match; any bot may go clean
# through a match in which it is never asked to decide.
ALLOWED = {
    "random": {""}, "heuristic": {""}, "flood": {""}, "forge": {""},
    "crash": {"", "crashed", "disconnected", "no-show"},  # no-show: seated while dead
    "hang": {"", "timeout", "no-show"},
    "stall": {"", "timeout", "no-show"},
    "illegal": {"", "illegal-action"},
}


@dataclass
class ChaosReport:
    matches: int
    finished: int
    faults: dict[str, Counter[str]]
    bad_last: int          # matches where a faulting seat ranked below a clean one
    bad_not_last: int
    flood_log_bytes: int
    wall_s: float


def run_chaos(db: Path, players: int = 2, repetitions: int = 1, parallel: int = 4,
              move_timeout: float = 0.5, start_timeout: float = 1.5) -> ChaosReport:
    store = Store(str(db))
    for name, command in {**GOOD, **BAD}.items():
        store.add_bot(name, command)
    settings = RunSettings(parallel=parallel, move_timeout_s=move_timeout,
                           start_timeout_s=start_timeout)
    tid = create_round_robin(store, GAME, list({**GOOD, **BAD}), players, repetitions, 1, {},
                             settings)
    summary = run_until_done(store, tid, db.parent / "arena-data", settings)
    matches = store.list_matches(tid, 100_000)
    faults: dict[str, Counter[str]] = defaultdict(Counter)
    bad_last = bad_not_last = 0
    for match in matches:
        clean = [s.rank for s in match.seats if not s.fault]
        for seat in match.seats:
            faults[seat.bot.split("@")[0]][seat.fault] += 1
            if seat.fault and clean:
                assert seat.rank is not None
                if seat.rank > max(r for r in clean if r is not None):
                    bad_last += 1
                else:
                    bad_not_last += 1
    log = db.parent / "arena-data" / "logs" / "flood@1.log"
    return ChaosReport(
        matches=store.get_tournament(tid).total, finished=store.get_tournament(tid).finished,
        faults=dict(faults), bad_last=bad_last, bad_not_last=bad_not_last,
        flood_log_bytes=log.stat().st_size if log.exists() else 0, wall_s=summary.wall_s)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--repetitions", type=int, default=2)
    parser.add_argument("--parallel", type=int, default=4)
    parser.add_argument("--db", type=Path, default=None)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="arena-chaos-"))
    db = args.db or folder / "chaos.db"
    if db.exists():
        os.remove(db)
    report = run_chaos(db, args.players, args.repetitions, args.parallel)
    print(f"{report.finished}/{report.matches} matches finished in {report.wall_s:.1f} s "
          f"(database {db})")
    for bot, counts in sorted(report.faults.items()):
        shown = ", ".join(f"{fault or 'clean'}: {n}" for fault, n in counts.most_common())
        print(f"  {bot:10} {shown}")
    print(f"faulting seats ranked below every clean seat: {report.bad_last}, "
          f"otherwise: {report.bad_not_last}; flood log {report.flood_log_bytes} bytes")


if __name__ == "__main__":
    main()
