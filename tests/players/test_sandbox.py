"""The sandbox itself, with real bubblewrap: what a process inside sees, reaches and keeps.

The hostile bots of ``test_hostile.py`` attack it inside real tournaments; these tests
pin down each property directly, one process at a time.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.players import sandbox
from arena.players.sandbox import Sandbox, SandboxUnavailable
from tests.helpers import eventually, running

pytestmark = pytest.mark.usefixtures("sandboxed")


@pytest.fixture
def referee_socket(tmp_path: Path) -> Iterator[Path]:
    """A listening Unix socket, as the arena's per-bot socket would be."""
    path = tmp_path / "sockets" / "bot.sock"
    path.parent.mkdir()
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(path))
    listener.listen()
    yield path
    listener.close()


def inside(box: Sandbox, folder: Path, referee_socket: Path, script: str,
           env: dict[str, str] | None = None) -> dict[str, object]:
    """Run ``script`` (Python, printing one JSON line) in the sandbox; what it printed."""
    argv = box.command([sys.executable, "-c", textwrap.dedent(script)], folder, referee_socket,
                       env or {"ARENA_TOKEN": "t0ken"})
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, env={})
    assert done.returncode == 0, done.stderr
    found: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def test_a_bot_folder_holding_the_database_shows_everything_but_the_arena_files(
        tmp_path: Path, referee_socket: Path) -> None:
    folder = tmp_path / "work"
    (folder / "arena-data" / "logs").mkdir(parents=True)
    (folder / "bot.py").write_text("print('hello')\n")
    (folder / "lib").mkdir()
    (folder / "lib" / "helper.txt").write_text("help")
    for name in ("arena.db", "arena.db-wal", "arena.db-shm"):
        (folder / name).write_text("SECRET DEAL")
    (folder / "arena-data" / "logs" / "other@1.log").write_text("SECRET LOG")
    (folder / "link-to-db").symlink_to(folder / "arena.db")
    box = Sandbox(hidden=(folder / "arena.db", folder / "arena-data"))
    seen = inside(box, folder, referee_socket, """
        import json, os
        def read(path):
            try:
                return open(path).read()
            except OSError as err:
                return type(err).__name__
        print(json.dumps({"cwd": os.getcwd(), "entries": sorted(os.listdir(".")),
                          "bot": read("bot.py"), "helper": read("lib/helper.txt"),
                          "db": read("arena.db"), "link": read("link-to-db"),
                          "log": read("arena-data/logs/other@1.log")}))
    """)
    assert seen["cwd"] == str(folder.resolve())
    assert seen["entries"] == ["bot.py", "lib", "link-to-db"]
    assert seen["bot"] == "print('hello')\n" and seen["helper"] == "help"
    assert seen["db"] == seen["link"] == seen["log"] == "FileNotFoundError"


def test_inside_a_bot_is_nobody_alone_offline_and_read_only(tmp_path: Path,
                                                             referee_socket: Path) -> None:
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    folder = tmp_path / "bot"
    folder.mkdir()
    seen = inside(Sandbox(), folder, referee_socket, f"""
        import json, os, socket
        def attempt(action):
            try:
                action()
                return "ok"
            except OSError as err:
                return type(err).__name__
        def tcp():
            socket.create_connection(("127.0.0.1", {port}), timeout=2).close()
        def unix():
            s = socket.socket(socket.AF_UNIX)
            s.connect("/run/arena/referee.sock")
            s.close()
        def write_folder():
            open("new-file", "w").write("x")
        def write_usr():
            open("{sys.prefix}/planted", "w").write("x")
        pids = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
        print(json.dumps({{"uid": os.getuid(), "pids": pids, "tcp": attempt(tcp),
                          "unix": attempt(unix), "folder": attempt(write_folder),
                          "runtime": attempt(write_usr), "env": dict(os.environ),
                          "scratch": os.statvfs("/tmp").f_blocks * os.statvfs("/tmp").f_frsize}}))
    """, env={"ARENA_TOKEN": "t0ken", "ARENA_SERVER": "unix:/run/arena/referee.sock"})
    listener.settimeout(0.5)
    with pytest.raises(TimeoutError):
        listener.accept()  # nothing reached the host's loopback
    listener.close()
    assert seen["uid"] == sandbox.SANDBOX_UID
    assert seen["pids"] == [1, 2]  # bubblewrap's init and the bot: nothing of the host
    assert seen["tcp"] != "ok" and seen["unix"] == "ok"
    assert seen["folder"] == seen["runtime"] == "OSError"  # EROFS: read-only file system
    env = seen["env"]
    assert isinstance(env, dict)
    assert set(env) <= {"ARENA_TOKEN", "ARENA_SERVER", "PWD", *sandbox.ENVIRONMENT}
    assert env["HOME"] == "/tmp" and env["ARENA_TOKEN"] == "t0ken"
    assert seen["scratch"] == 64 * 2**20


def test_no_kernel_setting_and_nothing_outside_the_scratch_is_writable(
        tmp_path: Path, referee_socket: Path) -> None:
    """Run as root, the arena's bots are root without capabilities outside: every file that
    only checks its owner must be out of reach. Opening for writing is tried, never a write."""
    folder = tmp_path / "bot"
    folder.mkdir()
    seen = inside(Sandbox(), folder, referee_socket, """
        import json, os
        writable = []
        def tried(path):
            try:
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
                writable.append(path)
            except OSError:
                pass
        for top in os.listdir("/proc"):  # the kernel's files; not the processes' own
            if top.isdigit() or top in ("self", "thread-self"):
                continue
            for root, dirs, files in os.walk(f"/proc/{top}"):
                for name in files:
                    tried(os.path.join(root, name))
            tried(f"/proc/{top}")
        for path in ("/planted", "/run/planted", "/usr/planted", "/etc/planted"):
            try:
                open(path, "w").close()
                writable.append(path)
            except OSError:
                pass
        print(json.dumps({"writable": sorted(writable), "ssl": os.path.exists("/etc/ssl")}))
    """)
    assert seen["writable"] == [] and seen["ssl"] is False


def test_the_scratch_is_capped_and_private(tmp_path: Path, referee_socket: Path) -> None:
    folder = tmp_path / "bot"
    folder.mkdir()
    script = """
        import json, os
        before = os.listdir("/tmp")
        written = 0
        try:
            with open("/tmp/fill", "wb") as out:
                for _ in range(64):
                    out.write(b"x" * 2**20)
                    out.flush()
                    written += 2**20
        except OSError as err:
            print(json.dumps({"written": written, "error": err.strerror, "before": before}))
    """
    box = Sandbox(scratch_mb=8)
    first = inside(box, folder, referee_socket, script)
    assert first["error"] == "No space left on device"
    assert 6 * 2**20 <= first["written"] <= 8 * 2**20  # type: ignore[operator]
    second = inside(box, folder, referee_socket, script)
    assert "fill" not in second["before"]  # type: ignore[operator]  # it went with its sandbox


def test_killing_the_sandbox_kills_every_process_in_it(tmp_path: Path,
                                                       referee_socket: Path) -> None:
    folder = tmp_path / "bot"
    folder.mkdir()
    marker = f"sandbox-escape-{os.getpid()}"
    escape = textwrap.dedent(f"""
        import os, subprocess, sys, time
        for _ in range(3):  # double fork and a new session: the usual ways out of a group
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)", "{marker}"],
                             start_new_session=True)
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(300)",
                                          "{marker}"])
            os._exit(0)
        print("ready", flush=True)
        time.sleep(300)
    """)
    argv = Sandbox().command([sys.executable, "-c", escape], folder, referee_socket, {})
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True, env={})
    assert process.stdout is not None and process.stdout.readline().strip() == "ready"
    eventually("the four escapees to run, seen by the test", lambda: len(_with(marker)) == 4)
    process.kill()
    process.wait(timeout=10)
    eventually("every escapee to end with its sandbox (none outliving it)",
               lambda: not _with(marker))


def _with(marker: str) -> list[int]:
    """Live processes whose last argument is ``marker`` (the sleepers, not their parents)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                last = (entry / "cmdline").read_bytes().rstrip(b"\0").split(b"\0")[-1]
            except OSError:
                continue
            if last == marker.encode() and running(int(entry.name)):
                found.append(int(entry.name))
    return found


def test_without_bubblewrap_the_sandbox_says_why_in_one_line(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    sandbox.check.cache_clear()
    monkeypatch.setenv("PATH", str(tmp_path))  # no bwrap anywhere on it
    try:
        found = sandbox.check()
        assert not found.works and found.why_not == "bubblewrap (bwrap) is not installed"
        with pytest.raises(SandboxUnavailable, match="not installed"):
            Sandbox().command(["true"], tmp_path, tmp_path / "s.sock", {})
    finally:
        sandbox.check.cache_clear()
