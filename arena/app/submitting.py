"""Submitting a bot to a server: one desk for every door that takes an archive (the operator
service's ``SubmitBot``, the web's submit form), with the same caps and refusals.

An upload comes in (at most :data:`MAX_UPLOADS` at once, each at most
:data:`~arena.players.submissions.MAX_ARCHIVE_BYTES`), its archive is checked, a version
already kept with the same code is given back as it is, else its requirements are built and
it plays its validation (:mod:`arena.app.validation`), at most :data:`MAX_BUILDS` at once,
and only then is it recorded. An author has one submission under way at a time, its build and
validation included: a second one meanwhile is refused. A build or validation goes on to its
end even if the caller goes away (a thread cannot be stopped): it keeps its turn, and its
author's one submission under way, until then, so a caller that hangs up cannot start builds
without bound.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from pathlib import Path

from arena.app import bots
from arena.app.bots import Submitted
from arena.app.validation import ValidationFailed, ValidationRules, validate
from arena.errors import ArenaError, ErrorKind
from arena.games import all_games
from arena.players import builds, submissions
from arena.storage.store import BotInfo, NotFoundError, Store, check_bot_name

MAX_ARCHIVE_BYTES = submissions.MAX_ARCHIVE_BYTES
"""The largest archive a door takes."""
MAX_UPLOADS = 4
"""Uploads received (and their archives checked) at once; more are refused as busy (each
may hold 20 MiB). A build does not hold its upload's place: another author can upload while
one's build runs."""
MAX_BUILDS = 2
"""Builds of requirements, and new versions' validations, at once (each may hold a CPU and
1 GiB: see :mod:`arena.players.buildbox`); more wait their turn, holding no upload place."""

Receive = Callable[[], Awaitable[tuple[str | None, bytes]]]
"""Reads an upload: its label (None: the manifest's version) and the archive's bytes (refused
by the door as soon as they go over the cap)."""


class Refused(submissions.SubmissionError):
    """A submission refused by its build or its validation: with the end of their ``log``."""

    def __init__(self, message: str, log: str) -> None:
        super().__init__(message)
        self.log = log


class SubmissionDesk:
    """Takes submissions for the arena of ``store``, keeping their code under ``data_dir``;
    ``validation``: which new versions play a validation first."""

    def __init__(self, store: Store, data_dir: Path, validation: ValidationRules) -> None:
        self.store = store
        self.data_dir = data_dir
        self.validation = validation
        self._uploads = asyncio.Semaphore(MAX_UPLOADS)
        self._builds = asyncio.Semaphore(MAX_BUILDS)
        self._submitting: set[int] = set()  # authors with a submission under way
        self._building: set[int] = set()  # of those, the ones whose build runs

    async def submit(self, author_id: int | None, receive: Receive) -> Submitted:
        """Receive an upload with ``receive`` (a place among :data:`MAX_UPLOADS` held
        meanwhile), check it, keep it, build and validate it, record it: see the module. A
        refusal is an :class:`~arena.errors.ArenaError` with one line (a :class:`Refused`
        with its log for a build or validation that failed)."""
        if author_id is not None and author_id in self._submitting:
            raise ArenaError("a submission of yours is under way; submit again once it is "
                             "done", kind=ErrorKind.BUSY)
        if self._uploads.locked():
            raise ArenaError(f"{MAX_UPLOADS} uploads are under way; try again in a moment",
                             kind=ErrorKind.BUSY)
        if author_id is not None:
            self._submitting.add(author_id)
        try:
            async with self._uploads:
                label, data = await receive()
                submission = await asyncio.to_thread(submissions.read_archive, data,
                                                     list(all_games()))
            return await self._submit(author_id, label, submission)
        finally:
            if author_id is not None and author_id not in self._building:  # else: when it ends
                self._submitting.discard(author_id)

    async def _submit(self, author_id: int | None, label: str | None,
                      submission: submissions.Submission) -> Submitted:
        manifest = submission.manifest
        check_bot_name(manifest.name, "bot name")
        # a store read, in a worker thread; another author's name is refused before any build
        same = await asyncio.to_thread(bots.same_code, self.store, submission, author_id)
        if same is not None:
            return Submitted(same, await self._author_of(same), False, submission.files,
                             submission.size, None)
        try:
            built_s = await self._install(author_id, submission)
        except submissions.BuildError as err:  # its build or its validation: with their log
            raise Refused(f"submission of {manifest.name} refused: {err}", err.log) from None
        games = self.validation.games_of(manifest.games)
        bot, new = await asyncio.to_thread(bots.record, self.store, submission, label, author_id,
                                           tuple(games) or None)
        return Submitted(bot, await self._author_of(bot), new, submission.files, submission.size,
                         built_s)

    async def _author_of(self, bot: BotInfo) -> str:
        if bot.author_id is None:
            return ""
        authors = await asyncio.to_thread(bots.authors_by_id, self.store)
        return authors.get(bot.author_id, "")

    async def _validate(self, submission: submissions.Submission,
                        installed: builds.Installed) -> None:
        """Play a new version's validation, in one of the :data:`MAX_BUILDS` turns: it runs
        the version's processes as a build does. A fault is a
        :class:`~arena.players.submissions.BuildError` with the end of its log, and the
        version's installed code is removed."""
        manifest = submission.manifest
        games = self.validation.games_of(manifest.games)
        if not games:
            return
        try:
            async with self._builds:
                await validate(manifest.name, manifest.command, installed, submission.sha256,
                               games, self.data_dir, use_sandbox=self.validation.sandbox)
        except ValidationFailed as err:
            await asyncio.to_thread(self._forget_code, submission.sha256)
            raise submissions.BuildError(f"{err} (the end of its log is above)", err.log) \
                from None

    def _forget_code(self, sha256: str) -> None:
        """Remove a refused version's installed code, unless a kept version has the same."""
        try:
            self.store.bot_code(sha256)
        except NotFoundError:
            submissions.remove(builds.version_folder(self.data_dir / submissions.SUBMITTED_DIR,
                                                     sha256))

    async def _install(self, author_id: int | None, submission: submissions.Submission) -> \
            float | None:
        """Install a submission and validate it; the seconds its build took (None: nothing
        built). Shielded from its caller's cancellation: see the module."""
        async def run() -> float | None:
            async with self._builds if submission.manifest.requirements is not None \
                    else contextlib.nullcontext():
                installed, built_s = await asyncio.to_thread(
                    builds.install, submission, self.data_dir / submissions.SUBMITTED_DIR)
            await self._validate(submission, installed)
            return built_s

        job = asyncio.ensure_future(run())
        if author_id is not None:
            self._building.add(author_id)

        def done(finished: asyncio.Future[float | None]) -> None:
            if author_id is not None:
                self._building.discard(author_id)
                self._submitting.discard(author_id)
            if not finished.cancelled():
                finished.exception()  # seen here, if nobody waits for it any more

        job.add_done_callback(done)
        return await asyncio.shield(job)


__all__ = ["MAX_ARCHIVE_BYTES", "MAX_BUILDS", "MAX_UPLOADS", "Receive", "Refused", "SubmissionDesk"]
