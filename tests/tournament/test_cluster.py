"""The Ray executor on a real Ray cluster: a head and a worker node started here, on
loopback, one CPU each, results in a real PostgreSQL (pgserver) and bots in the sandbox.

The cluster's processes run in sessions of their own (``ray start --block``), so that
a node can be killed whole (``kill -9`` of its raylet, its workers and everything else it
started) and nothing it started can outlive the test unnoticed.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from arena.players.submissions import pack_folder
from arena.tournament.cluster import NodeHost, Shipped
from arena.tournament.errors import TournamentError
from arena.tournament.executor import Entrant
from arena.tournament.settings import RunSettings
from tests.helpers import arena, cli, eventually, new_marker, processes_with, running, wait_until_gone

RAY = Path(sys.executable).with_name("ray")
QUICK_HEALTH = {"RAY_health_check_period_ms": "500", "RAY_health_check_failure_threshold": "4",
                "RAY_USAGE_STATS_ENABLED": "0"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Node:
    """A Ray node of this test: ``ray start --block`` in a session of its own."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [str(RAY), "start", "--block", "--num-cpus", "1", "--node-ip-address", "127.0.0.1",
             "--disable-usage-stats", *args],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
            env={**os.environ, **QUICK_HEALTH})

    def members(self) -> list[int]:
        """Every live process of the node's session (its raylet, workers, agents...)."""
        found = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    if os.getsid(int(entry.name)) == self.process.pid and running(int(entry.name)):
                        found.append(int(entry.name))
                except OSError:
                    continue
        return found

    def kill(self) -> None:
        """``kill -9`` of the whole node."""
        with_raylet = self.members()
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)
        eventually("the killed node's processes to end",
                   lambda: not any(running(pid) for pid in with_raylet), every=0.05)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(20)
        if self.members():
            os.killpg(self.process.pid, signal.SIGKILL)


def live_nodes(address: str) -> int:
    probe = (f"import ray; ray.init(address={address!r}, logging_level='ERROR'); "
             "print(sum(1 for n in ray.nodes() if n['Alive']))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60, env={**os.environ, **QUICK_HEALTH})
    return int(done.stdout.strip().splitlines()[-1]) if done.returncode == 0 else 0


def wait_for_nodes(address: str, count: int) -> None:
    eventually(f"the Ray cluster at {address} to have {count} nodes",
               lambda: live_nodes(address) == count, every=1)


@pytest.fixture(scope="module")
def head() -> Iterator[str]:
    """A Ray head node (one CPU) on loopback: its address (one per test process)."""
    temp = tempfile.mkdtemp(prefix="ray-", dir="/tmp")  # short: Ray's socket paths live in it
    port = free_port()
    node = Node("--head", "--port", str(port), "--temp-dir", temp, "--include-dashboard", "false")
    address = f"127.0.0.1:{port}"
    try:
        wait_for_nodes(address, 1)
        yield address
    finally:
        node.stop()
        assert not node.members(), "processes of the Ray head outlived the test"


@contextlib.contextmanager
def joined(head: str, nodes: int) -> Iterator[Node]:
    """A node (one CPU) joined to the head, which then has ``nodes``; stopped afterwards if
    it was not killed, and nothing of it left."""
    node = Node("--address", head)
    try:
        wait_for_nodes(head, nodes)
        yield node
    finally:
        node.stop()
        assert not node.members(), "processes of a Ray node outlived the test"


@pytest.fixture(scope="module")
def worker(head: str) -> Iterator[Node]:
    """A second node, for the module's tests."""
    with joined(head, 2) as node:
        yield node


@pytest.fixture
def doomed(head: str, worker: Node) -> Iterator[Node]:
    """A third node, for a test that kills it."""
    with joined(head, 3) as node:
        yield node
    wait_for_nodes(head, 2)


FIRST_CHOICE = """
from sdk import Bot
from sdk.run import run


class FirstChoice(Bot):
    def act(self, observation, legal_actions):
        return legal_actions[0]


run(FirstChoice)
"""


def add_deterministic_bots(db: str, marker: str, folder: Path, submitted: bool = False) -> None:
    """Bots whose every choice follows from the match: the Kill heuristic, a random bot
    seeded by the match's id, run from ``folder`` (sent to the nodes), and a third: another
    seeded random bot, or (``submitted``) a submitted version that takes the first choice."""
    folder.mkdir(exist_ok=True)
    (folder / "notes.txt").write_text("a bot's folder\n")
    cli("bot", "add", "kill-bot", "--command", f"python -m bots.kill {marker}", "--dir",
        str(folder), "--db", db)
    cli("bot", "add", "seeded-1", "--command", f"python -m bots.random_bot --seed 1 {marker}",
        "--dir", str(folder), "--db", db)
    if not submitted:
        cli("bot", "add", "third", "--command", f"python -m bots.random_bot --seed 2 {marker}",
            "--dir", str(folder), "--db", db)
        return
    code = folder.parent / "first-choice"
    code.mkdir(exist_ok=True)
    (code / "arena-bot.toml").write_text(
        f'name = "third"\ncommand = "python bot.py {marker}"\ngames = ["kill"]\n')
    (code / "bot.py").write_text(FIRST_CHOICE)
    cli("bot", "submit", str(code), "--db", db)


SHORT = "kill[target_score=11]"
"""The pool of :func:`tournament`'s short matches: Kill to 11 points, not 31, where the
matches' place is the subject and not their length."""


def tournament(db: str, *extra: str, repetitions: int = 4, parallel: int = 2,
               short: bool = True) -> list[str]:
    return ["tournament", "run", "--game", "kill", "--players", "3", "--bot", "kill-bot",
            "--bot", "seeded-1", "--bot", "third", "-n", str(repetitions), "--seed", "7",
            *(["--option", "target_score=11"] if short else []), "--deals-from-seed",
            "--parallel", str(parallel), "--db", db, *extra]


def outcome(db: str, pool: str = SHORT) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Every match's seats and results, and the leaderboard's ratings, to the bit."""
    engine = sa.create_engine(db)
    with engine.connect() as c:
        seats = c.execute(sa.text(
            "SELECT m.index, s.seat, b.name, s.score, s.rank, s.fault FROM match m "
            "JOIN seat s ON s.match_id = m.id JOIN bot b ON b.id = s.bot_id "
            "WHERE m.status = 'finished' ORDER BY m.index, s.seat")).all()
    engine.dispose()
    board = json.loads(cli("leaderboard", "--pool", pool, "--json", "--db", db).stdout)
    ratings = [(row["bot"], row["mu"], row["sigma"], row["matches"])
               for row in board["leaderboard"]]
    return [tuple(r) for r in seats], ratings


def match_rows(db: str) -> list[tuple[Any, ...]]:
    """Each match's id, status, node and end."""
    engine = sa.create_engine(db)
    with engine.connect() as c:
        rows = c.execute(sa.text(
            "SELECT id, status, node, finished_at FROM match ORDER BY id")).all()
    engine.dispose()
    return [tuple(r) for r in rows]


def remove_node_folders(db: str) -> None:
    """The folders the nodes kept their bot logs in (named by the matches), removed."""
    for _, _, where, _ in match_rows(db):
        if where is not None:
            shutil.rmtree(Path(where.split("bot logs ", 1)[1].split(",", 1)[0]).parent,
                          ignore_errors=True)


def test_a_round_robin_on_the_cluster_equals_the_local_executors(
        head: str, worker: Node, pg_url: str, postgres_server: str, tmp_path: Path) -> None:
    from tests.conftest import new_postgres_database

    local_db, ray_db = pg_url, new_postgres_database(postgres_server)
    marker = new_marker("ray")
    for db in (local_db, ray_db):  # the third bot a submitted version: its archive travels
        add_deterministic_bots(db, marker, tmp_path / "bots", submitted=True)
    arena(*tournament(local_db))
    played = arena(*tournament(ray_db, "--executor", "ray", "--ray-address", head), timeout=240)
    assert "ray: 2 node(s), 2 CPUs" in played.stdout, played.stdout
    assert "sandbox: bubblewrap" in played.stdout

    local, on_ray = outcome(local_db), outcome(ray_db)
    assert len(local[0]) == 12 * 3  # 12 matches of 3 seats
    assert {row[2] for row in local[0]} == {"kill-bot", "seeded-1", "third"}
    assert len(local[1]) == 3  # each bot rated in the pool
    assert on_ray == local  # the same matches, results and ratings, to the bit
    assert not any(row[5] for row in on_ray[0])  # no fault: the submitted bot ran on the nodes

    # Each match's record names its node, and that node's bot logs are where it says.
    rows = match_rows(ray_db)
    nodes = {row[2] for row in rows}
    assert len(nodes) == 2, nodes  # both nodes played
    for where in nodes:
        assert isinstance(where, str) and re.match(r"node \S+ \(id [0-9a-f]{12}\): bot logs /", where)
        logs = Path(where.split("bot logs ", 1)[1].split(",", 1)[0])
        assert sorted(p.name for p in logs.glob("*.log"))[:1], f"no bot log in {logs}"
        assert "Ray logs " in where and Path(where.rsplit("Ray logs ", 1)[1]).is_dir()
    shown = cli("match", "show", str(rows[0][0]), "--db", ray_db).stdout
    assert f"played on: {rows[0][2]}" in shown

    # Lanes hold across nodes: a deal's seat rotations were played on both nodes, and no
    # process of a bot (a node's process of a lane) saw a deal twice.
    engine = sa.create_engine(ray_db)
    with engine.connect() as c:
        seats = c.execute(sa.text(
            "SELECT s.bot_id, m.node, m.lane, m.seed FROM seat s JOIN match m "
            "ON m.id = s.match_id")).all()
    engine.dispose()
    by_process: dict[tuple[int, str, int], list[str]] = {}
    nodes_of_deal: dict[str, set[str]] = {}
    for bot_id, node, lane, seed in seats:
        by_process.setdefault((bot_id, node, lane), []).append(seed)
        nodes_of_deal.setdefault(seed, set()).add(node)
    assert {lane for _, _, lane in by_process} == {0, 1, 2}
    assert all(len(seeds) == len(set(seeds)) for seeds in by_process.values()), by_process
    assert any(len(nodes) == 2 for nodes in nodes_of_deal.values()), nodes_of_deal
    wait_until_gone(marker)
    remove_node_folders(ray_db)


def test_no_cluster_or_a_sqlite_file_on_many_nodes_is_one_line_and_nothing_written(
        head: str, worker: Node, tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    add_deterministic_bots(str(db), new_marker("ray-refused"), tmp_path)
    port = free_port()
    nowhere = arena(*tournament(str(db), "--executor", "ray", "--ray-address",
                                f"127.0.0.1:{port}"), check=False)
    assert nowhere.returncode == 1
    assert nowhere.stderr.strip() == f"error: no Ray cluster at 127.0.0.1:{port}: Connection refused"
    for command in (["serve", "--no-web", "--port", "0"], ["ladder", "start", "kill"]):
        refused = arena(*command, "--executor", "ray", "--ray-address", f"127.0.0.1:{port}",
                        "--db", str(db), check=False)
        assert refused.returncode == 1
        assert refused.stderr.strip() == (f"error: no Ray cluster at 127.0.0.1:{port}: "
                                          "Connection refused")
    sqlite = arena(*tournament(str(db), "--executor", "ray", "--ray-address", head), check=False)
    assert sqlite.returncode == 1
    assert sqlite.stderr.strip().splitlines()[-1] == (
        "error: the Ray cluster has 2 nodes: a tournament on several machines needs a database "
        "they all reach (--db postgresql+psycopg://...), not a SQLite file")
    listed = json.loads(cli("tournament", "list", "--json", db=db).stdout)
    assert listed["tournaments"] == []  # nothing was created
    wrong = arena(*tournament(str(db), "--ray-address", head), check=False)
    assert wrong.returncode == 1 and "--ray-address is for the ray executor" in wrong.stderr
    for command in ([*tournament(str(db), "--executor", "nowhere")],
                    ["serve", "--executor", "nowhere", "--no-web", "--db", str(db)]):
        refused = arena(*command, check=False)
        assert refused.returncode == 1
        assert refused.stderr.strip() == "error: --executor must be local or ray, not 'nowhere'"
    assert json.loads(cli("tournament", "list", "--json", db=db).stdout)["tournaments"] == []


def test_a_node_killed_mid_run_leaves_every_match_played_exactly_once(
        head: str, doomed: Node, pg_url: str, tmp_path: Path) -> None:
    marker = new_marker("ray-kill")
    add_deterministic_bots(pg_url, marker, tmp_path / "bots")
    command = [sys.executable, "-m", "arena", *tournament(pg_url, "--executor", "ray",
                                                          "--ray-address", head,
                                                          repetitions=12, parallel=3,
                                                          short=False)]  # long enough to lose
    seen: set[int] = set()
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          env={**os.environ, "COLUMNS": "200"}) as run:
        engine = sa.create_engine(pg_url)

        def every_node_played() -> bool:
            with engine.connect() as c:
                by_node: dict[str | None, int] = dict(c.execute(sa.text(
                    "SELECT node, count(*) FROM match WHERE status = 'finished' "
                    "GROUP BY node")).all())
            seen.update(processes_with(marker))
            if len(by_node) == 3 and min(by_node.values()) >= 3:
                return True
            assert run.poll() is None, by_node
            return False

        eventually("every node (the doomed one too) to finish three matches", every_node_played)
        engine.dispose()
        doomed.kill()
        killed_at = time.time()
        out, _ = run.communicate(timeout=240)
    assert run.returncode == 0, out
    assert "is lost (" in out and "played again on the other nodes" in out, out

    matches = match_rows(pg_url)
    assert len(matches) == 36 and all(row[1] == "finished" for row in matches), matches
    _, ratings = outcome(pg_url, "kill")
    assert [r[3] for r in ratings] == [36, 36, 36]  # every seat rated once, none twice
    before = {row[2] for row in matches if row[3].timestamp() < killed_at}
    late = {row[2] for row in matches if row[3].timestamp() > killed_at + 1}
    assert len(before) == 3 and late < before, (before, late)  # the killed node played no more

    assert seen, "the bots' processes were never seen"
    wait_until_gone(marker)
    remove_node_folders(pg_url)


SPY = """
import os
import socket
import sys

from bots.random_bot import RandomBot
from sdk.run import run

host, port = sys.argv[1].rsplit(":", 1)
try:
    socket.create_connection((host, int(port)), timeout=2).close()
    print("SPY reached the Ray cluster", flush=True)
except OSError as err:
    print(f"SPY no Ray cluster: {err}", flush=True)
own = os.getcwd()  # its folder: under the node's folder, on the node's /tmp
found = [os.path.join(where, name) for where, _, names in os.walk("/tmp")
         if not where.startswith(own) and ("arena-node-" in where or "session_" in where)
         for name in names]  # (the runtime, shown to every bot, may lie under /tmp too)
print(f"SPY found {len(found)} files of Ray or the node: {found[:3]}", flush=True)
run(RandomBot)
"""


@pytest.mark.usefixtures("sandboxed")
def test_a_bot_on_a_node_cannot_reach_the_cluster_or_see_the_nodes_files(
        head: str, worker: Node, postgres_server: str, tmp_path: Path) -> None:
    """A bot that could reach Ray's head could run anything on every node: the sandbox on
    the node keeps it off the network, and shows it no file of the node's /tmp (Ray's
    session, the node's logs, other bots' code) but its own folder's; the control,
    --no-sandbox on the same cluster, reaches the head and finds them."""
    from tests.conftest import new_postgres_database

    said = {}
    for contained in (True, False):
        db = new_postgres_database(postgres_server)
        folder = tmp_path / f"spy-{contained}"
        folder.mkdir()
        (folder / "spy.py").write_text(SPY)
        marker = new_marker("ray-spy")
        cli("bot", "add", "spy", "--command", f"python spy.py {head} {marker}", "--dir",
            str(folder), "--db", db)
        cli("bot", "add", "random", "--command", f"python -m bots.random_bot {marker}",
            "--dir", str(folder), "--db", db)
        played = arena("tournament", "run", "--game", "face-card-kill-card", "--players", "2", "--bot", "spy",
                       "--bot", "random", "-n", "2", "--executor", "ray", "--ray-address", head,
                       "--db", db, *([] if contained else ["--no-sandbox"]), timeout=240)
        assert "4/4" in played.stdout  # every match played and accounted for
        logs = {Path(where.split("bot logs ", 1)[1].split(",", 1)[0])
                for _, _, where, _ in match_rows(db) if where is not None}
        said[contained] = [line for folder in logs for log in sorted(folder.glob("spy@1*.log"))
                           for line in log.read_text().splitlines() if line.startswith("SPY")]
        wait_until_gone(marker)
        remove_node_folders(db)
    assert said[True] and said[False]
    assert not any("reached the Ray cluster" in line for line in said[True]), said[True]
    assert all(line.startswith("SPY found 0 files") for line in said[True] if "found" in line)
    assert any("reached the Ray cluster" in line for line in said[False]), said[False]
    assert not any(line.startswith("SPY found 0 files") for line in said[False]), said[False]


def test_a_node_runs_no_code_whose_hash_differs(tmp_path: Path) -> None:
    """What reaches a node is checked against the hash the driver sent, before it is
    unpacked: a changed byte is refused, and nothing is written."""
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "bot.py").write_text("print('hello')\n")
    archive, sha256 = pack_folder(folder)
    host = NodeHost(RunSettings())
    entrant = Entrant(1, "bot@1", command="python bot.py", folder=str(folder))
    tampered = archive.replace(b"hello", b"HELLO")
    for code in (Shipped(None, sha256, submitted=False), Shipped(None, sha256, submitted=True)):
        with pytest.raises(TournamentError, match="does not have that hash"):
            host._unpack(entrant, code, tampered)
    try:
        ready = host._unpack(entrant, Shipped(None, sha256, submitted=False), archive)
        assert ready.folder is not None
        assert Path(ready.folder, "bot.py").read_text() == "print('hello')\n"
        assert ready.folder != str(folder)  # the node's own copy
    finally:
        shutil.rmtree(host._root)
