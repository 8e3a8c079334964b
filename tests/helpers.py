"""Helpers shared by the tests: the `arena` command, servers and seats by hand, stores.

Fixtures live in ``conftest.py``; everything else two test modules need is here.
"""

from __future__ import annotations

import asyncio
import atexit
import inspect
import ipaddress
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Awaitable, Callable, Sequence
from contextlib import closing
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any, TypeVar, overload

import grpc
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from typer.testing import CliRunner

from arena.games import get_game
from arena.match.links import Player
from arena.match.referee import MatchSettings
from arena.net.bot_service import MatchHost, MatchSpec, create_server
from arena.players import cgroups
from arena.players.process import BotProcess
from arena.storage.store import MatchResult, ScheduledMatch, Store
from arena.v1 import arena_pb2 as pb
from arena.wire.tokens import digest

T = TypeVar("T")
GAME = "face-card-kill-card"  # the game most tests play: short matches, 2 to 12 seats
OPTIONS = dict(get_game(GAME).parse_options(4))
DEFAULT_SETTINGS = MatchSettings(move_timeout_s=5, start_timeout_s=10)
RAW_SETTINGS = MatchSettings(move_timeout_s=2, start_timeout_s=10)  # for seats played by hand


def arena(*args: str, db: Path | None = None, check: bool = True,
          env: dict[str, str] | None = None, timeout: float = 120,
          cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "arena", *args]
    if db is not None:
        command += ["--db", str(db)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd=cwd,
                            env={**os.environ, "COLUMNS": "200", **(env or {})})
    if check:
        assert result.returncode == 0, result.stdout + result.stderr
    return result


def eventually(what: str, predicate: Callable[[], T | None], timeout: float = 180.0,
               every: float = 0.1) -> T:
    """``predicate()`` once it is true (it is asked until then); the timeout is only a safety
    net for a test that would otherwise hang."""
    deadline = time.monotonic() + timeout
    while not (value := predicate()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(every)
    return value


@overload
async def eventually_async(what: str, predicate: Callable[[], Awaitable[T | None]],
                           timeout: float = ..., every: float = ...) -> T: ...
@overload
async def eventually_async(what: str, predicate: Callable[[], T | None],
                           timeout: float = ..., every: float = ...) -> T: ...
async def eventually_async(what: str, predicate: Callable[[], object], timeout: float = 180.0,
                           every: float = 0.1) -> object:
    """:func:`eventually` for a coroutine: ``predicate`` (a plain function or a coroutine
    function) is asked between sleeps that leave the event loop free to make it true."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(every)


@cache
def _migrated_template() -> Path:
    """One database migrated to the newest revision, made once per test process (each xdist
    worker has its own): migrating takes half a second, copying the file a few milliseconds."""
    folder = Path(tempfile.mkdtemp(prefix="arena-template-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    Store(str(folder / "arena.db")).close()
    return folder / "arena.db"


def cgroup_required(controller: str) -> None:
    """For a test that needs the ``controller`` cgroup: skipped on a machine without a usable
    one, but failed in CI (``CI`` set), which must exercise the real limits (as the
    ``sandboxed`` fixture does for bubblewrap)."""
    support = cgroups.detect()
    if not support.has(controller):
        if os.environ.get("CI"):
            pytest.fail(f"the {controller} cgroup must be usable in CI: {support.why_not}")
        pytest.skip(f"no usable {controller} cgroup on this machine: {support.why_not}")


def migrated_db(path: Path) -> Path:
    """``path``, a new SQLite file holding an empty arena database at the newest revision (a
    copy of :func:`_migrated_template`, readable by its owner only, as the store makes one).
    For tests whose subject is not the making of a database: those make their own."""
    assert not path.exists(), f"{path} exists already"
    shutil.copyfile(_migrated_template(), path)
    path.chmod(0o600)
    return path


def migrated_store(path: Path) -> Store:
    """A store on a new :func:`migrated_db` at ``path``."""
    return Store(str(migrated_db(path)))


def cli(*args: str, db: Path | None = None, check: bool = True,
        env: dict[str, str] | None = None, cwd: Path | None = None,
        input: str | None = None) -> subprocess.CompletedProcess[str]:
    """:func:`arena` in this process: the command line's own entry point (``arena``'s
    ``main``, which builds the command from ``arena.cli.app``) run under typer's
    :class:`CliRunner`, with the same environment, stdout, stderr and exit code as the
    ``python -m arena`` subprocess, without its second and a half of start-up. An exception
    the command line lets out is written to stderr as Python would, with exit code 1.

    For commands that need no process of their own: help, refused input, listings, JSON.
    Commands whose process is the subject (servers, bots, signals, the sandbox) use
    :func:`arena`."""
    runner = CliRunner()
    here, saved_argv, saved_main = Path.cwd(), sys.argv, sys.modules["__main__"]
    with runner.isolation(input=input, env={"COLUMNS": "200", **(env or {})}) as (out, err, _):
        import arena.__main__ as entry  # first imported here: its consoles see a pipe

        command = [str(entry.__file__), *args, *(["--db", str(db)] if db is not None else [])]
        try:
            if cwd is not None:
                os.chdir(cwd)
            # As `python -m arena` runs: the usage lines say "python -m arena".
            sys.argv, sys.modules["__main__"] = command, entry
            entry.main()
            code = 0
        except SystemExit as exit:
            code = exit.code if isinstance(exit.code, int) else (0 if exit.code is None else 1)
            if isinstance(exit.code, str):
                print(exit.code, file=sys.stderr)
        except Exception:
            traceback.print_exc()
            code = 1
        finally:
            sys.argv, sys.modules["__main__"] = saved_argv, saved_main
            os.chdir(here)
            sys.stdout.flush()
            sys.stderr.flush()
        stdout, stderr = out.getvalue().decode(), err.getvalue().decode()
    result = subprocess.CompletedProcess([sys.executable, "-m", "arena", *command[1:]], code,
                                         stdout, stderr)
    if check:
        assert result.returncode == 0, result.stdout + result.stderr
    return result


def fault_reasons(db: Path) -> list[tuple[int, int, str, str | None]]:
    """Every faulted seat of the database's bots: match, seat, fault and the referee's reason
    (for a test's message when seats fault that should not)."""
    with Store(str(db)) as store:
        return [(f.match_id, f.seat, f.fault, f.reason) for bot in store.list_bots()
                for f in store.bot_faults(bot.id, None, 1000)]


def add_bots(db: Path, marker: str = "") -> None:
    """The random and the heuristic bot; with ``marker`` as an extra argument of their
    commands (ignored by the bots), for :func:`processes_with`. A database not made yet is
    a :func:`migrated_db`."""
    if not db.exists():
        migrated_db(db)
    cli("bot", "add", "random", "--command", f"python -m bots.random_bot {marker}".strip(), db=db)
    cli("bot", "add", "heuristic", "--command",
        f"python -m bots.face_card_kill_card {marker}".strip(), db=db)


def new_marker(what: str) -> str:
    """A word no other process has on its command line: put on bot commands, it finds them."""
    return f"arena-{what}-{os.getpid()}-{time.monotonic_ns()}"


def assert_rebuild_changes_nothing(store: Store) -> None:
    """The ratings moved match by match equal a rebuild from the stored results, to the bit."""
    before = [(r.label, r.mu, r.sigma, r.matches) for r in store.leaderboard(GAME)]
    store.rebuild_ratings()
    assert [(r.label, r.mu, r.sigma, r.matches) for r in store.leaderboard(GAME)] == before


def finished_matches(db: Path) -> int:
    try:
        with closing(sqlite3.connect(db, timeout=5)) as connection:
            row = connection.execute("select count(*) from match where status = 'finished'").fetchone()
            return int(row[0])
    except sqlite3.OperationalError:
        return 0


def running(pid: int) -> bool:
    """Whether the process ``pid`` exists and is no zombie."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split()[2] != "Z"
    except (OSError, IndexError):
        return False


def processes_with(marker: str) -> list[int]:
    """Live processes with ``marker`` in their command line or environment (a bot gets it on
    its command line: the arena gives a bot none of its own environment)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            seen = (entry / "cmdline").read_bytes() + (entry / "environ").read_bytes()
        except OSError:
            continue
        if marker.encode() in seen and running(int(entry.name)):
            found.append(int(entry.name))
    return found


def run_seeing(command: Sequence[str], marker: str, timeout: float = 120,
               **popen: Any) -> tuple[subprocess.CompletedProcess[str], set[int]]:
    """Run ``command`` to its end (its output captured, as text), meanwhile looking for
    processes with ``marker``: (the finished process, the pids of those seen while it ran).
    A test asserting that no such process is left afterwards checks with the pids that its
    marker could be found at all."""
    seen: set[int] = set()
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            seen.update(processes_with(marker))
            done.wait(0.05)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, **popen) as process:
            try:
                out, err = process.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                raise
    finally:
        done.set()
        watcher.join()
    return subprocess.CompletedProcess(list(command), process.returncode, out, err), seen


def arena_seeing(marker: str, *args: str, db: Path | None = None,
                 env: dict[str, str] | None = None,
                 timeout: float = 120) -> tuple[subprocess.CompletedProcess[str], set[int]]:
    """:func:`arena` (checked) with :func:`run_seeing`'s look-out for ``marker``."""
    command = [sys.executable, "-m", "arena", *args, *(["--db", str(db)] if db else [])]
    result, seen = run_seeing(command, marker, timeout,
                              env={**os.environ, "COLUMNS": "200", **(env or {})})
    assert result.returncode == 0, result.stdout + result.stderr
    return result, seen


def wait_until_gone(marker: str, timeout: float = 60, outlived: str = "the killed arena") -> None:
    """Wait until no process has ``marker``; fails, saying the bot processes ``outlived``
    something, if some still do after ``timeout``."""
    try:
        eventually("the marked processes to end", lambda: not processes_with(marker), timeout)
    except AssertionError:
        raise AssertionError(f"bot processes outlived {outlived}") from None


def spec(match_id: str, tokens: tuple[str, ...], seed: int = 1,
         settings: MatchSettings = DEFAULT_SETTINGS, first: int | None = None) -> MatchSpec:
    """A match of Face Card / Kill Card; ``first``: the seat that must decide first."""
    options = dict(OPTIONS)
    if first is not None:
        options["dealer"] = (first - 1) % len(tokens)  # the dealer's left plays first
    return MatchSpec(match_id, GAME, len(tokens), seed, options, tuple(map(digest, tokens)),
                     tuple(f"bot{i}" for i in range(len(tokens))), settings)


Scenario = Callable[[MatchHost, int, Path], Awaitable[Any]]


def on_server(tmp_path: Path, scenario: Scenario) -> Any:
    async def main() -> Any:
        host = MatchHost()
        server, port = await create_server(host)
        try:
            return await scenario(host, port, tmp_path)
        finally:
            await server.stop(grace=0.5)

    return asyncio.run(main())


async def started(host: MatchHost, port: int, tmp_path: Path, name: str, command: str,
                  env: dict[str, str] | None = None) -> BotProcess:
    """A managed bot on the test's server (unsandboxed, over TCP), with ``env`` its extra
    environment variables."""
    bot = BotProcess(name, command, f"127.0.0.1:{port}", tmp_path / "logs", env=env or {})
    host.admit(bot.token)
    await bot.ensure_running()
    return bot


def is_alive(*bots: BotProcess) -> Callable[[int], Awaitable[bool]]:
    async def check(seat: int) -> bool:
        return await bots[seat].is_alive()

    return check


def round_robin(bot_ids: list[int], players: int, repeats: int = 1) -> list[ScheduledMatch]:
    """A small deterministic schedule: every rotation of the bots, repeated."""
    out: list[ScheduledMatch] = []
    for r in range(repeats):
        for shift in range(len(bot_ids)):
            seats = tuple(bot_ids[(shift + s) % len(bot_ids)] for s in range(players))
            out.append(ScheduledMatch(index=len(out), seed=1000 * r + shift, seat_bot_ids=seats))
    return out


def result_for(seats: tuple[int, ...], seed: int, fault_seat: int | None = None) -> MatchResult:
    """A made-up but deterministic result: ranks from the seed."""
    rng = random.Random(seed)
    scores = tuple(float(rng.randrange(4)) for _ in seats)
    ranks = tuple(1 + sum(o > s for o in scores) for s in scores)
    faults = tuple("timeout" if i == fault_seat else "" for i in range(len(seats)))
    return MatchResult(scores, ranks, faults, log=bytes([seed % 256]) * 10, duration_s=0.25)


def three_bots(store: Store) -> list[int]:
    return [store.add_bot(name, f"python -m bots.{name}").id for name in ("ann", "bob", "cat")]


def finish_all(path: str, tid: int, worker: int) -> int:
    """One worker process: try to finish every match, in its own order."""
    store = Store(path)
    todo = store.claim_unfinished(tid)
    random.Random(worker).shuffle(todo)
    wins = 0
    for m in todo:
        store.mark_running(m.id)
        wins += store.finish_match(m.id, result_for(m.seat_bot_ids, m.seed))
    store.close()
    return wins


def open_and_add(path: str, worker: int) -> str:
    with Store(path) as store:
        return store.add_bot(f"bot{worker}", "x").label


PLAY = "/arena.v1.BotService/Play"


ATTEND = "/arena.v1.BotService/Attend"


def raw(value: bytes) -> bytes:
    return value


def play_call(channel: grpc.aio.Channel) -> grpc.aio.StreamStreamCall[bytes, bytes]:
    """A Play stream that sends and receives raw bytes (so anything can be sent)."""
    return channel.stream_stream(PLAY, request_serializer=raw, response_deserializer=raw)(None)


def attend_call(channel: grpc.aio.Channel, token: str) -> grpc.aio.UnaryStreamCall[bytes, bytes]:
    return channel.unary_stream(ATTEND, request_serializer=raw, response_deserializer=raw)(
        pb.AttendRequest(token=token).SerializeToString())


def unknown_field(number: int, payload: bytes) -> bytes:
    """A length-delimited field the schema does not have (protobuf keeps it as unknown)."""
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for localhost and 127.0.0.1 (made with ``cryptography``, a dev dependency)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.now(UTC)
    certificate = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(minutes=5)).not_valid_after(now + timedelta(days=2))
        .add_extension(x509.SubjectAlternativeName([
            x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


class RandomPlayer(Player):
    """An in-process player: a random legal action, drawn from its own seed (so that a
    match's result depends on its seeds alone); from its ``fail_at``-th decision on, an
    answer that is no action at all."""

    def __init__(self, seed: int | str, fail_at: int | None = None) -> None:
        self._random = random.Random(seed)
        self.fail_at = fail_at
        self.decisions = 0

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        self.decisions += 1
        if self.fail_at is not None and self.decisions >= self.fail_at:
            return "not an action"
        return self._random.choice(list(legal_actions))
