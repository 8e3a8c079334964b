"""Builds of submitted requirements, attacked for real: no author code ever runs with a route
to the arena (a package's build backend never runs; the build sandbox has no network), a
build's output is checked before a bot sees it, and a build is held to its limits.

The attacks that drive a real ``arena serve`` (an operator's index, slow builds and upload
places) are in ``tests/players/test_builds_served.py``.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.players import buildbox
from arena.players.requirements import RequirementError, parse
from arena.players.submissions import BuildError
from arena.storage.store import Store
from benchmarks.archives import many_entries_zip
from benchmarks.builds import DISK_FILL, FORK_BOMB, HOG, contained, wheel
from tests.helpers import (
    cgroup_required,
    cli,
    eventually,
    fault_reasons,
    new_marker,
    processes_with,
)
from tests.served import Served

pytestmark = pytest.mark.usefixtures("sandboxed")


class Listener:
    """A TCP listener on 127.0.0.1 (what an arena's services look like to a build), counting
    the connections it accepts."""

    def __init__(self) -> None:
        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen(16)
        self.port = self.socket.getsockname()[1]
        self.connections = 0
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self.socket.accept()
            except OSError:
                return
            self.connections += 1
            connection.close()

    def close(self) -> None:
        self.socket.close()


@pytest.fixture
def listener() -> Iterator[Listener]:
    opened = Listener()
    yield opened
    opened.close()


BACKEND = '''
"""A PEP 517 backend that attacks whoever builds with it: a marker file, a connection."""
import socket


def _attack():
    with open({marker!r}, "w") as out:
        out.write("the backend ran")
    try:
        socket.create_connection(("127.0.0.1", {port}), timeout=5).close()
    except OSError:
        pass


def get_requires_for_build_wheel(config_settings=None):
    _attack()
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    _attack()
    raise RuntimeError("no metadata from me")


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    _attack()
    raise RuntimeError("no wheel from me")


def get_requires_for_build_sdist(config_settings=None):
    _attack()
    return []


def build_sdist(sdist_directory, config_settings=None):
    _attack()
    raise RuntimeError("no sdist from me")
'''
PYPROJECT = '''[build-system]
requires = []
build-backend = "backend"
backend-path = ["."]

[project]
name = "{name}"
version = "1.0"
'''


def hostile_package(folder: Path, name: str, marker: Path, port: int) -> Path:
    """A local package whose in-tree build backend attacks (see :data:`BACKEND`)."""
    folder.mkdir(parents=True)
    (folder / "pyproject.toml").write_text(PYPROJECT.format(name=name))
    (folder / "backend.py").write_text(BACKEND.format(marker=str(marker), port=port))
    return folder


MANIFEST = ('name = "{name}"\ncommand = "python bot.py"\ngames = ["face-card-kill-card"]\n'
            'requirements = "requirements.txt"\n')
RANDOM_BOT = "from bots.random_bot import RandomBot\nfrom sdk.run import run\nrun(RandomBot)\n"


def bot_folder(folder: Path, name: str, requirements: str | None,
               bot: str = RANDOM_BOT) -> Path:
    """A bot's folder; ``requirements``: its requirements file (None: it has none)."""
    folder.mkdir(parents=True, exist_ok=True)
    manifest = MANIFEST.format(name=name)
    if requirements is None:
        manifest = manifest.replace('requirements = "requirements.txt"\n', "")
    else:
        (folder / "requirements.txt").write_text(requirements)
    (folder / "arena-bot.toml").write_text(manifest)
    (folder / "bot.py").write_text(bot)
    return folder


# ---------------------------------------------------------------- author code never runs


def test_a_local_package_with_a_build_backend_is_refused_and_its_backend_never_runs(
        tmp_path: Path, listener: Listener) -> None:
    marker = tmp_path / "marker"
    folder = bot_folder(tmp_path / "bot", "builder", "./hostile\n")
    hostile_package(folder / "hostile", "hostile", marker, listener.port)
    db = tmp_path / "arena.db"
    done = cli("bot", "submit", str(folder), db=db, check=False)
    assert done.returncode == 1 and "Traceback" not in done.stdout + done.stderr
    assert done.stderr == ("error: requirements.txt, line 1: './hostile' is a folder or a source "
                           "archive; only wheels (.whl) of the submission are installed (no "
                           "package's build runs here)\n")
    assert listener.connections == 0 and not marker.exists()
    assert not db.exists() and not (tmp_path / "arena-data").exists()

    # control: the very package, installed by pip outside the arena, does attack
    plain = subprocess.run([sys.executable, "-m", "pip", "install", "--no-index", "--target",
                            str(tmp_path / "plain"), str(folder / "hostile")],
                           capture_output=True, text=True, timeout=300)
    assert plain.returncode != 0 and marker.read_text() == "the backend ran"
    assert listener.connections >= 1


@pytest.mark.parametrize(("line", "said"), [
    ("hostile @ file:///srv/hostile", "line 2: a URL"),
    ("hostile @ http://127.0.0.1:10001/hostile-1.0-py3-none-any.whl", "line 2: a URL"),
    ("http://127.0.0.1:8265/api/jobs", "line 2: a URL"),
    ("git+https://example.org/hostile.git", "line 2: a URL"),
    ("-e ./hostile", "line 2: an editable install (-e)"),
    ("-r more.txt", "line 2: an include of another file (-r)"),
    ("-c constraints.txt", "line 2: an include of another file (-c)"),
    ("--index-url http://127.0.0.1:10001/simple", "line 2: --index-url chooses where packages"),
    ("-i http://127.0.0.1:10001/simple", "line 2: -i chooses where packages come from"),
    ("--extra-index-url=http://127.0.0.1:10001/simple", "line 2: --extra-index-url chooses"),
    ("--find-links http://127.0.0.1:10001/", "line 2: --find-links chooses"),
    ("--trusted-host 127.0.0.1", "line 2: --trusted-host chooses"),
    ("attrs --index-url http://127.0.0.1:10001/", "line 2: --index-url chooses"),
    ("--pre", "line 2: the option '--pre'"),
    ("./hostile-1.0.tar.gz", "'./hostile-1.0.tar.gz' is a folder or a source archive"),
    ("./hostile", "'./hostile' is a folder or a source archive"),
    ("../outside-1.0-py3-none-any.whl", "is not a file of the submission"),
    ("./leads-out-1.0-py3-none-any.whl", "is not a file of the submission"),
    ("./missing-1.0-py3-none-any.whl", "is not in the submission"),
    ("./vendored/urldep-1.0-py3-none-any.whl", "its dependency evil comes from a URL"),
    ("not a requirement!", "line 2: not a requirement"),
], ids=lambda value: value if len(value) < 40 else value[:40])
def test_requirement_lines_that_would_reach_elsewhere_are_refused(
        tmp_path: Path, line: str, said: str) -> None:
    code = tmp_path / "code"
    (code / "hostile").mkdir(parents=True)
    (code / "hostile-1.0.tar.gz").write_bytes(b"sdist")
    outside = wheel(tmp_path, "outside", "")
    (code / "leads-out-1.0-py3-none-any.whl").symlink_to(outside)
    (code / "vendored").mkdir()
    wheel(code / "vendored", "urldep", "",
          "Requires-Dist: evil @ http://127.0.0.1:10001/evil-1.0-py3-none-any.whl\n")
    with pytest.raises(RequirementError) as refused:
        parse(f"# a comment\n{line}\n", code, "requirements.txt")
    message = str(refused.value)
    assert said in message and "\n" not in message and str(tmp_path) not in message


def test_a_url_dependency_hidden_past_a_megabyte_of_metadata_is_refused_and_never_fetched(
        tmp_path: Path, listener: Listener) -> None:
    """A vendored wheel whose METADATA holds a ``Requires-Dist`` with a URL after more than
    :data:`~arena.players.requirements.MAX_METADATA` bytes of padding: the arena's pip would
    fetch it from the server's loopback (the control), so the arena refuses the wheel, and
    nothing is fetched, kept or written."""
    from arena.players.requirements import MAX_METADATA

    padding = "".join(f"Classifier: padding {i:08d} {'x' * 100}\n"
                      for i in range(MAX_METADATA // 100))
    evil = f"Requires-Dist: evil @ http://127.0.0.1:{listener.port}/evil-1.0-py3-none-any.whl\n"
    db = tmp_path / "arena.db"
    folder = bot_folder(tmp_path / "bot", "padded", "./padded-1.0-py3-none-any.whl\n")
    made = wheel(folder, "padded", "", padding + evil)
    done = cli("bot", "submit", str(folder), db=db, check=False)
    assert done.returncode == 1 and "Traceback" not in done.stdout + done.stderr
    assert done.stderr == (f"error: padded-1.0-py3-none-any.whl: its METADATA is over "
                           f"{MAX_METADATA:,} bytes\n")
    assert listener.connections == 0
    assert not db.exists() and not (tmp_path / "arena-data").exists()

    # control: pip, handed that wheel, reads past any cap and reaches for the URL
    plain = subprocess.run([sys.executable, "-m", "pip", "download", "--only-binary=:all:",
                            "--no-input", "--disable-pip-version-check", "--dest",
                            str(tmp_path / "fetched"), str(made)],
                           capture_output=True, text=True, timeout=300)
    assert plain.returncode != 0 and listener.connections >= 1, plain.stdout + plain.stderr


def test_a_metadata_bomb_in_a_vendored_wheel_is_refused_without_unpacking_it(
        tmp_path: Path) -> None:
    """256 MiB of METADATA packed into a quarter of a MiB: refused having read a megabyte."""
    import tracemalloc

    code = tmp_path / "code"
    code.mkdir()
    bomb = wheel(code, "bomb", "")
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive, \
            archive.open("bomb-1.0.dist-info/METADATA", "w") as out:
        out.write(b"Metadata-Version: 2.1\nName: bomb\nVersion: 1.0\nSummary: ")
        for _ in range(256):
            out.write(b" " * 2**20)
    assert bomb.stat().st_size < 2**20
    tracemalloc.start()
    try:
        with pytest.raises(RequirementError, match="its METADATA is over"):
            parse(f"./{bomb.name}\n", code)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16 * 2**20


@pytest.mark.parametrize(("listed", "said"), [
    (None, "the zip lists 370,000 entries"),
    (1, "the zip's directory holds more entries than its end record says"),
], ids=["stated in zip64", "a lie"])
def test_a_vendored_wheel_listing_370000_entries_is_refused_by_its_count_before_zipfile_reads_it(
        tmp_path: Path, listed: int | None, said: str) -> None:
    """The count guard of submitted zips (:func:`arena.players.archives.zip_entries_over`) is
    the wheel's too: zipfile would make an object of each of the 370,000 records."""
    import tracemalloc

    code = tmp_path / "code"
    code.mkdir()
    huge = code / "huge-1.0-py3-none-any.whl"
    huge.write_bytes(many_entries_zip(listed=listed))
    tracemalloc.start()
    try:
        with pytest.raises(RequirementError) as refused:
            parse(f"./{huge.name}\n", code)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert str(refused.value) == f"{huge.name}: more than 20,000 entries ({said})"
    assert peak < 2**20
    with zipfile.ZipFile(huge) as opened:  # the control: zipfile reads every record
        assert len(opened.infolist()) == 370_000


def test_plain_requirements_and_vendored_wheels_are_let_through(tmp_path: Path) -> None:
    code = tmp_path / "code"
    code.mkdir()
    mine = wheel(code, "mine", "", "Requires-Dist: attrs>=20; python_version >= '3.8'\n")
    digest = "0" * 64
    found = parse(f"attrs[tests]>=20,<30 ; python_version >= '3.8'  # why not\n"
                  f"six==1.16.0 \\\n    --hash=sha256:{digest}\n./{mine.name}\n", code)
    assert [str(r) for r, _ in found.index] == ['attrs[tests]<30,>=20; python_version >= "3.8"',
                                                "six==1.16.0"]
    assert found.index[1][1] == (f"--hash=sha256:{digest}",) and found.wheels == (mine,)


def test_a_vendored_wheel_installs_offline_and_one_that_writes_out_is_refused(
        tmp_path: Path) -> None:
    """A wheel of the submission is installed (pip in the sandbox, without network) and the
    bot imports it (see also test_submissions); a wheel with an entry leading out of its
    folder is refused by that pip, writes nothing anywhere, and the log the author reads
    names none of this machine's paths."""
    db = tmp_path / "arena.db"
    good = bot_folder(tmp_path / "good", "good", "./tinydep-1.0-py3-none-any.whl\n")
    wheel(good, "tinydep", "VALUE = 'vendored'\n")
    cli("bot", "submit", str(good), db=db)
    installed = next((tmp_path / "arena-data" / "bots").glob("*/deps/tinydep/__init__.py"))
    assert installed.read_text() == "VALUE = 'vendored'\n"

    bad = bot_folder(tmp_path / "bad", "bad", "./tinydep-1.0-py3-none-any.whl\n")
    made = wheel(bad, "tinydep", "VALUE = 'vendored'\n")
    with zipfile.ZipFile(made, "a") as archive:
        archive.writestr("../../../../escape.py", "print('out')\n")
    done = cli("bot", "submit", str(bad), db=db, check=False)
    assert done.returncode == 1 and "Traceback" not in done.stdout + done.stderr
    assert done.stderr == ("error: submission of bad refused: its requirements could not be "
                           "installed (pip exited with code 1) (its log ends above)\n")
    assert "trying to install outside the target directory" in done.stdout
    assert "<build>/wheels/tinydep-1.0-py3-none-any.whl" in done.stdout
    assert str(tmp_path) not in done.stdout + done.stderr
    assert not list(tmp_path.rglob("escape.py"))
    assert len(list((tmp_path / "arena-data" / "bots").iterdir())) == 1  # the good one only
    assert [b.name for b in Store(str(db)).list_bots(include_removed=True)] == ["good"]


# ---------------------------------------------------------------- the build sandbox has no network


PROBE = '''
import socket, sys
for target in sys.argv[1:]:
    try:
        if target.startswith("unix:"):
            connection = socket.socket(socket.AF_UNIX)
            connection.settimeout(10)
            connection.connect(target[5:])
        else:
            host, port = target.rsplit(":", 1)
            connection = socket.create_connection((host, int(port)), timeout=10)
        connection.close()
        print(target, "connected", file=sys.stderr)
    except OSError as err:
        print(target, "refused", type(err).__name__, file=sys.stderr)
'''


def _pg_socket(uri: str) -> str:
    """The Unix socket of a pgserver URI (``...?host=/folder``)."""
    folder = uri.split("host=", 1)[1].split("&", 1)[0]
    return f"unix:{folder}/.s.PGSQL.5432"


def test_a_build_reaches_nothing_of_the_arena(tmp_path: Path, listener: Listener,
                                             postgres_server: str) -> None:
    """The arena's doors (a listener on the loopback, PostgreSQL's socket, the operator port
    and the web app of a real ``arena serve``) are reachable from this machine, and none of
    them from a build."""
    served = Served(tmp_path / "served.db")
    try:
        targets = [f"127.0.0.1:{listener.port}", _pg_socket(postgres_server),
                   served.address, served.web.removeprefix("http://")]
        plain = subprocess.run([sys.executable, "-c", PROBE, *targets], capture_output=True,
                               text=True, timeout=60)
        assert plain.stderr.splitlines() == [f"{t} connected" for t in targets]  # the control
        seen_before = listener.connections
        log_path = tmp_path / "build.log"
        with log_path.open("wb") as file:
            log = buildbox.Log(file)
            buildbox.run_build([sys.executable, "-c", PROBE, *targets], tmp_path, tmp_path / "out",
                               log, time.monotonic() + 300)
        lines = log.text().splitlines()
    finally:
        served.stop()
    assert [line.rsplit(" ", 1)[0] for line in lines] == [f"{t} refused" for t in targets], lines
    assert listener.connections == seen_before


# ---------------------------------------------------------------- a deps folder replaced by a link


SPY = '''
import os, sys
for folder in os.environ.get("PYTHONPATH", "").split(":"):
    try:
        print("read:", open(os.path.join(folder, "secret.txt")).read(), file=sys.stderr)
    except OSError as err:
        print("cannot read it:", err.strerror, file=sys.stderr)
'''
SPY_BOT = SPY + RANDOM_BOT


def test_a_deps_folder_replaced_by_a_link_is_never_shown(tmp_path: Path) -> None:
    """What a daemon left by a build once did: ``deps`` swapped for a link once pip was done.
    The bot is not started with it; its seats are no-shows and every match is played."""
    db = tmp_path / "arena.db"
    folder = bot_folder(tmp_path / "spy", "spy", "./tinydep-1.0-py3-none-any.whl\n", SPY_BOT)
    wheel(folder, "tinydep", "VALUE = 1\n")
    cli("bot", "submit", str(folder), "--label", "v1", db=db)
    cli("bot", "add", "random", "--command", "python -m bots.random_bot", db=db)
    deps = next((tmp_path / "arena-data" / "bots").glob("*/deps"))
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "secret.txt").write_text("the hole cards of another author")
    deps.rename(tmp_path / "the-real-deps")
    deps.symlink_to(secret)
    # control: the spy reads what its PYTHONPATH folder holds, when it is shown
    shown = subprocess.run([sys.executable, "-c", SPY],
                           env={**os.environ, "PYTHONPATH": str(deps)}, capture_output=True,
                           text=True, timeout=60)
    assert "read: the hole cards of another author" in shown.stderr
    done = cli("tournament", "run", "--game", "face-card-kill-card", "--bot", "spy", "--bot", "random",
               "--players", "2", "--seed", "2", "--keep-going", db=db)
    assert "Traceback" not in done.stdout + done.stderr
    matches = Store(str(db)).list_matches(None, 10)
    assert len(matches) == 2 and {m.status for m in matches} == {"finished"}
    assert {s.fault for m in matches for s in m.seats if s.bot == "spy@v1"} == {"no-show"}
    # each match knew its process had ended, and waited no start timeout for it
    assert {reason for *_, reason in fault_reasons(db)} == {
        "its process ended before it connected"}
    logs = "".join(p.read_text() for p in (tmp_path / "arena-data" / "logs").iterdir())
    assert "hole cards" not in logs
    assert "arena: not started: 'deps' is not a folder (a link or a file in its place)" in logs


# ---------------------------------------------------------------- limits


DAEMON = '''
import os, sys, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execvp(sys.executable, [sys.executable, "-c", "import time; time.sleep(3600)", sys.argv[1]])
    os._exit(0)
time.sleep(3600)
'''


def test_a_fork_bomb_stops_at_the_builds_task_limit(tmp_path: Path) -> None:
    cgroup_required("pids")
    marker = new_marker("build-fork-bomb")  # on every fork's command line
    log, refused, _ = contained(tmp_path, FORK_BOMB, buildbox.BuildLimits(tasks=32), marker)
    assert refused is not None and "pip exited with code 1" in str(refused)
    made = int(log.split("fork refused after ", 1)[1].split()[0])
    assert 0 < made < 32, log
    assert not (tmp_path / "out").exists()
    assert processes_with(marker) == []  # not one of its forks outlives the build


def test_a_build_over_its_memory_is_killed(tmp_path: Path) -> None:
    cgroup_required("memory")
    log, refused, _ = contained(tmp_path, HOG, buildbox.BuildLimits(memory_mb=256))
    assert refused is not None and "went over its 256 MB of memory" in str(refused), log
    held = [int(line.split()[-1]) for line in log.splitlines() if line.startswith("held MiB")]
    assert held and max(held) < 256 and not (tmp_path / "out").exists()


def test_a_build_writing_a_big_file_fills_only_its_tmpfs(tmp_path: Path) -> None:
    before = {p for p in Path(tmp_path).rglob("*")}
    log, refused, _ = contained(tmp_path, DISK_FILL, buildbox.BuildLimits(output_mb=64))
    assert refused is not None, log
    written = int(log.split("refused after MiB ", 1)[1].split()[0])
    assert 56 <= written <= 64 and "No space left on device" in log
    assert {p for p in tmp_path.rglob("*")} - before == {tmp_path / "build.log"}


def test_a_build_is_killed_at_its_wall_clock_cap_with_what_it_left(tmp_path: Path) -> None:
    marker = new_marker("build-daemon")
    began = time.monotonic()
    log, refused, _ = contained(tmp_path, DAEMON, buildbox.BuildLimits(wall_s=3), marker)
    assert refused is not None and "it took longer than 3 s" in str(refused), log
    assert time.monotonic() - began >= 3
    assert processes_with(marker) == [] and not (tmp_path / "out").exists()


def test_a_build_output_is_copied_out_checked(tmp_path: Path) -> None:
    """Files, folders and links inside come out; a link out refuses the build."""
    inside = ("import os; d = '{build}/deps'; os.makedirs(d + '/pkg'); "
              "open(d + '/pkg/a.py', 'w').write('A = 1'); os.symlink('pkg/a.py', d + '/b.py')")
    _, refused, outcome = contained(tmp_path, inside, buildbox.BuildLimits())
    assert refused is None and outcome is not None
    assert (tmp_path / "out" / "pkg" / "a.py").read_text() == "A = 1"
    assert os.readlink(tmp_path / "out" / "b.py") == "pkg/a.py"
    out_link = "import os; os.symlink('/proc/1/cmdline', '{build}/deps/cmdline')"
    (tmp_path / "again").mkdir()
    _, refused, _ = contained(tmp_path / "again", out_link, buildbox.BuildLimits())
    assert refused is not None and "a link out of their folder ('cmdline')" in str(refused)
    assert not (tmp_path / "again" / "out").exists()
    # 's/..' reads as inside, and leads out once 's' is '.': the links are checked as followed
    out_physically = ("import os; d = '{build}/deps'; os.symlink('.', d + '/s'); "
                      "os.symlink('s/..', d + '/e')")
    (tmp_path / "third").mkdir()
    _, refused, _ = contained(tmp_path / "third", out_physically, buildbox.BuildLimits())
    assert refused is not None and "holds a link that leads out of it: 'e'" in str(refused)
    assert not (tmp_path / "third" / "out").exists()


def test_a_build_output_over_its_cap_is_refused_as_it_is_read(tmp_path: Path) -> None:
    """The tar a build hands out is read under a cap, whatever its headers claim."""
    import io
    import tarfile

    made = io.BytesIO()
    with tarfile.open(fileobj=made, mode="w") as archive:
        big = tarfile.TarInfo("big")
        big.size = 8 * 2**20
        archive.addfile(big, io.BytesIO(b"x" * big.size))
    made.seek(0)
    with pytest.raises(BuildError, match="its installed packages come to more than 1 MiB"):
        buildbox.copy_out(made, tmp_path / "out", 2**20)
    assert made.tell() <= 2**20 + 2**22 + 2**17  # read no further than the cap (and a buffer)


def test_a_build_reaches_no_ray_head(tmp_path: Path) -> None:
    """The door of the original attack: a Ray head's client port (no authentication) and its
    GCS port, both reachable from this machine, and neither from a build."""
    import tempfile

    from tests.tournament.test_cluster import Node, free_port

    gcs, client = free_port(), free_port()
    temp = tempfile.mkdtemp(prefix="ray-", dir="/tmp")  # short: Ray's socket paths live in it
    node = Node("--head", "--port", str(gcs), "--ray-client-server-port", str(client),
                "--temp-dir", temp, "--include-dashboard", "false")
    targets = [f"127.0.0.1:{gcs}", f"127.0.0.1:{client}"]
    try:
        def head_answers() -> bool:
            plain = subprocess.run([sys.executable, "-c", PROBE, *targets], capture_output=True,
                                   text=True, timeout=60)
            if plain.stderr.splitlines() == [f"{t} connected" for t in targets]:
                return True
            assert node.process.poll() is None, plain.stderr
            return False

        # the control: the head's ports take connections from this machine
        eventually("the Ray head's ports to take connections", head_answers, every=0.5)
        log_path = tmp_path / "build.log"
        with log_path.open("wb") as file:
            log = buildbox.Log(file)
            buildbox.run_build([sys.executable, "-c", PROBE, *targets], tmp_path, tmp_path / "out",
                               log, time.monotonic() + 300)
        lines = log.text().splitlines()
    finally:
        node.stop()
        shutil.rmtree(temp, ignore_errors=True)
    assert [line.rsplit(" ", 1)[0] for line in lines] == [f"{t} refused" for t in targets], lines
