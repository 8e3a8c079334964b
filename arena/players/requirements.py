"""A submission's requirements file, read by the arena before anything is installed.

An author's requirements file is hostile: pip itself would follow a URL, a folder with
a build backend (author code run at install time), an include of another file, or an
option naming another index, and some of those fetch from wherever the *server* can
reach (its loopback: a database, a Ray cluster, the operator port). So the arena reads
the file itself and lets through only two kinds of line:

* a plain PEP 508 requirement on the package index: a name, extras, version specifiers
  and markers (``numpy>=1.26``, ``attrs[tests]; python_version >= "3.10"``), optionally
  with ``--hash=ALGO:DIGEST`` options (pip's hash-checking mode);
* the path of a ``.whl`` file inside the submission (``./wheels/mine-1.0-py3-none-any.whl``):
  authors may vendor their own wheels.

Everything else is refused with one line naming the line and why: URLs and
``name @ URL``, version-control links, ``-e``, ``-r``/``-c`` includes, any other option
(``--index-url``, ``--extra-index-url``, ``--find-links``, ``--trusted-host``, ...),
paths to anything but a wheel of the submission (folders, sdists). A vendored wheel's
own dependencies must be plain requirements too (a ``Requires-Dist`` with a URL would be
fetched by the server's pip): they are checked here as well.

The result is a clean requirements file written by the arena (:meth:`Requirements.text`),
for ``pip download --only-binary=:all:`` on the host (:mod:`arena.players.builds`).
"""

from __future__ import annotations

import email.parser
import os
import re
import stat
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from arena.players.archives import SubmissionError, zip_entries_over

if TYPE_CHECKING:  # packaging is imported where a requirement is read: its import costs
    from packaging.requirements import Requirement  # 50 ms of every command's start-up

MAX_LINES = 500
"""Requirement lines a file may hold."""
MAX_LINE = 1_000
"""Characters in one (joined) line."""
MAX_WHEEL_ENTRIES = 20_000
"""Entries a vendored wheel may list: its central directory is counted before :mod:`zipfile`
reads it whole (:func:`arena.players.archives.zip_entries_over`), as a submitted zip's is."""
MAX_METADATA = 1_000_000
"""Bytes a vendored wheel's METADATA may hold, counted as it unpacks (its size claim is not
trusted): more is refused, since pip would read, and follow, what lies past any cap."""
_HASH = re.compile(r"^--hash[= ](sha256|sha384|sha512):([0-9a-fA-F]{64,128})$")


class RequirementError(SubmissionError):
    """A requirements file the arena will not hand to pip (the message says which line)."""


@dataclass(frozen=True)
class Requirements:
    """A checked requirements file: requirements on the index and wheels of the submission."""

    index: tuple[tuple[Requirement, tuple[str, ...]], ...]  # each with its --hash options
    wheels: tuple[Path, ...]  # inside the submission's folder, checked regular files

    @property
    def empty(self) -> bool:
        return not self.index and not self.wheels

    def text(self, wheels: dict[Path, Path]) -> str:
        """The file handed to pip, written by the arena: ``wheels`` maps each vendored wheel
        to where the arena copied it."""
        lines = [" ".join([str(requirement), *hashes]) for requirement, hashes in self.index]
        lines += [str(wheels[w]) for w in self.wheels]
        return "\n".join(lines) + "\n"


def read_requirements(code: Path, name: str) -> Requirements:
    """The requirements file ``name`` of the submission unpacked at ``code``, checked."""
    path = _inside(code, name, "the requirements file")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise RequirementError(f"{name}: cannot be read as UTF-8 text "
                               f"({getattr(err, 'strerror', None) or 'not UTF-8'})") from None
    return parse(text, code, name)


def parse(text: str, code: Path, name: str = "requirements") -> Requirements:
    """The lines of ``text`` checked (see the module's note); wheel paths are relative to
    ``code``, the submission's top folder, as pip read them there."""
    index: list[tuple[Requirement, tuple[str, ...]]] = []
    wheels: list[Path] = []
    for number, line in _lines(text):
        where = f"{name}, line {number}"
        if len(line) > MAX_LINE:
            raise RequirementError(f"{where}: a line over {MAX_LINE} characters")
        if len(index) + len(wheels) >= MAX_LINES:
            raise RequirementError(f"{name}: more than {MAX_LINES} requirements")
        words = line.split()
        if words[0].startswith("-"):
            raise RequirementError(f"{where}: {_option_refusal(words[0])}")
        hashes = _hashes(line, where)
        spec = line.split(" --", 1)[0].strip() if " --" in line else line
        if ":" in spec.split(";", 1)[0] or spec.startswith(("git+", "hg+", "svn+", "bzr+")):
            raise RequirementError(f"{where}: a URL; only requirements on the package index "
                                   "(name and versions) or wheels of the submission are installed")
        if _is_path(spec):
            if hashes:
                raise RequirementError(f"{where}: --hash goes with requirements on the "
                                       "package index, not with a wheel of the submission")
            wheels.append(_wheel(code, spec, where))
            continue
        index.append((_requirement(spec, where), hashes))
    for wheel in wheels:
        _check_wheel_dependencies(wheel, code)
    return Requirements(tuple(index), tuple(wheels))


def _lines(text: str) -> list[tuple[int, str]]:
    """(first line number, text) of each logical line: comments dropped, ``\\`` joined."""
    out: list[tuple[int, str]] = []
    pending, start = "", 0
    for number, raw in enumerate(text.splitlines(), 1):
        if not pending:
            start = number
        line = re.sub(r"(^|\s)#.*$", "", raw)  # a comment: from a # at a line's start or after a space
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        joined = (pending + line).strip()
        pending = ""
        if joined:
            out.append((start, " ".join(joined.split())))
    if pending.strip():
        out.append((start, " ".join(pending.split())))
    return out


def _option_refusal(option: str) -> str:
    word = option.split("=", 1)[0]
    if word in ("-e", "--editable"):
        return "an editable install (-e); only wheels are installed"
    if word in ("-r", "--requirement", "-c", "--constraint"):
        return f"an include of another file ({word}); list the requirements in this one"
    if word in ("-i", "--index-url", "--extra-index-url", "-f", "--find-links", "--no-index",
                "--trusted-host"):
        return (f"{word} chooses where packages come from; the arena installs from the "
                "package index its operator set")
    return f"the option {word[:40]!r}; a line is a requirement or a wheel of the submission"


def _hashes(line: str, where: str) -> tuple[str, ...]:
    hashes = []
    for option in line.split(" --")[1:]:
        text = "--" + option.strip()
        found = _HASH.match(text)
        if found is None:
            raise RequirementError(f"{where}: {_option_refusal(text.split()[0])}")
        hashes.append(f"--hash={found.group(1)}:{found.group(2).lower()}")
    return tuple(hashes)


def _is_path(spec: str) -> bool:
    return (spec.startswith((".", "/", "~")) or "/" in spec.split(";")[0].split("@")[0]
            or "\\" in spec or spec.lower().endswith((".whl", ".zip", ".tar.gz", ".tgz",
                                                       ".tar.bz2", ".tar")))


def _requirement(spec: str, where: str) -> Requirement:
    from packaging.requirements import InvalidRequirement, Requirement

    try:
        requirement = Requirement(spec)
    except InvalidRequirement as err:
        first = str(err).splitlines()[0] if str(err) else "not a requirement"
        raise RequirementError(f"{where}: not a requirement ({first[:120]})") from None
    if requirement.url is not None:
        raise RequirementError(f"{where}: {requirement.name} @ a URL; only requirements on the "
                               "package index (name and versions) or wheels of the submission "
                               "are installed")
    return requirement


def _inside(code: Path, relative: str, what: str) -> Path:
    """``relative`` in the folder ``code``: a regular file that really lies inside it (its
    links followed, physically), or refused."""
    if relative.startswith("~") or "\x00" in relative or "\\" in relative:
        raise RequirementError(f"{what} {relative!r} is not a file of the submission")
    top = Path(os.path.realpath(code))
    found = Path(os.path.realpath(top / relative))
    if found != top and top not in found.parents:
        raise RequirementError(f"{what} {relative!r} is not a file of the submission")
    try:
        mode = os.stat(found).st_mode
    except OSError:
        raise RequirementError(f"{what} {relative!r} is not in the submission") from None
    if not stat.S_ISREG(mode):
        raise RequirementError(f"{what} {relative!r} is a folder, not a wheel (.whl); "
                               "only wheels are installed")
    return found


def _wheel(code: Path, spec: str, where: str) -> Path:
    if not spec.lower().endswith(".whl"):
        kind = "a folder or a source archive" if not Path(spec).suffix or spec.endswith(
            ("/", ".tar.gz", ".zip", ".tgz", ".tar.bz2", ".tar")) else "not a wheel"
        raise RequirementError(f"{where}: {spec[:80]!r} is {kind}; only wheels (.whl) of the "
                               "submission are installed (no package's build runs here)")
    from packaging.utils import InvalidWheelFilename, parse_wheel_filename

    path = _inside(code, spec, f"{where}: the wheel")
    try:
        parse_wheel_filename(path.name)
    except InvalidWheelFilename:
        raise RequirementError(f"{where}: {path.name!r} is not a wheel's file name "
                               "(NAME-VERSION-PYTHON-ABI-PLATFORM.whl)") from None
    return path


def _check_wheel_dependencies(wheel: Path, code: Path) -> None:
    """Each ``Requires-Dist`` of a vendored wheel is a plain requirement (no URL)."""
    name = wheel.relative_to(Path(os.path.realpath(code))).as_posix()
    try:
        with wheel.open("rb") as raw:
            if (too_many := zip_entries_over(raw, MAX_WHEEL_ENTRIES)) is not None:
                raise RequirementError(f"{name}: more than {MAX_WHEEL_ENTRIES:,} entries "
                                       f"({too_many})")
            with zipfile.ZipFile(raw) as archive:
                found = [n for n in archive.namelist()
                         if n.count("/") == 1 and n.endswith(".dist-info/METADATA")]
                if len(found) != 1:
                    raise RequirementError(f"{name}: not a wheel (no one .dist-info/METADATA)")
                with archive.open(found[0]) as stream:  # never all of it: a bomb stops here
                    data = stream.read(MAX_METADATA + 1)
        if len(data) > MAX_METADATA:  # what lies past a cap would go unchecked to pip
            raise RequirementError(f"{name}: its METADATA is over {MAX_METADATA:,} bytes")
        metadata = data.decode("utf-8", "replace")
    except (zipfile.BadZipFile, zlib.error, NotImplementedError, RuntimeError, OSError,
            EOFError) as err:
        why = getattr(err, "strerror", None) or (str(err).splitlines() or [""])[0][:200]
        raise RequirementError(f"{name}: not a readable wheel ({why or type(err).__name__})") \
            from None
    from packaging.requirements import InvalidRequirement, Requirement

    message = email.parser.Parser().parsestr(metadata, headersonly=True)
    for spec in message.get_all("Requires-Dist") or []:
        try:
            requirement = Requirement(str(spec))
        except InvalidRequirement:
            raise RequirementError(f"{name}: its dependency {str(spec)[:80]!r} is not a "
                                   "requirement") from None
        if requirement.url is not None:
            raise RequirementError(f"{name}: its dependency {requirement.name} comes from a URL; "
                                   "only requirements on the package index are installed")


__all__ = ["MAX_LINES", "RequirementError", "Requirements", "parse", "read_requirements"]
