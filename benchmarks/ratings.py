"""(5) Ratings: ``Store.rebuild_ratings()`` over N stored 4-player matches.

The matches are written straight into the store's tables in bulk (SQLAlchemy
Core, one transaction): realistic rows, finished, with ranks (some ties) among
24 bots, and no logs. Only ``rebuild_ratings()`` is timed.
"""

from __future__ import annotations

import random
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import sqlalchemy as sa

from arena.rating import ratings as rt
from arena.storage.store import Match, Seat, Store
from benchmarks.common import Row

FULL = 100_000
QUICK = 5_000
BOTS = 24
TARGET_S = 60.0
MATCHES: int | None = None  # overrides FULL / QUICK (``--ratings-matches``)


def fill(store: Store, path: Path, matches: int, seed: int = 1) -> None:
    ids = [store.add_bot(f"bot{i}", "python -m bots.random_bot").id for i in range(BOTS)]
    draw = random.Random(seed)
    now = datetime.now(UTC)
    engine = sa.create_engine(f"sqlite:///{path}")
    chunk = 20_000
    with engine.begin() as conn:
        for start in range(0, matches, chunk):
            count = min(chunk, matches - start)
            conn.execute(sa.insert(Match), [
                {"id": start + i + 1, "tournament_id": None, "index": 0, "game": "kill",
                 "options": "{}", "seed": str(start + i), "status": "finished", "created_at": now,
                 "started_at": now, "finished_at": now, "duration_s": 1.0,
                 "finish_seq": start + i + 1}
                for i in range(count)])
            seats = []
            for i in range(count):
                bots = draw.sample(ids, 4)
                scores = [draw.randrange(8) for _ in range(4)]
                ranks = [1 + sum(1 for o in scores if o > s) for s in scores]
                seats += [{"match_id": start + i + 1, "seat": s, "bot_id": b, "score": float(sc),
                           "rank": r, "fault": ""}
                          for s, (b, sc, r) in enumerate(zip(bots, scores, ranks, strict=True))]
            conn.execute(sa.insert(Seat), seats)
    engine.dispose()


def run(quick: bool) -> list[Row]:
    n = MATCHES or (QUICK if quick else FULL)
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as tmp:
        path = Path(tmp) / "ratings.db"
        store = Store(str(path))
        try:
            began = time.perf_counter()
            fill(store, path, n)
            fill_s = time.perf_counter() - began
            began, cpu = time.perf_counter(), time.process_time()
            replayed = store.rebuild_ratings()
            wall, cpu = time.perf_counter() - began, time.process_time() - cpu
        finally:
            store.close()
    assert replayed == n
    # the same work without the database: TrueSkill alone, for the share it takes
    draw = random.Random(2)
    matches: list[list[tuple[int, int]]] = []
    for _ in range(min(n, 2000)):
        ranks = [1, 2, 3, 4]
        draw.shuffle(ranks)
        matches.append(list(zip(draw.sample(range(BOTS), 4), ranks, strict=True)))
    priors: dict[int, rt.RatingPair] = {}
    t = time.process_time()
    for seats in matches:
        priors.update(rt.rate(priors, seats))
    trueskill_per_match = (time.process_time() - t) / len(matches)
    # and the library's generic factor graph (what rate() ran before) on the first of them
    priors = {}
    library = matches[:300]
    t = time.process_time()
    for seats in library:
        ordered = sorted(seats, key=lambda s: s[1])
        rated = rt.rate_with_library([priors.get(b, rt.DEFAULT) for b, _ in ordered],
                                     [r for _, r in ordered])
        priors.update((b, pair) for (b, _), pair in zip(ordered, rated, strict=True))
    library_per_match = (time.process_time() - t) / len(library)
    projected = wall * FULL / n
    rows = [Row("5 ratings", f"rebuild_ratings() over {n:,} 4-player matches", wall, "s",
                note=f"{n / wall:,.0f} matches/s; CPU {cpu:.1f} s; filling took {fill_s:.1f} s "
                     "(not timed)")]
    label = "rebuild 100,000 matches" + (" (projected, linear)" if n != FULL else "")
    rows.append(Row("5 ratings", label, projected, "s", "target", TARGET_S, projected / TARGET_S,
                    "< 60 s", projected < TARGET_S,
                    f"TrueSkill alone {trueskill_per_match * 1e3:.3f} ms/match CPU = "
                    f"{trueskill_per_match * n / cpu:.0%} of the rebuild's CPU (the library's "
                    f"generic factor graph: {library_per_match * 1e3:.2f} ms/match)"))
    return rows


if __name__ == "__main__":
    for row in run(quick=True):
        print(row)
