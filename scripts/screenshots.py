"""Screenshots of the web app for the README: a leaderboard, a bot page and the replay viewer.

    arena demo && python scripts/screenshots.py --db arena-demo.db

A tool of the checkout, not of the package: the wheel does not ship it.

serves the database on a free local port, opens the pages in headless Chromium (Debian's
``/usr/bin/chromium``, driven by Playwright: ``pip install -e '.[dev]'`` and
``scripts/install-system-packages --tests``) and writes ``docs/images/leaderboard.png``,
``bot.png`` and ``replay.png``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

import uvicorn

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
            browser.close()
    finally:
        server.should_exit = True
        thread.join(10)
        store.close()
    return written


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
