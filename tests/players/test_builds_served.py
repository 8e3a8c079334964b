"""Builds on a real ``arena serve``, whose operator configured a package index (a local one,
served by the test on 127.0.0.1): an sdist-only package is refused and its backend never runs;
slow builds hold no upload place, and an author has one submission under way at a time.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tarfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from arena.storage.store import Store
from benchmarks.builds import wheel
from tests.helpers import arena, cli
from tests.players.test_builds import (
    BACKEND,
    PYPROJECT,
    Listener,
    bot_folder,
)
from tests.served import Served, eventually

pytestmark = pytest.mark.usefixtures("sandboxed")


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
    tokens = {name: cli("author", "add", name, db=db).stdout.splitlines()[2].strip()
              for name in AUTHORS}
    served = Served(db, env={**{k: None for k in os.environ if k.startswith("PIP_")},  # the operator's
                             "PIP_INDEX_URL": index.url, "PIP_CONFIG_FILE": os.devnull})
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
    kept = Store(str(world.root / "arena.db"))
    try:
        assert "sams-bot" not in {b.name for b in kept.list_bots(include_removed=True)}
    finally:
        kept.close()

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
            "/simple/slowpkg/") >= 2, timeout=600)
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
               .returncode == 0, timeout=600, every=0.5)
