"""The web app at scale: server time of its pages over a database of a million matches.

The database is made once by :mod:`benchmarks.fill` (1,000,000 matches; 50,000 with
``--quick``) and kept in ``$ARENA_BENCH_CACHE`` (default ``/tmp/arena-bench-web``) for the
next run: it is tens of gigabytes, with a real log in every finished match.

Each page of :data:`PAGES` is asked for :data:`REQUESTS` times over varied ids (the
tournaments, bots, games and matches of the database, in a fixed random order), in
process through the ASGI app (no network: the time is the server's), twice: a first
round on a fresh app, whose caches are empty (a bot's head-to-head tallies, a
tournament's standings), and a second asking for the same again. Add a page to
:data:`PAGES` to measure it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import random
import statistics
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.storage.store import Store, StoredGraph, TournamentStatus
from benchmarks import fill
from benchmarks.common import Row

FULL = 1_000_000
QUICK = 50_000
REQUESTS = 50


@dataclass(frozen=True)
class Ids:
    """What the URLs are made from: the database's ids, in a fixed random order."""

    tournaments: list[int]
    bots: list[str]
    leaderboards: list[str]
    matches: list[int]
    deals: list[str]  # a finished match's deal, as /tournaments/T/deals/M


@dataclass(frozen=True)
class Page:
    name: str
    target_ms: float
    urls: Callable[[Ids], list[str]]


def _cycle(items: list[str], n: int = REQUESTS) -> list[str]:
    return [items[i % len(items)] for i in range(n)]


PAGES: list[Page] = [
    Page("home", 100, lambda ids: ["/"] * REQUESTS),
    Page("leaderboard", 100, lambda ids: _cycle([f"/leaderboard/{p}" for p in ids.leaderboards])),
    Page("bot", 100, lambda ids: _cycle([f"/bots/{b}" for b in ids.bots])),
    Page("tournament", 100, lambda ids: _cycle([f"/tournaments/{t}" for t in ids.tournaments])),
    Page("tournament presence", 300,
         lambda ids: _cycle([f"/tournaments/{t}/presence" for t in ids.tournaments])),
    Page("tournament matches p.10", 100,
         lambda ids: _cycle([f"/tournaments/{t}?page=10" for t in ids.tournaments])),
    Page("bot matches (older)", 100,
         lambda ids: _cycle([f"/api/bots/{b}/matches?before={m}"
                             for b, m in zip(ids.bots, ids.matches, strict=False)])),
    Page("tv", 100, lambda ids: ["/tv"] * REQUESTS),
    Page("tv data", 100, lambda ids: ["/api/tv"] * REQUESTS),
    Page("traveller", 300, lambda ids: _cycle(ids.deals)),
    Page("win-probability graph", 100,
         lambda ids: _cycle([f"/matches/{m}/graph" for m in ids.matches])),
    Page("graph data", 100, lambda ids: _cycle([f"/api/matches/{m}/graph" for m in ids.matches])),
    Page("tournaments list", 100, lambda ids: _cycle(
        ["/tournaments"] + [f"/tournaments?before={t}" for t in ids.tournaments])),
    Page("match", 300, lambda ids: _cycle([f"/matches/{m}" for m in ids.matches])),
    Page("replay data", 300,
         lambda ids: _cycle([f"/api/matches/{m}/replay" for m in ids.matches])),
]


def database(matches: int) -> Path:
    folder = Path(os.environ.get("ARENA_BENCH_CACHE", "/tmp/arena-bench-web"))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"matches-{matches}-v{fill.VERSION}.db"
    if not path.exists():
        partial = path.with_suffix(".partial")
        for suffix in ("", "-wal", "-shm"):
            Path(f"{partial}{suffix}").unlink(missing_ok=True)
        done = fill.fill(partial, matches, say=lambda text: print(text, flush=True))
        partial.rename(path)
        print(f"filled {path}: {done['seconds']:.0f} s, {done['bytes'] / 2**30:.2f} GiB")
    return path


def _ids(store: Store, draw: random.Random) -> Ids:
    tournaments = [t.id for t in store.tournament_page(None, 10_000)]
    bots = [b.label for b in store.list_bots()]
    pools = sorted({f"{r.game}?pool={r.pool}" if r.pool != r.game else r.game
                    for r in store.leaderboard()})
    last = max(tournaments)
    finished = [m.id for m in store.recent_matches(1)]
    top = finished[0] if finished else 1
    matches = [draw.randint(1, top) for _ in range(REQUESTS)]
    for items in (tournaments, bots, pools):
        draw.shuffle(items)
    deals = [f"/tournaments/{m.tournament_id}/deals/{m.id}"
             for m in (store.get_match(i) for i in matches)]
    return Ids([t for t in tournaments if t != last][:REQUESTS], bots, pools, matches, deals)


def _graphs(store: Store, matches: list[int]) -> None:
    """A win-probability graph for each measured match that has none: computed for one match
    of each game (the matches of a game share one log: :mod:`benchmarks.fill` copies it),
    kept as the others' too. Kept in the cached database for the next run."""
    from arena.app import graphs
    from arena.app.matches import Hidden

    made: dict[str, StoredGraph] = {}
    for match_id in matches:
        if store.win_graph(match_id) is not None:
            continue
        game = store.get_match(match_id).game
        try:
            if game not in made:
                made[game] = graphs.compute(store, match_id)
            else:
                store.save_graph(dataclasses.replace(made[game], match_id=match_id))
        except (Hidden, graphs.NotFinished):
            continue  # a match still in play, or a rotation of a deal in play: no graph


def _time(client: Any, urls: list[str]) -> tuple[list[float], dict[int, int]]:
    times: list[float] = []
    codes: dict[int, int] = {}
    for url in urls:
        began = time.perf_counter()
        reply = client.get(url)
        times.append((time.perf_counter() - began) * 1000)
        codes[reply.status_code] = codes.get(reply.status_code, 0) + 1
    return times, codes


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[-1]


def run(quick: bool) -> list[Row]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from leaderboard.web import create_app

    n = QUICK if quick else FULL
    path = database(n)
    size = sum(Path(f"{path}{s}").stat().st_size for s in ("", "-wal") if Path(f"{path}{s}").exists())
    rows: list[Row] = []
    with Store(str(path)) as store, contextlib.ExitStack() as runs:
        for t in store.tournament_page(None, 10_000):  # the running ones are run: TV has them
            if t.status in (TournamentStatus.RUNNING, TournamentStatus.INTERRUPTED):
                runs.enter_context(store.running(t.id))
        ids = _ids(store, random.Random(7))
        _graphs(store, ids.matches)
        for page in PAGES:
            urls = page.urls(ids)
            client = TestClient(create_app(store))  # a fresh app: its caches empty
            for round_name, note in (("first", "a fresh app, every id once where it can"),
                                     ("again", "the same requests again")):
                times, codes = _time(client, urls)
                p50, p95 = statistics.median(times), _p95(times)
                ok = codes.get(200, 0)
                rows.append(Row(
                    "web", f"{page.name} ({round_name}) p95", p95, "ms",
                    reference=f"p50 {p50:.1f} ms, max {max(times):.0f} ms", reference_value=p50,
                    target=f"p95 < {page.target_ms:.0f} ms", met=p95 < page.target_ms and ok == len(urls),
                    note=f"{len(urls)} requests over {len(set(urls))} URLs, {note}; "
                    f"{n:,} matches, {size / 2**30:.1f} GiB; replies {dict(sorted(codes.items()))}"))
    return rows


__all__ = ["PAGES", "Page", "database", "run"]
