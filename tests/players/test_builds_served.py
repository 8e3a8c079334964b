"""Builds on a real ``arena serve``, whose operator configured a package index (a local one,
served by the test on 127.0.0.1): an sdist-only package is refused and its backend never runs;
slow builds hold no upload place, and an author has one submission under way at a time.
"""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
import tarfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TypeVar

import pytest

from tests.helpers import arena
from tests.players.test_builds import (
    BACKEND,
    PYPROJECT,
    Listener,
    bot_folder,
    wheel,
)

pytestmark = pytest.mark.usefixtures("sandboxed")
OPERATOR = "operator-token-of-the-build-tests"
T = TypeVar("T")


def eventually(what: str, predicate: Callable[[], T], timeout: float = 600.0,
               every: float = 0.1) -> T:
    """``predicate()`` once it is true (asked until then); the timeout is only a safety net."""
    deadline = time.monotonic() + timeout
    while not (value := predicate()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(every)
    return value


@dataclass
class Served:
    """A running ``arena serve``: its operator address and web URL."""

    process: subprocess.Popen[str]
    address: str
    web: str
    lines: list[str]

    def stop(self) -> str:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        return "\n".join(self.lines)


def started_serve(db: Path, log: Path, env: dict[str, str]) -> Served:
    """``arena serve`` on free ports over ``db``, with ``env`` over this environment (the
    operator's pip settings, say)."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    process = subprocess.Popen(
        [sys.executable, "-m", "arena", "serve", "--port", "0", "--web-port", "0",
         "--db", str(db)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**base, "COLUMNS": "200", "ARENA_OPERATOR_TOKEN": OPERATOR, **env})
    lines: list[str] = []

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line.rstrip("\n"))

    threading.Thread(target=read, daemon=True).start()

    def find(pattern: str) -> str | None:
        if process.poll() is not None:
            raise AssertionError("arena serve ended:\n" + "\n".join(lines))
        for line in list(lines):
            found = re.search(pattern, line)
            if found:
                return found.group(1)
        return None

    port = eventually("the operator port", lambda: find(r"operator service listening on "
                                                        r"[^:]+:(\d+)"), timeout=120)
    web = eventually("the web app", lambda: find(r"web app at (http://\S+?)/?$"), timeout=120)
    assert port is not None and web is not None
    return Served(process, f"127.0.0.1:{port}", web, lines)


@dataclass
class Index:
    """A package index (PEP 503 simple pages) on 127.0.0.1: ``packages`` maps a project to
    its files; a project in ``held`` is answered once its event is set."""

    packages: dict[str, dict[str, bytes]]
    held: dict[str, threading.Event] = field(default_factory=dict)
    asked: list[str] = field(default_factory=list)
    server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_address[1]}/simple/"

    def start(self) -> None:
        index = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                index.asked.append(self.path)
                parts = [p for p in self.path.split("/") if p]
                body: bytes | None = None
                if len(parts) == 2 and parts[0] == "simple" and parts[1] in index.packages:
                    gate = index.held.get(parts[1])
                    if gate is not None:
                        gate.wait(600)
                    links = "".join(f'<a href="/files/{parts[1]}/{name}">{name}</a>\n'
                                    for name in index.packages[parts[1]])
                    body = f"<html><body>\n{links}</body></html>\n".encode()
                elif len(parts) == 3 and parts[0] == "files":
                    body = index.packages.get(parts[1], {}).get(parts[2])
                if body is None:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/html" if parts[0] == "simple"
                                 else "application/octet-stream")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        for gate in self.held.values():
            gate.set()
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()


def _sdist(name: str, marker: Path, port: int) -> bytes:
    """A source distribution whose build backend attacks (see ``test_builds.BACKEND``)."""
    files = {"pyproject.toml": PYPROJECT.format(name=name),
             "backend.py": BACKEND.format(marker=str(marker), port=port),
             "PKG-INFO": f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n"}
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as archive:
        for path, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(f"{name.replace('-', '_')}-1.0/{path}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return out.getvalue()


@dataclass
class World:
    served: Served
    index: Index
    listener: Listener
    marker: Path
    tokens: dict[str, str]
    root: Path


AUTHORS = ("ann", "bob", "cat", "dan", "eve", "sam")


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    root = tmp_path_factory.mktemp("served-builds")
    listener = Listener()
    marker = root / "marker"
    wheels = root / "wheels"
    wheels.mkdir()
    slow = wheel(wheels, "slowpkg", "VALUE = 'slow but here'\n")
    index = Index({"slowpkg": {slow.name: slow.read_bytes()},
                   "hostile-sdist": {"hostile_sdist-1.0.tar.gz":
                                     _sdist("hostile-sdist", marker, listener.port)}},
                  {"slowpkg": threading.Event()})
    index.start()
    db = root / "arena.db"
    tokens = {name: arena("author", "add", name, db=db).stdout.splitlines()[2].strip()
              for name in AUTHORS}
    served = started_serve(db, root / "serve.log", {"PIP_INDEX_URL": index.url,
                                                    "PIP_CONFIG_FILE": os.devnull})
    try:
        yield World(served, index, listener, marker, tokens, root)
    finally:
        index.stop()
        served.stop()
        listener.close()


def _submit(world: World, author: str, folder: Path) -> subprocess.CompletedProcess[str]:
    return arena("bot", "submit", str(folder), "--arena", world.served.address, "--token",
                 world.tokens[author], check=False, timeout=900)


def _submitting(world: World, author: str, folder: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "arena", "bot", "submit", str(folder),
                             "--arena", world.served.address, "--token", world.tokens[author]],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "COLUMNS": "200"})


def test_an_sdist_only_package_of_the_operators_index_is_refused_unbuilt(world: World) -> None:
    folder = bot_folder(world.root / "sam-bot", "sams-bot", "hostile-sdist==1.0\n")
    done = _submit(world, "sam", folder)
    assert done.returncode == 1 and "Traceback" not in done.stdout + done.stderr
    said = done.stderr.strip()
    assert said.startswith("error: submission of sams-bot refused: its requirements could not "
                           "be installed: no wheel of them for this machine"), said
    assert "hostile-sdist" in said and "\n" not in said
    assert "/simple/hostile-sdist/" in world.index.asked  # pip did look it up
    assert not world.marker.exists() and world.listener.connections == 0
    assert str(world.root) not in done.stdout + done.stderr  # no path of the server's

    # control: pip itself, told of that index, builds the sdist and so runs the attack
    plain = subprocess.run([sys.executable, "-m", "pip", "install", "--index-url",
                            world.index.url, "--target", str(world.root / "plain"),
                            "hostile-sdist==1.0"], capture_output=True, text=True, timeout=300,
                           env={k: v for k, v in os.environ.items() if not k.startswith("PIP_")})
    assert plain.returncode != 0 and world.marker.read_text() == "the backend ran"
    assert world.listener.connections >= 1
    world.marker.unlink()


def test_slow_builds_hold_no_upload_place_and_an_author_builds_one_at_a_time(
        world: World) -> None:
    gate = world.index.held["slowpkg"]
    slow = {author: _submitting(world, author, bot_folder(world.root / f"{author}-slow",
                                                          f"{author}s-slow", "slowpkg\n"))
            for author in ("ann", "cat", "dan", "eve")}
    try:
        # two builds wait on the index (the others wait for a build's turn); four submissions
        # are under way, as many as there are upload places
        eventually("two builds asking the index", lambda: world.index.asked.count(
            "/simple/slowpkg/") >= 2)
        again = _submit(world, "ann", bot_folder(world.root / "ann-again", "anns-other", None))
        assert again.returncode == 1 and again.stderr == (
            "error: a submission of yours is under way; submit again once it is done\n"), \
            again.stderr
        other = _submit(world, "bob", bot_folder(world.root / "bob-bot", "bobs-bot", None))
        assert other.returncode == 0, other.stderr
        assert "submitted bobs-bot" in other.stdout
        assert all(p.poll() is None for p in slow.values())  # still building meanwhile
        # ann hangs up: her build goes on to its end on the server, and keeps its turn and
        # her one submission under way until then
        hung_up = slow.pop("ann")
        hung_up.kill()
        hung_up.wait()
        again = _submit(world, "ann", world.root / "ann-again")
        assert again.returncode == 1 and "submission of yours is under way" in again.stderr
    finally:
        gate.set()
    for author, process in slow.items():
        out, err = process.communicate(timeout=900)
        assert process.returncode == 0, err
        assert f"submitted {author}s-slow" in out
    # once her build has ended, ann submits again (refused until then: nothing is lost)
    eventually("ann's build to end", lambda: _submit(world, "ann", world.root / "ann-again")
               .returncode == 0, every=0.5)
