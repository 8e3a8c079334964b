"""Submitted bots: content-addressed versions, built once, run read-only in the sandbox, and
hostile archives refused with one line before anything is written."""

from __future__ import annotations

import hashlib
import io
import json
import os
import stat
import subprocess
import sys
import tarfile
import warnings
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from arena.players import builds, submissions
from arena.players.sandbox import BUILD_INSIDE, Sandbox
from arena.storage.store import Store
from benchmarks.builds import wheel
from tests.helpers import cli

MANIFEST = 'name = "cautious"\ncommand = "python bot.py"\ngames = ["kill"]\n'
BOT = '''
import os
import sys
from bots.random_bot import RandomBot
from sdk.run import run

class Cautious(RandomBot):
    def on_start(self, match):
        super().on_start(match)
        try:
            open("scribble.txt", "w").write("mine now")
            print("wrote in its folder", file=sys.stderr)
        except OSError as err:
            print(f"cannot write in its folder: {err.strerror}", file=sys.stderr)
        print(f"cwd {os.getcwd()}", file=sys.stderr)
        print(f"sees the database: {os.path.exists(sys.argv[1])}", file=sys.stderr)
        print(f"beside its folder: {sorted(os.listdir('..'))} {sorted(os.listdir('../..'))}",
              file=sys.stderr)

run(Cautious)
'''


def _bot_folder(where: Path, manifest: str = MANIFEST, **files: str) -> Path:
    where.mkdir(parents=True)
    (where / "arena-bot.toml").write_text(manifest)
    (where / "bot.py").write_text(BOT)
    for name, text in files.items():
        (where / name).write_text(text)
    return where


def _zip_of(folder: Path, target: Path, top: str = "") -> Path:
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.rglob("*")):
            archive.write(path, f"{top}{path.relative_to(folder).as_posix()}")
    return target


def _submit(path: Path, db: Path, *args: str, check: bool = True) -> dict[str, object]:
    done = cli("bot", "submit", str(path), *args, "--json", db=db, check=check)
    return dict(json.loads(done.stdout)["submission"])


def test_the_same_code_from_a_folder_a_zip_or_a_tarball_is_one_version_kept_once(
        tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    folder = _bot_folder(tmp_path / "cautious")
    first = _submit(folder, db, "--label", "v1")
    assert first["new"] is True and first["bot"] == "cautious@v1" and first["files"] == 2
    sha = hashlib.sha256(Store(str(db)).bot_code(str(first["content_hash"])).archive).hexdigest()
    assert sha == first["content_hash"]

    packed = _zip_of(folder, tmp_path / "cautious.zip", top="cautious/")  # packed as its folder
    tarball = tmp_path / "cautious.tar.gz"
    with tarfile.open(tarball, "w:gz") as archive:
        archive.add(folder, arcname=".")
    for again in (folder, packed, tarball):  # a no-op that names the version, whatever the label
        same = _submit(again, db, "--label", "v9")
        assert (same["new"], same["bot"], same["content_hash"]) == (False, "cautious@v1", sha)
    said = cli("bot", "submit", str(packed), db=db).stdout
    assert f"cautious@v1 is this very code already (sha256 {sha}): nothing to do" in said

    (folder / "bot.py").write_text(BOT + "\n# a change\n")
    moved = cli("bot", "submit", str(folder), "--label", "v1", db=db, check=False)
    assert moved.returncode == 1 and moved.stderr.count("\n") == 1
    assert f"cautious@v1 already names code {sha[:12]}" in moved.stderr  # a label never moves
    second = _submit(folder, db)  # unlabelled: named by its hash
    assert second["new"] is True and second["bot"] == f"cautious@{str(second['content_hash'])[:12]}"
    store = Store(str(db))
    assert [(b.label, b.content_hash) for b in store.list_bots()] == [
        ("cautious@v1", sha), (str(second["bot"]), second["content_hash"])]
    listed = json.loads(cli("bot", "list", "--json", db=db).stdout)["bots"]
    assert [(b["bot"], b["content_hash"], b["games"]) for b in listed] == [
        ("cautious@v1", sha, ["kill"]), (second["bot"], second["content_hash"], ["kill"])]


def test_a_submitted_version_plays_from_its_stored_folder_read_only_in_the_sandbox(
        tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    folder = _bot_folder(tmp_path / "cautious",
                         MANIFEST.replace("python bot.py", f"python bot.py {db}"))
    sha = str(_submit(folder, db, "--label", "v1")["content_hash"])
    (folder / "bot.py").write_text("raise SystemExit('the submitted copy runs, not this one')")
    (tmp_path / "arena-data" / "bots" / ("0" * 64)).mkdir()  # another version's folder
    cli("bot", "add", "random", "--command", "python -m bots.random_bot", db=db)
    cli("bot", "add", "other", "--command", "python -m bots.random_bot", db=db)
    refused = cli("tournament", "run", "--game", "face-card-kill-card", "--bot", "cautious",
                  "--bot", "random", db=db, check=False)
    assert refused.returncode == 1
    assert refused.stderr.strip() == ("error: cautious@v1 does not play face-card-kill-card (its "
                                     "manifest names kill)")
    cli("tournament", "run", "--game", "kill", "--bot", "cautious", "--bot", "random", "--bot",
        "other", "--players", "3", "--seed", "2", db=db)
    store = Store(str(db))
    matches = store.list_matches(None, 100)
    assert len(matches) == 3 and {s.fault for m in matches for s in m.seats} == {""}
    code = tmp_path / "arena-data" / "bots" / sha / "code"
    log = (tmp_path / "arena-data" / "logs" / "cautious@v1.log").read_text()
    assert f"cwd {code}" in log and "cannot write in its folder: Read-only file system" in log
    assert "sees the database: False" in log and "wrote in its folder" not in log
    # nothing of the data folder it is kept in: no logs, no other version's folder
    assert f"beside its folder: ['code'] ['{sha}']" in log
    assert stat.S_IMODE(code.stat().st_mode) == 0o555 and not (code / "scribble.txt").exists()

    # another machine (or a lost data folder): the version is unpacked again from the database
    os.chmod(code, 0o755)
    for path in code.iterdir():
        path.unlink()
    code.rmdir()
    cli("tournament", "run", "--game", "kill", "--bot", "cautious", "--bot", "random", "--bot",
        "other", "--players", "3", "--seed", "3", db=db)
    assert (code / "bot.py").read_text() == BOT


USES_DEP = '''
import sys
import tinydep
from bots.random_bot import RandomBot
from sdk.run import run
print(f"tinydep says {tinydep.VALUE}", file=sys.stderr)
run(RandomBot)
'''


def test_requirements_are_installed_once_at_submission_and_the_bot_imports_them(
        tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    folder = _bot_folder(tmp_path / "deps", MANIFEST + 'requirements = "requirements.txt"\n',
                         **{"requirements.txt": "./tinydep-1.0-py3-none-any.whl\n"})
    (folder / "bot.py").write_text(USES_DEP)
    wheel(folder, "tinydep", "VALUE = 'hello from a dependency'\n")
    done = _submit(folder, db, "--label", "v1")
    assert done["new"] is True and isinstance(done["build_s"], float)
    deps = tmp_path / "arena-data" / "bots" / str(done["content_hash"]) / "deps"
    assert (deps / "tinydep" / "__init__.py").is_file()
    assert _submit(folder, db)["build_s"] is None  # the same code: nothing built again
    cli("bot", "add", "random", "--command", "python -m bots.random_bot", db=db)
    cli("bot", "add", "other", "--command", "python -m bots.random_bot", db=db)
    cli("tournament", "run", "--game", "kill", "--bot", "cautious", "--bot", "random", "--bot",
        "other", "--players", "3", "--seed", "2", db=db)
    assert {s.fault for m in Store(str(db)).list_matches(None, 10) for s in m.seats} == {""}
    log = (tmp_path / "arena-data" / "logs" / "cautious@v1.log").read_text()
    assert "tinydep says hello from a dependency" in log


def test_a_failed_build_refuses_the_submission_shows_its_log_and_writes_nothing(
        tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    folder = _bot_folder(tmp_path / "broken", MANIFEST + 'requirements = "requirements.txt"\n',
                         **{"requirements.txt": "./tinydep-1.0-py3-none-any.whl\n"})
    wheel(folder, "tinydep", "VALUE = 'never installed'\n", "Requires-Python: >=4\n")  # no Python here is 4
    done = cli("bot", "submit", str(folder), db=db, check=False)
    assert done.returncode == 1 and "Traceback" not in done.stdout + done.stderr
    assert done.stderr.strip().startswith("error: submission of cautious refused: its "
                                          "requirements could not be installed: Package "
                                          "'tinydep' requires a different Python")
    assert "tinydep" in done.stdout  # pip's own words, from its log
    assert not db.exists() and not (tmp_path / "arena-data").exists()


# ---------------------------------------------------------------- hostile archives

Builder = Callable[[Path], Path]


def _tar(target: Path, *members: tuple[tarfile.TarInfo, bytes | None], gz: bool = True) -> Path:
    with tarfile.open(target, "w:gz" if gz else "w") as archive:
        manifest = MANIFEST.encode()
        info = tarfile.TarInfo("arena-bot.toml")
        info.size = len(manifest)
        archive.addfile(info, io.BytesIO(manifest))
        for member, data in members:
            archive.addfile(member, None if data is None else io.BytesIO(data))
    return target


def _member(name: str, kind: bytes = tarfile.REGTYPE, data: bytes = b"", link: str = "",
            size: int | None = None) -> tuple[tarfile.TarInfo, bytes | None]:
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, link
    info.size = len(data) if size is None else size
    return info, data if kind == tarfile.REGTYPE else None


def _zip(target: Path, *members: tuple[str, bytes], attrs: dict[str, int] | None = None,
         deflate: bool = True) -> Path:
    with warnings.catch_warnings(), zipfile.ZipFile(
            target, "w", zipfile.ZIP_DEFLATED if deflate else zipfile.ZIP_STORED) as archive:
        warnings.simplefilter("ignore", UserWarning)  # a duplicate name, on purpose
        archive.writestr("arena-bot.toml", MANIFEST)
        for name, data in members:
            info = zipfile.ZipInfo(name)
            info.compress_type = zipfile.ZIP_DEFLATED if deflate else zipfile.ZIP_STORED
            if attrs and name in attrs:
                info.external_attr = attrs[name] << 16
            archive.writestr(info, data)
    return target


def _folder_with(link: str | None = None, fifo: bool = False) -> Builder:
    def build(tmp: Path) -> Path:
        folder = _bot_folder(tmp / "bot")
        if link is not None:
            (folder / "data").symlink_to(link)
        if fifo:
            os.mkfifo(folder / "pipe")
        return folder
    return build


HOSTILE: dict[str, tuple[Builder, str]] = {
    "zip path traversal": (lambda t: _zip(t / "b.zip", ("../evil.py", b"x")),
                           "'../evil.py': a path that leads out of the bot's folder"),
    "tar path traversal": (lambda t: _tar(t / "b.tgz", _member("sub/../../evil.py", data=b"x")),
                           "a path that leads out of the bot's folder"),
    "zip absolute path": (lambda t: _zip(t / "b.zip", ("/etc/evil", b"x")),
                          "'/etc/evil': an absolute path"),
    "tar absolute path": (lambda t: _tar(t / "b.tar.gz", _member("/tmp/evil", data=b"x")),
                          "'/tmp/evil': an absolute path"),
    "zip backslash path": (lambda t: _zip(t / "b.zip", ("..\\evil.py", b"x")),
                           "a name with a backslash or a NUL"),
    "tar symlink out": (lambda t: _tar(t / "b.tgz", _member("passwd", tarfile.SYMTYPE,
                                                              link="/etc/passwd")),
                        "'passwd' is a link to '/etc/passwd', outside the submission"),
    "tar relative symlink out": (lambda t: _tar(t / "b.tgz", _member("up", tarfile.SYMTYPE,
                                                                       link="../../outside")),
                                 "'up' is a link to '../../outside', outside the submission"),
    "zip symlink out": (lambda t: _zip(t / "b.zip", ("key", b"/root/.ssh/id_rsa"),
                                       attrs={"key": stat.S_IFLNK | 0o777}),
                        "'key' is a link to '/root/.ssh/id_rsa', outside the submission"),
    "folder symlink out": (_folder_with(link="/etc/passwd"),
                           "'data' is a link to '/etc/passwd', outside the submission"),
    "tar hard link out": (lambda t: _tar(t / "b.tgz", _member("shadow", tarfile.LNKTYPE,
                                                                link="/etc/shadow")),
                          "'shadow' is a hard link to '/etc/shadow', outside the submission"),
    "tar hard link to no member": (lambda t: _tar(t / "b.tgz", _member("copy", tarfile.LNKTYPE,
                                                                         link="elsewhere.py")),
                                   "'copy' is a hard link to 'elsewhere.py', outside"),
    "tar device file": (lambda t: _tar(t / "b.tgz", _member("mem", tarfile.CHRTYPE)),
                        "'mem' is a device file, FIFO or socket"),
    "tar fifo": (lambda t: _tar(t / "b.tgz", _member("pipe", tarfile.FIFOTYPE)),
                 "'pipe' is a device file, FIFO or socket"),
    "zip device file": (lambda t: _zip(t / "b.zip", ("tty", b""), attrs={"tty": stat.S_IFCHR | 0o666}),
                        "'tty' is a device file, FIFO or socket"),
    "folder fifo": (_folder_with(fifo=True), "'pipe' is a device file, FIFO or socket"),
    "zip bomb": (lambda t: _zip(t / "b.zip", ("zeros", bytes(100 * 2**20))),
                 "'zeros' unpacks to 104,857,600 bytes from"),
    "gzip bomb": (lambda t: _tar(t / "b.tgz", _member("zeros", data=bytes(40 * 2**20))),
                  "'zeros' is over 33,554,432 bytes"),
    "over the total size": (lambda t: _tar(t / "b.tgz", *(_member(f"z{i}", data=bytes(30 * 2**20))
                                                           for i in range(3))),
                            "its files come to more than 67,108,864 bytes"),
    "over the archive size": (lambda t: _zip(t / "b.zip", ("noise", os.urandom(21 * 2**20)),
                                             deflate=False),
                              "b.zip is 22,020,"),
    "over the file count": (lambda t: _zip(t / "b.zip", *((f"f{i}", b"") for i in range(2001))),
                            "more than 2,000 files and folders"),
    "duplicate entry": (lambda t: _zip(t / "b.zip", ("bot.py", b"a"), ("bot.py", b"b")),
                        "'bot.py' appears twice"),
    "not an archive": (lambda t: _file(t / "b.zip", b"PK\x03\x04 not really"),
                       "not a readable zip archive"),
    "unknown kind": (lambda t: _file(t / "b.rar", b"Rar!"),
                     "b.rar is no folder, .zip, .tar.gz or .tar"),
    "no manifest": (lambda t: _zip_without_manifest(t / "b.zip"),
                    "no arena-bot.toml at the top of the submission"),
    "bad manifest": (lambda t: _bot_folder(t / "bot", 'name = "x"\ncommand = "python bot.py"\n'
                                                      'games = ["chess"]\n'),
                     "arena-bot.toml: unknown game 'chess'"),
    "manifest not toml": (lambda t: _bot_folder(t / "bot", "name = cautious"),
                          "arena-bot.toml is not valid TOML"),
    "program not in the submission": (lambda t: _bot_folder(
        t / "bot", MANIFEST.replace("python bot.py", "./run-me")),
        "the command's program './run-me' is no executable file of the submission"),
}


def _file(target: Path, data: bytes) -> Path:
    target.write_bytes(data)
    return target


def _zip_without_manifest(target: Path) -> Path:
    with zipfile.ZipFile(target, "w") as archive:
        archive.writestr("bot.py", BOT)
    return target


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_submission_is_refused_in_one_line_and_nothing_is_written(
        tmp_path: Path, case: str) -> None:
    build, said = HOSTILE[case]
    source = build(tmp_path)
    db = tmp_path / "db" / "arena.db"
    db.parent.mkdir()
    done = cli("bot", "submit", str(source), db=db, check=False)
    assert done.returncode == 1, done.stdout
    assert "Traceback" not in done.stdout + done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: "), done.stderr
    assert said in done.stderr, done.stderr
    assert list(db.parent.iterdir()) == []  # no database, no data folder
    # and the attack gained nothing: no file it names was written, in here or where it points
    assert not [p for p in tmp_path.rglob("evil*")] and not Path("/tmp/evil").exists()
    assert not Path("/etc/evil").exists()


def test_a_stored_archive_is_unpacked_only_if_it_has_its_hash(tmp_path: Path) -> None:
    folder = _bot_folder(tmp_path / "bot")
    submission = submissions.read_submission(folder, ["kill"])
    tampered = submission.archive.replace(b"RandomBot", b"EvilBot__")
    with pytest.raises(submissions.SubmissionError, match="does not have that hash"):
        builds.materialize(tampered, submission.sha256, tmp_path / "store")
    installed, built = builds.materialize(submission.archive, submission.sha256,
                                               tmp_path / "store")
    assert built is None and (installed.code / "bot.py").read_text() == BOT


PROBE = '''
import os, sys
db, folder, writable = sys.argv[1:4]
print("db", os.path.exists(db))
for where in (folder, writable):
    try:
        open(os.path.join(where, "written"), "w").write("x")
        print("wrote", where == writable)
    except OSError as err:
        print("refused", where == writable, err.strerror)
print("processes", sorted(p for p in os.listdir("/proc") if p.isdigit()))
'''


def test_a_build_runs_in_the_sandbox_writing_only_its_own_folder(tmp_path: Path) -> None:
    """What a build runs sees nothing of the arena, may write only its own tmpfs, and has no
    network at all (tests/players/test_builds.py tries to reach the arena's services)."""
    db = tmp_path / "arena.db"
    db.write_text("secret")
    folder = tmp_path / "source"
    folder.mkdir()
    command = Sandbox(hidden=(db,)).build_command(
        [sys.executable, "-c", PROBE, str(db), str(folder), BUILD_INSIDE], folder, {}, build_mb=8)
    assert "--share-net" not in command and "--unshare-all" in command
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=True)
    lines = done.stdout.splitlines()
    assert lines[:3] == ["db False", "refused False Read-only file system", "wrote True"]
    assert lines[3] in ("processes ['1', '2']", "processes ['1']")  # its own only
    assert not (folder / "written").exists() and not list(tmp_path.rglob("written"))
