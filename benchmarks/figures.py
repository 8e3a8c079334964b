"""The figures a user found wrong, on the user's own reproductions, played for real.

* A Knives round-robin of 4 bots for 5 seats (every match seats one bot twice): a bot's
  matches and win share in the tournament's standings against the global board's (the
  reference: the tournament is the only one in its pool, so they must be equal).
* A Kill round-robin of ``kill-bot`` and four bots that always fault (crash, time out,
  answer illegally, never show up), and a Kill round-robin of ``kill-bot`` and ``random``:
  the faulty bots' win share (reference: none of their matches is a win), the rating
  points written for all-fault matches (reference: none) and where ``random`` stands
  among them on the global board (informative: different tournaments, TrueSkill alone
  decides).

Each row says what the arena prints now, beside what it must print.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.common import Row

ROOT = Path(__file__).resolve().parents[1]
SECTION = "figures"
ALL_FAULT = ("select m.id from match m where m.status = 'finished' and not exists (select 1 "
             "from seat s where s.match_id = m.id and s.fault = '')")
"""The finished matches in which every seat faulted."""


def _arena(db: Path, *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "arena", *args, "--db", str(db)], cwd=ROOT,
                          capture_output=True, text=True, check=False,
                          env={**os.environ, "COLUMNS": "200"})
    if done.returncode != 0:
        raise RuntimeError(f"arena {' '.join(args)}: {done.stderr.strip()[-500:]}")
    return done.stdout


def _json(db: Path, *args: str) -> Any:
    return json.loads(_arena(db, *args, "--json"))


def _knives(folder: Path, repetitions: int) -> list[Row]:
    db = folder / "knives.db"
    for name, module in (("A", "bots.random_bot"), ("B", "bots.random_bot"),
                         ("knives-bot", "bots.knives"), ("random", "bots.random_bot")):
        _arena(db, "bot", "add", name, "--command", f"python -m {module}", "--dir", str(ROOT))
    began = time.perf_counter()
    _arena(db, "tournament", "run", "--game", "knives", "--bot", "A", "--bot", "B", "--bot",
           "knives-bot", "--bot", "random", "-n", str(repetitions), "--seed", "1")
    wall = time.perf_counter() - began
    show = _json(db, "tournament", "show", "1")["tournament"]
    own = {r["bot"]: r for r in show["standings"]}["A@1"]
    board = {r["bot"]: r for r in _json(db, "leaderboard", "--game", "knives")["leaderboard"]}
    pooled = board["A@1"]
    total = show["matches"]["finished"]
    note = f"{total} matches in {wall:.0f} s; every match seats one of the 4 bots twice"
    return [
        Row(SECTION, "knives 4 bots / 5 seats: A's matches in the tournament's standings",
            own["matches"], "matches", "the tournament's matches", total,
            own["matches"] / total, "equal", own["matches"] == total, note),
        Row(SECTION, "knives: A's win share in the tournament's standings",
            100 * own["win_share"], "%", "A's win share on the global board",
            100 * pooled["win_share"], own["win_share"] / pooled["win_share"]
            if pooled["win_share"] else None, "equal", own["win_share"] == pooled["win_share"],
            f"A: {own['wins']} wins of {own['matches']}; board {pooled['wins']} of "
            f"{pooled['matches']}"),
    ]


def _faulty(folder: Path, repetitions: int) -> list[Row]:
    db = folder / "faults.db"
    bots = {"kill-bot": "python -m bots.kill", "random": "python -m bots.random_bot",
            **{f"faulty-{mode}": f"python -m tests.bots.misbehaving {mode}"
               for mode in ("crash", "hang", "illegal", "exit")}}
    for name, command in bots.items():
        _arena(db, "bot", "add", name, "--command", command, "--dir", str(ROOT))
    faulty = [name for name in bots if name.startswith("faulty-")]
    began = time.perf_counter()
    _arena(db, "tournament", "run", "--game", "kill", "--bot", "kill-bot",
           *(arg for name in faulty for arg in ("--bot", name)), "-n", str(repetitions),
           "--move-timeout", "1", "--start-timeout", "2", "--keep-going", "--seed", "3")
    _arena(db, "tournament", "run", "--game", "kill", "--bot", "kill-bot", "--bot", "random",
           "-n", str(repetitions), "--seed", "4")
    wall = time.perf_counter() - began
    board = _json(db, "leaderboard", "--game", "kill")["leaderboard"]
    rows = {r["bot"]: r for r in board}
    shares = [rows[f"{name}@1"]["win_share"] for name in faulty]
    with sqlite3.connect(db) as conn:
        all_fault = [m for (m,) in conn.execute(ALL_FAULT)]
        points = conn.execute(f"select count(*) from rating_history where match_id in "
                              f"({ALL_FAULT})").fetchone()[0]
    place = [r["bot"] for r in board].index("random@1") + 1
    above = sum(1 for r in board[:place - 1] if r["bot"].startswith("faulty-"))
    return [
        Row(SECTION, "kill, 4 always-faulting bots: their best win share", 100 * max(shares),
            "%", "none of their matches is a win", 0.0, None, "0 %", max(shares) == 0.0,
            f"{len(all_fault)} all-fault matches; faults "
            + ", ".join(f"{rows[f'{n}@1']['faults']}/{rows[f'{n}@1']['matches']}"
                        for n in faulty) + f" (faults/matches); {wall:.0f} s for both runs"),
        Row(SECTION, "kill: rating points written for all-fault matches", points, "points",
            "an all-fault match moves no rating", 0.0, None, "0", points == 0),
        Row(SECTION, "kill: random's place on the global board", place, "place",
            note=f"{above} of the 4 faulty bots above it (separate tournaments: each bot met "
                 "only kill-bot, so TrueSkill alone orders them)"),
    ]


def run(quick: bool) -> list[Row]:
    with tempfile.TemporaryDirectory(prefix="arena-figures-") as tmp:
        folder = Path(tmp)
        return _knives(folder, 1 if quick else 2) + _faulty(folder, 1)


if __name__ == "__main__":
    for row in run(quick=True):
        print(row)
