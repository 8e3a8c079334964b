"""Archives that aim outside a version's folder, and archives too big to list.

- A chain of links that climbs when the kernel follows it, though as text it names an
  entry of the submission (``t -> a1/a2/a3/a4/a5/s/../../../../..`` where ``s`` is itself
  a link elsewhere), with a file beneath it that unpacking would write through the link;
  and its variants: a link to a folder with a file beneath it, a link to a link, a link
  loop, a link through a file, a file beside a file beneath it. Each is refused in one
  line by ``arena bot submit`` and by a real ``arena serve`` an author submits to, and
  again when a stored archive holding it is unpacked (with the reading's check turned
  off too: unpacking itself never follows a link); no file appears outside, no folder of
  the version is left. The control: the same archive, written out by an extractor that
  follows links, plants its file beside the data folder.
- A zip listing 370,000 entries is refused by its count (its end record, or its central
  directory's headers where the end record lies) before :mod:`zipfile` reads it whole.
- An error of the system while installing is one line with no path of the machine in it.
"""

from __future__ import annotations

import hashlib
import io
import os
import posixpath
import re
import stat
import struct
import tarfile
import tracemalloc
import zipfile
from pathlib import Path

import pytest

from arena.players import builds, submissions, unpacking
from arena.players.submissions import Entry, SubmissionError
from benchmarks.archives import many_entries_zip
from tests.helpers import cli
from tests.served import Served, remote

Member = tuple[str, str, bytes | str]  # (path, "file" | "dir" | "link", its bytes or target)

PLANTED = "planted.pth"  # what the attack writes: a .pth file runs in every Python started there
BASE: list[Member] = [
    ("arena-bot.toml", "file", b'name = "chain"\ncommand = "python bot.py"\ngames = ["kill"]\n'),
    ("bot.py", "file", b"from bots.random_bot import RandomBot\nfrom sdk.run import run\n"
                       b"run(RandomBot)\n"),
]
CHAIN: list[Member] = [
    *BASE, ("0", "dir", b""),
    *(("/".join(f"a{i}" for i in range(1, depth + 1)), "dir", b"") for depth in range(1, 6)),
    ("a1/a2/a3/a4/a5/s", "link", "../../../../../0"),  # to "0": inside, as text and on disk
    # as text "a1"; on disk s/.. is the bot's folder, and four more steps climb above it:
    # from <data>/bots/<hash>/.unpacking-*/code, to the data folder itself
    ("t", "link", "a1/a2/a3/a4/a5/s/../../../../.."),
]
BENEATH: Member = (f"t/{PLANTED}", "file", b"import os; os.system('echo owned')\n")
TO_A_LINK: list[Member] = [
    *BASE, ("0", "dir", b""), ("a1", "dir", b""), ("a1/a2", "dir", b""),
    ("a1/a2/s", "link", "../../0"), ("a1/a2/h", "link", "s"),  # h -> s -> 0
    ("t", "link", "a1/a2/h/../.."),  # as text "a1"; on disk: 0, the bot's folder, above it
]
VARIANTS: dict[str, tuple[list[Member], str]] = {
    "the chain and a file beneath it": (
        [*CHAIN, BENEATH], f"'t/{PLANTED}' lies beneath 't', which is a link, not a folder"),
    "the chain alone": (CHAIN, "'t' is a link to 'a1/a2/a3/a4/a5/s/../../../../..', outside "
                               "the submission"),
    "a link to a link that climbs": (
        TO_A_LINK, "'t' is a link to 'a1/a2/h/../..', outside the submission"),
    "a link to a link that climbs and a file beneath it": (
        [*TO_A_LINK, BENEATH], f"'t/{PLANTED}' lies beneath 't', which is a link, not a folder"),
    "a link to a folder and a file beneath it": (
        [*BASE, ("lib", "dir", b""), ("t", "link", "lib"), BENEATH],
        f"'t/{PLANTED}' lies beneath 't', which is a link, not a folder"),
    "a file beside a file beneath it": (
        [*BASE, ("t", "file", b"x"), BENEATH],
        f"'t/{PLANTED}' lies beneath 't', which is a file, not a folder"),
    "a link loop": (
        [*BASE, ("t", "link", "u"), ("u", "link", "t")],
        "'t' is a link to 'u': a loop, or a chain of more than 40 links"),
    "a link loop and a file beneath it": (
        [*BASE, ("t", "link", "u"), ("u", "link", "t"), BENEATH],
        f"'t/{PLANTED}' lies beneath 't', which is a link, not a folder"),
    "a link through a file": (
        [*BASE, ("t", "link", "bot.py/../bot.py")],
        "'t' is a link to 'bot.py/../bot.py', outside the submission"),
}
TEXTUALLY_INSIDE = ("the chain alone", "a link to a link that climbs", "a link through a file")
"""Variants whose every link, judged as text, names an entry of the submission."""


def _tar(target: Path, members: list[Member]) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(target, "w:gz") as archive:
        for path, kind, value in members:
            info = tarfile.TarInfo(path)
            if kind == "link":
                info.type, info.linkname = tarfile.SYMTYPE, str(value)
                archive.addfile(info)
            elif kind == "dir":
                info.type, info.mode = tarfile.DIRTYPE, 0o755
                archive.addfile(info)
            else:
                assert isinstance(value, bytes)
                info.size = len(value)
                archive.addfile(info, io.BytesIO(value))
    return target


def _zip(target: Path, members: list[Member]) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(target, "w") as archive:
        for path, kind, value in members:
            if kind == "dir":
                archive.writestr(path + "/", b"")
                continue
            info = zipfile.ZipInfo(path)
            info.external_attr = (stat.S_IFLNK | 0o777 if kind == "link" else 0o644) << 16
            archive.writestr(info, value)
    return target


def _stored(members: list[Member]) -> tuple[bytes, str]:
    """A canonical archive of the members as a store would hold it, checked by nothing."""
    entries = [Entry(path, "symlink", target=value) if kind == "link" and isinstance(value, str)
               else Entry(path, "dir") if kind == "dir"
               else Entry(path, "file", value if isinstance(value, bytes) else b"")
               for path, kind, value in members]
    archive = submissions.canonical_archive(entries)
    return archive, hashlib.sha256(archive).hexdigest()


def _planted(where: Path) -> list[Path]:
    return sorted(where.rglob(PLANTED))


def _textually_inside(members: list[Member]) -> bool:
    """Whether every link, its target judged as text, names an entry of the submission."""
    present = {path for path, _, _ in members}
    return all(posixpath.normpath(posixpath.join(posixpath.dirname(path), str(value))) in present
               for path, kind, value in members if kind == "link")


def _one_clean_line(message: str, tmp_path: Path) -> None:
    """One line, and no path of this machine in it."""
    assert "\n" not in message.strip() and "Traceback" not in message, message
    assert str(tmp_path) not in message and not re.search(r"(^|[\s('\"])/[a-z]", message), message


# ---------------------------------------------------------------- by reading


@pytest.mark.parametrize("packed", ["tar", "zip"])
@pytest.mark.parametrize("case", sorted(VARIANTS))
def test_a_link_that_climbs_or_an_entry_beneath_a_file_or_link_is_refused_and_nothing_is_written(
        tmp_path: Path, case: str, packed: str) -> None:
    members, said = VARIANTS[case]
    if case in TEXTUALLY_INSIDE:  # what a check of the links as text let through
        assert _textually_inside(members)
    source = (_tar if packed == "tar" else _zip)(tmp_path / "upload" / f"bot.{packed}", members)
    with pytest.raises(SubmissionError) as refused:
        submissions.read_submission(source, ["kill"])
    assert str(refused.value) == said
    _one_clean_line(str(refused.value), tmp_path)
    assert _planted(tmp_path) == []


@pytest.mark.parametrize("packed", ["tar", "zip"])
def test_the_chain_submitted_on_the_command_line_is_one_line_and_writes_nothing(
        tmp_path: Path, packed: str) -> None:
    members, said = VARIANTS["the chain and a file beneath it"]
    source = (_tar if packed == "tar" else _zip)(tmp_path / "upload" / f"bot.{packed}", members)
    db = tmp_path / "db" / "arena.db"
    db.parent.mkdir()
    done = cli("bot", "submit", str(source), db=db, check=False)
    assert done.returncode == 1, done.stdout
    assert done.stderr.count("\n") == 1 and done.stderr == f"error: {said}\n", done.stderr
    _one_clean_line(done.stderr, tmp_path)
    assert list(db.parent.iterdir()) == []  # no database, no data folder
    assert _planted(tmp_path) == []


def test_the_control_the_chain_written_out_by_an_extractor_that_follows_links_lands_outside(
        tmp_path: Path) -> None:
    """The chain is a real attack: written out as unpacking did before (each entry in turn,
    the kernel following the links), its file lands in the data folder, above the bot's."""
    members = [*CHAIN, BENEATH]
    assert _textually_inside(members[:-1])
    archive = _tar(tmp_path / "chain.tgz", members)
    data = tmp_path / "db" / "arena-data"
    code = data / "bots" / ("0" * 64) / ".unpacking-x" / "code"
    code.mkdir(parents=True)
    with tarfile.open(archive) as opened:
        opened.extractall(code, filter="fully_trusted")
    assert _planted(tmp_path) == [data / PLANTED]


def test_a_real_server_refuses_the_chain_from_an_author_in_one_line_and_writes_nothing(
        tmp_path: Path) -> None:
    """The attack as an author makes it: the archive uploaded to `arena serve` with an author
    token, as a tarball and as a zip; refused in one line, nothing planted, no version kept;
    an honest bot from the same author is taken right after."""
    db = tmp_path / "arena.db"
    ann = cli("author", "add", "ann", db=db).stdout.splitlines()[2].strip()
    members, said = VARIANTS["the chain and a file beneath it"]
    uploads = [_tar(tmp_path / "upload" / "chain.tgz", members),
               _zip(tmp_path / "upload" / "chain.zip", members)]
    honest = _tar(tmp_path / "upload" / "honest.tgz", BASE)
    server = Served(db, "--no-web")
    try:
        for upload in uploads:
            done = remote(server, ann, "bot", "submit", str(upload), check=False)
            assert done.returncode == 1 and done.stdout == "", done.stdout + done.stderr
            assert done.stderr == f"error: {said}\n", done.stderr
            _one_clean_line(done.stderr, tmp_path)
        assert not (tmp_path / "arena-data" / "bots").exists()
        remote(server, ann, "bot", "submit", str(honest))
    finally:
        output = server.stop()
    assert "Traceback" not in output, output
    assert _planted(tmp_path) == []
    kept = submissions.read_submission(honest, ["kill"]).sha256
    assert [p.name for p in (tmp_path / "arena-data" / "bots").iterdir()] == [kept]


# ---------------------------------------------------------------- by unpacking a stored archive


STORED = {  # the variants that write beneath a link or a file
    case: VARIANTS[case] for case in ("the chain and a file beneath it",
                                      "a link to a link that climbs and a file beneath it",
                                      "a file beside a file beneath it",
                                      "a link loop and a file beneath it")}


@pytest.mark.parametrize("checked", [True, False], ids=["checked", "unchecked"])
@pytest.mark.parametrize("case", sorted(STORED))
def test_a_stored_archive_that_aims_outside_is_refused_by_unpacking_and_leaves_no_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str, checked: bool) -> None:
    """A stored archive is read with every check again; and with the reading's check of the
    tree turned off, unpacking itself still writes nothing through a link (links come last,
    every folder is opened without following one)."""
    members, said = STORED[case]
    archive, sha = _stored(members)
    if not checked:
        monkeypatch.setattr(unpacking, "check_tree", lambda entries: None)
    root = tmp_path / "data" / "bots"
    with pytest.raises(SubmissionError) as refused:
        builds.materialize(archive, sha, root)
    message = str(refused.value)
    _one_clean_line(message, tmp_path)
    if checked:
        assert message == said
    else:
        assert re.fullmatch(r"'(t|t/planted\.pth)' cannot be unpacked \(.+\)", message), message
    assert _planted(tmp_path) == []
    assert list(root.iterdir()) == []  # the version's folder and its staging folder are gone


@pytest.mark.parametrize("entry", [
    Entry("t", "dir"), Entry(f"t/{PLANTED}", "file", b"x"), Entry("bot.py", "file", b"x")],
    ids=["a folder", "a file beneath", "a file"])
def test_a_link_put_in_the_folder_while_unpacking_is_never_followed(
        tmp_path: Path, entry: Entry) -> None:
    """What a race could do: a link already where an entry goes (``t`` and ``bot.py``, to a
    folder and a file outside). Every step is opened without following a link and every
    file is created new, so the entry is refused and nothing outside is touched."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "kept.txt").write_text("kept")
    folder = tmp_path / "code"
    folder.mkdir()
    (folder / "t").symlink_to(outside)
    (folder / "bot.py").symlink_to(outside / "kept.txt")
    with pytest.raises(SubmissionError) as refused:
        unpacking._write_out([entry], folder)
    assert str(refused.value).startswith(f"{entry.path!r} cannot be unpacked (")
    _one_clean_line(str(refused.value), tmp_path)
    assert [p.name for p in outside.iterdir()] == ["kept.txt"]
    assert (outside / "kept.txt").read_text() == "kept"


def test_links_inside_the_submission_are_unpacked_last_and_lead_where_they_say(
        tmp_path: Path) -> None:
    members: list[Member] = [
        *BASE, ("vendor", "dir", b""), ("vendor/lib", "dir", b""),
        ("vendor/lib/data.txt", "file", b"kept"), ("lib", "link", "vendor/lib"),
        ("data.txt", "link", "lib/data.txt"),  # through a link to a folder
        ("vendor/up", "link", "../bot.py"),
    ]
    source = _tar(tmp_path / "bot.tgz", members)
    submission = submissions.read_submission(source, ["kill"])
    installed, built = builds.install(submission, tmp_path / "data" / "bots")
    code = installed.code
    assert built is None
    assert os.readlink(code / "lib") == "vendor/lib" and (code / "data.txt").read_text() == "kept"
    assert (code / "vendor" / "up").read_bytes() == BASE[1][2]
    assert stat.S_IMODE((code / "vendor" / "lib").stat().st_mode) == 0o555
    assert stat.S_IMODE((code / "bot.py").stat().st_mode) == 0o444
    assert [p.name for p in code.parent.iterdir()] == ["code"]  # no staging folder left


# ---------------------------------------------------------------- errors of the system


def test_an_error_of_the_system_while_installing_is_one_line_without_a_path_and_leaves_nothing(
        tmp_path: Path) -> None:
    source = _tar(tmp_path / "bot.tgz", BASE)
    db = tmp_path / "db" / "arena.db"
    db.parent.mkdir()
    (db.parent / "arena-data").write_text("a file where the data folder goes")
    done = cli("bot", "submit", str(source), db=db, check=False)
    assert done.returncode == 1, done.stdout
    short = submissions.read_submission(source, ["kill"]).short_hash
    assert done.stderr == f"error: version {short} could not be unpacked here (Not a directory)\n"
    _one_clean_line(done.stderr, tmp_path)
    assert sorted(p.name for p in db.parent.iterdir()) == ["arena-data"]  # no database

    submission = submissions.read_submission(source, ["kill"])
    root = tmp_path / "store"
    (root / submission.sha256).mkdir(parents=True)
    (root / submission.sha256 / "code").write_text("a file where the code goes")
    with pytest.raises(SubmissionError) as refused:
        builds.materialize(submission.archive, submission.sha256, root)
    _one_clean_line(str(refused.value), tmp_path)
    assert str(refused.value).startswith(f"version {short} could not be unpacked here (")
    assert [p.name for p in (root / submission.sha256).iterdir()] == ["code"]  # no staging left


# ---------------------------------------------------------------- zips too big to list


@pytest.mark.parametrize(("listed", "said"), [
    (None, "the zip lists 370,000 entries"),
    (1, "the zip's directory holds more entries than its end record says"),
    (0xFFFF, "the zip lists 65,535 entries"),
], ids=["stated in zip64", "a lie", "saturated"])
def test_a_zip_listing_370000_entries_is_refused_by_its_count_before_zipfile_reads_it(
        listed: int | None, said: str) -> None:
    data = many_entries_zip(listed=listed)
    assert 16 * 2**20 < len(data) < submissions.MAX_ARCHIVE_BYTES
    tracemalloc.start()
    try:
        with pytest.raises(SubmissionError) as refused:
            submissions.read_archive(data, ["kill"])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert str(refused.value) == f"more than 2,000 files and folders ({said})"
    assert peak < 2**20  # zipfile would have made an object of each of the 370,000 records


def test_the_control_zipfile_reads_every_record_whatever_the_end_record_says() -> None:
    lying = many_entries_zip(2_001, listed=1)
    with zipfile.ZipFile(io.BytesIO(lying)) as opened:
        assert len(opened.infolist()) == 2_001
    with pytest.raises(SubmissionError, match="holds more entries than its end record says"):
        submissions.read_archive(lying, ["kill"])
    just = many_entries_zip(2_000, listed=1)  # at the cap: read on, refused for its names
    with pytest.raises(SubmissionError, match="'a' appears twice"):
        submissions.read_archive(just, ["kill"])


def test_the_370000_entry_zip_from_the_command_line_is_one_line(tmp_path: Path) -> None:
    big = tmp_path / "big.zip"
    big.write_bytes(many_entries_zip())
    db = tmp_path / "db" / "arena.db"
    db.parent.mkdir()
    done = cli("bot", "submit", str(big), db=db, check=False)
    big.unlink()
    assert done.returncode == 1
    assert done.stderr == ("error: more than 2,000 files and folders (the zip lists 370,000 "
                           "entries)\n")
    assert list(db.parent.iterdir()) == []


def _zip64_ended(data: bytes, comment: bytes = b"") -> bytes:
    """The zip ``data`` (no comment) ended by zip64's end record and locator, the classic
    end record saturated, and ``comment`` after it."""
    end = len(data) - 22
    _sig, _d, _f, here, total, size, offset, _c = struct.unpack("<4s4H2LH", data[end:])
    zip64 = (struct.pack("<4sQ2H2L4Q", b"PK\x06\x06", 44, 45, 45, 0, 0, here, total, size,
                         offset)
             + struct.pack("<4sLQL", b"PK\x06\x07", 0, end, 1))
    classic = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF,
                          0xFFFFFFFF, len(comment))
    return data[:end] + zip64 + classic + comment


def test_honest_zips_with_a_comment_or_zip64_end_records_are_still_read(tmp_path: Path) -> None:
    plain = _zip(tmp_path / "bot.zip", BASE).read_bytes()
    expected = submissions.read_archive(plain, ["kill"]).sha256
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for path, _kind, value in BASE:
            archive.writestr(path, value)
        archive.comment = b"a comment after the end record"
    for data in (out.getvalue(), _zip64_ended(plain), _zip64_ended(plain, b"and a comment")):
        with zipfile.ZipFile(io.BytesIO(data)) as opened:
            assert [i.filename for i in opened.infolist()] == [p for p, _, _ in BASE]
        assert submissions.read_archive(data, ["kill"]).sha256 == expected
