"""Bots, the command side: add a managed or a remote bot, issue a remote bot's token,
submit a version, list and remove bots, read their logs. Each use case lives here once;
``arena bot ...`` and the operator service's methods decode their input, call one, and
encode its answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.errors import ArenaError, ErrorKind
from arena.players import builds, submissions
from arena.players.process import log_name, parse_command
from arena.storage.store import BotInfo, Store, SubmittedCode, check_bot_name
from arena.tournament.setup import name_version
from arena.wire.tokens import digest, new_token

LOG_LANES = 1000
"""The most processes (lanes) of one bot version whose logs are read."""
LOG_BYTES = 256 * 1024
"""The end of each log read unless asked for another length."""


@dataclass(frozen=True)
class Submitted:
    """What a submission did: the version (``new``: stored now; else that very code was
    there already), its author's name (empty: the operator's), its size, and how long its
    requirements took to install (None: nothing was built)."""

    bot: BotInfo
    author: str
    new: bool
    files: int
    size: int
    build_s: float | None


@dataclass(frozen=True)
class LogFile:
    """The end of one process's log of a bot version."""

    name: str
    text: str
    truncated: bool


def add_managed(store: Store, name: str, command: str, version: str, folder: Path) -> BotInfo:
    """Register a bot the arena starts with ``command`` in ``folder`` (checked first)."""
    parse_command(command, folder)
    return store.add_bot(name, command, version, folder=str(folder))


def add_remote(store: Store, name: str, version: str) -> tuple[BotInfo, str]:
    """Register a bot that connects by itself; (it, its token, to be shown once)."""
    token = new_token()
    return store.add_bot(name, version=version, token_hash=digest(token)), token


def issue_token(store: Store, name: str, version: str | None) -> tuple[BotInfo, str]:
    """A new token for a remote bot (the old one stops working); (it, the token)."""
    token = new_token()
    return store.set_bot_token_hash(name, version, digest(token)), token


def authors_by_id(store: Store) -> dict[int, str]:
    return {a.id: a.name for a in store.list_authors()}


def listing(store: Store) -> list[tuple[BotInfo, str]]:
    """Every bot version, with its author's name (empty: the operator's)."""
    authors = authors_by_id(store)
    return [(bot, "" if bot.author_id is None else authors.get(bot.author_id, ""))
            for bot in store.list_bots()]


def remove(store: Store, name: str, version: str | None) -> None:
    """Remove a bot (or one version); its past matches and ratings are kept."""
    store.remove_bot(name, version)


def same_code(store: Store, submission: submissions.Submission,
              author_id: int | None) -> BotInfo | None:
    """The version that holds this very code already, if any (then nothing is built); an
    author's submission under another's name is refused first."""
    name = submission.manifest.name
    if author_id is not None:
        store.check_name_free_for(name, author_id)
    same = [b for b in store.bots_named([name]) if b.content_hash == submission.sha256]
    return same[0] if same else None


def record(store: Store, submission: submissions.Submission, label: str | None,
           author_id: int | None,
           validated: Sequence[str] | None = None) -> tuple[BotInfo, bool]:
    """Store a submission whose requirements are installed (and, where ``validated`` names
    games, whose validation played them); (its version, whether new)."""
    manifest = submission.manifest
    return store.submit_bot(manifest.name, label, manifest.command, manifest.games,
                            SubmittedCode(submission.sha256, submission.archive,
                                          submission.files, submission.size),
                            author_id=author_id, validated=validated)


def submit(store: Store, submission: submissions.Submission, label: str | None,
           data_dir: Path, author_id: int | None = None) -> Submitted:
    """Submit a version: the same code again is nothing to do; else its requirements are
    installed (a :class:`arena.players.submissions.BuildError` with pip's log if they do
    not) and it is stored. A server's submissions take the same steps, with caps, turns and
    a validation (:mod:`arena.app.submitting`)."""
    authors = authors_by_id(store) if author_id is not None else {}
    author = authors.get(author_id, "") if author_id is not None else ""
    same = same_code(store, submission, author_id)
    if same is not None:
        return Submitted(same, author, False, submission.files, submission.size, None)
    _installed, built_s = builds.install(submission, data_dir / submissions.SUBMITTED_DIR)
    bot, new = record(store, submission, label, author_id)
    return Submitted(bot, author, new, submission.files, submission.size, built_s)


def log_files(data_dir: Path, label: str, max_bytes: int) -> list[LogFile]:
    """The end (``max_bytes`` at most) of each process's log of the version ``label``."""
    logs = data_dir / "logs"
    out = []
    for lane in range(LOG_LANES):
        process = label if lane == 0 else f"{label}.lane{lane}"
        path = logs / log_name(process)
        try:
            with path.open("rb") as file:
                size = file.seek(0, 2)
                file.seek(max(0, size - max_bytes))
                data = file.read(max_bytes)
        except FileNotFoundError:
            if lane == 0:
                continue  # lane 0 has not run yet; a later lane may have
            break
        except OSError:
            break
        out.append(LogFile(process, data.decode("utf-8", "replace"), size > max_bytes))
    return out


def bot_log(store: Store, data_dir: Path, bot: str, max_bytes: int) -> tuple[str, list[LogFile]]:
    """A version's logs (``bot``: NAME@VERSION, or NAME: its newest); (its label, them)."""
    info = store.get_bot(*name_version(bot))
    return info.label, log_files(data_dir, info.label, max_bytes)


def authors_bots(store: Store, author_id: int) -> list[BotInfo]:
    """Every version of an author's bots (removed ones too), by name then version."""
    return [bot for bot, _ in listing(store) if bot.author_id == author_id]


def authors_log(store: Store, data_dir: Path | None, bot: str, author_id: int,
                max_bytes: int) -> tuple[BotInfo, list[LogFile]]:
    """A version's logs under ``data_dir`` (None: where no logs are kept, none) for the author
    ``author_id``: refused for another's bot (the operator reads any with :func:`bot_log`)."""
    info = store.get_bot(*name_version(bot))
    if info.author_id != author_id:
        raise ArenaError(f"the log of {info.label} is for its author and the operator only",
                         kind=ErrorKind.NOT_ALLOWED)
    return info, [] if data_dir is None else log_files(data_dir, info.label, max_bytes)


def check_label(label: str) -> str:
    """A version's label as the store allows it (else a one-line refusal)."""
    check_bot_name(label, "label")
    return label


__all__ = ["LogFile", "Submitted", "add_managed", "add_remote", "authors_bots", "authors_log",
           "bot_log", "check_label", "issue_token", "listing", "log_files", "new_token", "record",
           "remove", "same_code", "submit"]
