"""`arena web` and `arena serve --web-port`: real processes serving the web app over a real
database file, stopped by signals; and `arena web` on a missing database creates nothing."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import httpx

from arena.storage.store import Store
from tests.helpers import arena, cli, eventually
from tests.web.replay_fixtures import store_played_match


def _start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "arena", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "COLUMNS": "200"})


def _url(process: subprocess.Popen[str]) -> str:
    """The web app's URL from the line the command prints once it listens."""
    assert process.stdout is not None
    for line in process.stdout:
        found = re.search(r"web app at (http://\S+/)", line)
        if found:
            return found.group(1)
    process.kill()
    raise AssertionError(f"no URL printed; stderr: {process.communicate()[1]}")


def _catches(pid: int, sig: int) -> bool:
    """Whether the process ``pid`` has a handler for the signal ``sig`` (its status says)."""
    with open(f"/proc/{pid}/status") as status:
        caught = next(line for line in status if line.startswith("SigCgt:"))
    return bool(int(caught.split()[1], 16) >> (sig - 1) & 1)


def _stop(process: subprocess.Popen[str], sig: int) -> tuple[int, str, str]:
    """Send ``sig`` once the process handles it (not before its handler is set), and wait
    for the process to end: its exit code, stdout and stderr."""
    eventually(f"the command to handle signal {sig}",
               lambda: process.poll() is not None or _catches(process.pid, sig))
    process.send_signal(sig)
    out, err = process.communicate(timeout=20)
    return process.returncode, out, err


def _database(tmp_path: Path) -> Path:
    db = tmp_path / "arena.db"
    with Store(str(db)) as store:
        store.add_bot("alpha", "python -m bots.random_bot")
    return db


def test_arena_web_serves_the_pages_until_ctrl_c(tmp_path: Path) -> None:
    db = _database(tmp_path)
    process = _start("web", "--db", str(db), "--port", "0")
    try:
        url = _url(process)
        home = httpx.get(url, timeout=20)
        assert home.status_code == 200 and "Card Arena" in home.text
        bots = httpx.get(f"{url}api/bots", timeout=20).json()
        assert [b["bot"] for b in bots["bots"]] == ["alpha@1"]
    finally:
        code, out, err = _stop(process, signal.SIGINT)
    assert code == 0 and "stopped" in out, err


def test_arena_web_on_a_missing_database_says_so_and_creates_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "missing.db"
    result = cli("web", "--port", "0", db=missing, check=False)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        f"error: no database '{missing}' (this command creates none): give --db the file your "
        "tournaments were played on"]
    assert list(tmp_path.iterdir()) == []


def test_arena_web_on_a_port_in_use_is_one_line(tmp_path: Path) -> None:
    db = _database(tmp_path)
    first = _start("web", "--db", str(db), "--port", "0")
    try:
        port = _url(first).rstrip("/").rsplit(":", 1)[1]
        second = arena("web", "--port", port, db=db, check=False, timeout=30)
        assert second.returncode == 1
        assert second.stderr.strip().splitlines() == [
            f"error: cannot serve on 127.0.0.1:{port}: Address already in use"]
    finally:
        _stop(first, signal.SIGINT)


def test_arena_serve_serves_the_web_app_beside_grpc_and_stops_with_it(tmp_path: Path) -> None:
    db = _database(tmp_path)
    process = _start("serve", "--db", str(db), "--port", "0", "--web-port", "0")
    try:
        url = _url(process)
        assert httpx.get(f"{url}api/home", timeout=20).json()["version"] == 1
        assert "alpha@1" in httpx.get(f"{url}bots", timeout=20).text
    finally:
        code, out, err = _stop(process, signal.SIGTERM)
    assert code == 0 and "stopped" in out, err  # (the lines before the URL were read already)
    assert "Traceback" not in err


def test_arena_serve_no_web_serves_no_web_app(tmp_path: Path) -> None:
    db = _database(tmp_path)
    process = _start("serve", "--db", str(db), "--port", "0", "--no-web")
    try:
        assert process.stdout is not None
        lines = []
        for line in process.stdout:  # to its last line of start-up (a web app's comes before)
            lines.append(line)
            if line.startswith("scheduler:"):
                break
        assert any("operator service listening" in line for line in lines), lines
    finally:
        code, out, err = _stop(process, signal.SIGTERM)
    assert code == 0 and "web app" not in "".join(lines) + out, err


def test_arena_web_draws_the_graphs_of_finished_matches_in_the_background(
        tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    with Store(str(db)) as store:
        match_id = store_played_match(store, "face-card-kill-card", 2, 3, {})
    process = _start("web", "--db", str(db), "--port", "0", "--graph-cpu", "1")
    try:
        url = _url(process)
        graph = f"{url}api/matches/{match_id}/graph"
        eventually("the background worker to store the match's graph",
                   lambda: httpx.get(graph, timeout=20).json()["graph"] is not None)
        drawn = httpx.get(graph, timeout=20).json()["graph"]
        assert drawn["estimate"] == "from the full deal" and drawn["steps"] > 1
    finally:
        code, _, err = _stop(process, signal.SIGINT)
    assert code == 0, err
