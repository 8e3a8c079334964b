"""The arena killed at random moments, again and again: nothing is lost, nothing counted twice.

Both bots are deterministic (the heuristic bot by nature, the random bot with
``--seed``), and a tournament is rated in schedule order, so a run that was
killed and resumed many times must end exactly where an uninterrupted run of
the same tournament ends: the same result for every match and the same ratings
to the last bit. The uninterrupted run is another tournament, created alike: its
deals come from the public seed (``--deals-from-seed``, as research runs that must
be reproducible have them), since two tournaments with secret deals deal alike
only by chance.
"""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from arena.storage.store import Store
from tests.helpers import (
    GAME,
    cli,
    eventually,
    finished_matches,
    new_marker,
    processes_with,
    wait_until_gone,
)

KILLS = 4


def _register(db: Path, marker: str = "") -> None:
    """The two bots; ``marker`` on their command lines (they ignore it) finds their processes."""
    cli("bot", "add", "random", "--command", f"python -m bots.random_bot --seed 9 {marker}",
        db=db)
    cli("bot", "add", "heuristic", "--command", f"python -m bots.face_card_kill_card {marker}",
        db=db)


def _tournament_exists(db: Path) -> bool:
    try:
        with sqlite3.connect(db, timeout=5) as connection:
            return bool(connection.execute("select count(*) from tournament").fetchone()[0])
    except sqlite3.OperationalError:
        return False


def _finished_at_least(db: Path, count: int) -> bool:
    return finished_matches(db) >= count


def _until_or_ended(what: str, done: Callable[[], bool], process: subprocess.Popen[bytes]) -> None:
    """Wait until ``done()``, or until ``process`` has ended (nothing more can come then)."""
    eventually(what, lambda: done() or process.poll() is not None, every=0.01)


def _results(db: Path) -> list[tuple[int, str, str, int, int, int, float, int, str]]:
    """Every seat of every match: its deal, its lane, its bot and how it ended."""
    with sqlite3.connect(db) as connection:
        return connection.execute(
            "select m.\"index\", m.status, m.seed, m.lane, s.seat, s.bot_id, s.score, s.rank, "
            "s.fault from match m join seat s on s.match_id = m.id "
            "order by m.\"index\", s.seat").fetchall()


def _ratings(db: Path) -> list[tuple[str, float, float, int, int]]:
    return [(r.label, r.mu, r.sigma, r.matches, r.wins) for r in Store(str(db)).leaderboard(GAME)]


def test_random_kill_9_loop_then_resume_equals_a_clean_run(tmp_path: Path) -> None:
    run = ["tournament", "run", "--game", GAME, "--bot", "random", "--bot", "heuristic",
           "--repetitions", "5", "--seed", "21", "--deals-from-seed", "--parallel", "2"]
    clean = tmp_path / "clean.db"
    _register(clean)
    cli(*run, db=clean)

    db = tmp_path / "killed.db"
    marker = new_marker("loop")
    _register(db, marker)
    total = Store(str(clean)).get_tournament(1).total
    draw = random.Random(7)
    kills = seen = 0
    for attempt in range(KILLS):
        args = run if attempt == 0 else ["tournament", "resume", "1"]
        process = subprocess.Popen([sys.executable, "-m", "arena", *args, "--db", str(db)],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _until_or_ended("the tournament in the database", partial(_tournament_exists, db), process)
        # a random moment: while bots start, mid-match, or between matches; within this
        # attempt's share of the matches left, so that a busy machine cannot outrun the kills
        left = total - finished_matches(db)
        target = finished_matches(db) + draw.randrange(0, max(1, left // (KILLS - attempt + 1)))
        _until_or_ended(f"{target} finished matches", partial(_finished_at_least, db, target),
                        process)
        time.sleep(draw.uniform(0.0, 0.05))  # the random moment's last part
        seen += bool(processes_with(marker))  # none, if killed before the bots started
        process.send_signal(signal.SIGKILL)
        process.wait()
        kills += 1
        wait_until_gone(marker)  # the bots of this attempt: the next one has not started
        if finished_matches(db) == total:
            break
    assert kills >= 2 and finished_matches(db) < total, "the kills came too late to test anything"
    assert seen, "no kill found a bot process by its marker: nothing was checked"

    cli("tournament", "resume", "1", db=db)
    assert {lane for _, _, _, lane, *_ in _results(clean)} == {0, 1, 2, 3}  # 4 seats, 4 lanes
    assert _results(db) == _results(clean)  # the same deals, lanes, seats and results
    for made in (db, clean):  # deals from the seed: no secret key was made, none kept
        with sqlite3.connect(made) as connection:
            assert connection.execute("select deal_key from tournament").fetchall() == [(None,)]
    assert {status for _, status, *_ in _results(db)} == {"finished"}
    with sqlite3.connect(db) as connection:
        seqs = connection.execute("select count(distinct finish_seq), count(*) from match").fetchone()
        history = connection.execute("select count(*) from rating_history").fetchone()[0]
    assert seqs == (total, total)
    assert history == 2 * total  # one rating update per bot per match, none twice
    assert _ratings(db) == _ratings(clean)  # exact floats
