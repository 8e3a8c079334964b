"""Screenshots of the web app for the docs: a leaderboard, a bot page, the replay viewer with
its win-probability graph, a duplicate deal's traveller and the TV.

    arena demo && python scripts/screenshots.py --db arena-demo.db

A tool of the checkout, not of the package: the wheel does not ship it.

serves the database on a free local port, opens the pages in headless Chromium (Debian's
``/usr/bin/chromium``, driven by Playwright: ``pip install -e '.[dev]'`` and
``scripts/install-system-packages --tests``) and writes ``docs/images/leaderboard.png``,
``bot.png``, ``replay.png``, ``graph.png`` (the replayed match's graph, computed here if the
database has none yet) and ``traveller.png`` (a deal of the demo's versus, played in each seat
rotation). For ``tv.png`` it plays a tournament of the demo's bots on a copy of the database
(the demo's own is left as it was), slowed down (``--event-delay``) so that the TV has
matches to show, and stops it once the picture is taken.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import uvicorn

from arena.app import graphs
from arena.app.records import Store
from leaderboard.web.app import create_app

GAME = "king"
WIDTH, HEIGHT = 1360, 900


def chromium() -> str | None:
    for path in (os.environ.get("ARENA_CHROMIUM", ""), "/usr/bin/chromium",
                 shutil.which("chromium") or "", "/usr/bin/chromium-browser"):
        if path and Path(path).exists():
            return path
    return None


def _serve(store: Store) -> tuple[uvicorn.Server, threading.Thread, str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(store), host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline:
            raise SystemExit("the web server did not start")
        time.sleep(0.05)
    return server, thread, f"http://127.0.0.1:{port}"


def _replay_step(page: Any, base: str, match_id: int) -> int:
    """A step of the match with three cards on the table, well into a hand."""
    data = page.evaluate(f"fetch('{base}/api/matches/{match_id}/replay?view=full')"
                         ".then(r => r.json())")
    trick: list[Any] = []
    for frame in data["frames"]:
        trick = frame["public"].get("trick_cards", trick)
        if frame["step"] >= 20 and len(trick) == 3:
            return int(frame["step"])
    return min(20, len(data["frames"]) - 1)


def take(db: str, out: Path) -> list[Path]:
    from playwright.sync_api import sync_playwright

    browser_path = chromium()
    if browser_path is None:
        raise SystemExit("no Chromium: scripts/install-system-packages --tests installs it")
    store = Store(db)
    board = store.leaderboard(GAME)
    if not board:
        raise SystemExit(f"{db} has no rated {GAME} match: run `arena demo` first")
    matches = [m for m in store.list_matches(limit=1000) if m.game == GAME
               and str(m.status) == "finished"]
    if not matches:
        raise SystemExit(f"{db} has no finished {GAME} match")
    server, thread, base = _serve(store)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    try:
        with sync_playwright() as driver:
            browser = driver.chromium.launch(
                executable_path=browser_path, headless=True,
                args=["--no-sandbox"] if os.getuid() == 0 else [])
            page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
            page.goto(f"{base}/leaderboard/{GAME}")
            written.append(out / "leaderboard.png")
            page.screenshot(path=str(written[-1]))
            page.goto(f"{base}/bots/{board[0].label}")
            page.locator("svg").first.wait_for()
            written.append(out / "bot.png")
            page.screenshot(path=str(written[-1]))
            match_id = matches[len(matches) // 2].id
            page.goto(f"{base}/matches/{match_id}?view=full")
            page.locator('#step-counter[data-step="0"]').wait_for()
            step = _replay_step(page, base, match_id)
            page.evaluate("s => { const r = document.getElementById('slider'); r.value = s; "
                          "r.dispatchEvent(new Event('input')); }", step)
            page.locator(f'#step-counter[data-step="{step}"]').wait_for()
            page.locator("#replay").scroll_into_view_if_needed()
            written.append(out / "replay.png")
            page.screenshot(path=str(written[-1]))
            if store.win_graph(match_id) is None:
                graphs.compute(store, match_id)
            page.goto(f"{base}/matches/{match_id}?view=full#step={step}")
            page.reload()  # the page again, now that its graph is there
            page.locator("#win-graph svg").wait_for()
            page.locator("#win-graph").scroll_into_view_if_needed()
            written.append(out / "graph.png")
            page.screenshot(path=str(written[-1]))
            deal = _deal(store, matches)
            if deal is not None:
                page.goto(f"{base}/tournaments/{deal[0]}/deals/{deal[1]}")
                page.locator("#rotations").wait_for()
                written.append(out / "traveller.png")
                page.screenshot(path=str(written[-1]))
            written.append(_tv(page, db, store, out / "tv.png"))
            browser.close()
    finally:
        server.should_exit = True
        thread.join(10)
        store.close()
    return written


def _deal(store: Store, matches: list[Any]) -> tuple[int, int] | None:
    """(tournament, match) of a finished deal played in several seat rotations."""
    for match in matches:
        if len(store.deal_matches(match.tournament_id, match.id)) > 1:
            return match.tournament_id, match.id
    return None


def _tv(page: Any, db: str, store: Store, path: Path) -> Path:
    """The TV over a copy of the database while a slowed tournament of its game plays."""
    bots = [row.name for row in store.leaderboard(GAME)][:4]
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "arena.db"
        with sqlite3.connect(db) as source, sqlite3.connect(copy) as target:
            source.backup(target)  # a consistent copy, the write-ahead log included
        playing = subprocess.Popen(
            [sys.executable, "-m", "arena", "tournament", "run", "--db", str(copy), "--game",
             GAME, *[a for bot in bots for a in ("--bot", bot)], "--event-delay", "0.5",
             "--parallel", "2"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        tv_store = Store(str(copy))
        tv_server, tv_thread, tv_base = _serve(tv_store)
        try:
            page.goto(f"{tv_base}/tv")
            page.wait_for_function("() => document.querySelector('#tv').dataset.featured !== ''",
                                   timeout=120_000)
            page.locator("iframe.tv").wait_for()
            page.wait_for_timeout(3000)  # the featured match's first cards on the table
            page.screenshot(path=str(path), full_page=True)
        finally:
            playing.send_signal(signal.SIGINT)
            playing.wait(60)
            tv_server.should_exit = True
            tv_thread.join(10)
            tv_store.close()
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default="arena-demo.db", help="the database (arena demo's)")
    parser.add_argument("--out", type=Path, default=Path("docs/images"),
                        help="where the PNG files go (default docs/images)")
    args = parser.parse_args(argv)
    for path in take(args.db, args.out):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
