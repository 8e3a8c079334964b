"""A new version's validation: before a submission is accepted on a server, the version plays
a short, unrated set in its sandbox, and a fault refuses it.

Per game it plays (the games its manifest names, or those of them the operator chose):

* one match with every seat its own (copies of itself, one process);
* one match in seat 0 against the bundled random bot in the other seats.

Each with the game's default table and options, a fresh secret deal, the tournament's default
clocks and bot limits. Nothing of it is stored: no match, no rating; only the version, once it
passed. A fault (a crash, a timeout, an illegal or malformed answer, a no-show) refuses the
version with the fault, the match it happened in, and the end of the version's log; so does
a version that does not start.
"""

from __future__ import annotations

import secrets
import shutil
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.errors import ArenaError, ErrorKind
from arena.games import get_game
from arena.players import sandbox
from arena.players.builds import Installed
from arena.players.process import log_name
from arena.storage.names import RANDOM_BOT
from arena.tournament.errors import BotsDidNotStart
from arena.tournament.executor import Entrant, MatchJob
from arena.tournament.local import LocalExecutor
from arena.tournament.settings import DEFAULTS, RunSettings

LOG_TAIL_BYTES = 4096
"""How much of the end of its log a refused version's author gets."""


@dataclass(frozen=True)
class ValidationRules:
    """The operator's: whether new versions are validated, and in which games (None: every
    game a version plays; else those of them named here, and a version playing none of them
    plays nothing)."""

    enabled: bool = True
    games: tuple[str, ...] | None = None
    sandbox: bool = True  # as the server runs its bots (``arena serve --no-sandbox``: not)

    def games_of(self, plays: Sequence[str]) -> list[str]:
        if not self.enabled:
            return []
        return [g for g in plays if self.games is None or g in self.games]


VALIDATED = ValidationRules()
"""Every new version validated in every game it plays: ``arena serve``'s default."""
NOT_VALIDATED = ValidationRules(enabled=False)
"""No validation (``arena serve --no-validation``)."""


@dataclass(frozen=True)
class Validated:
    """A version that passed: its validation's matches and wall seconds."""

    matches: int
    seconds: float


class ValidationFailed(ArenaError):
    """The version faulted in its validation (one line); :attr:`log` is the end of its log."""

    kind = ErrorKind.BAD_REQUEST

    def __init__(self, message: str, log: str) -> None:
        super().__init__(message)
        self.log = log


async def validate(name: str, command: str, installed: Installed, sha256: str,
                   games: Sequence[str], work: Path, settings: RunSettings = DEFAULTS,
                   use_sandbox: bool = True) -> Validated:
    """Play ``name``'s new version (its ``command``, its code ``installed``) through its
    validation in ``games``; :class:`ValidationFailed` at its first fault. ``work``: a folder
    of this machine for the matches' bot logs (removed after)."""
    began = time.monotonic()
    label = f"{name}@new-version"
    candidate = Entrant(-1, label, command=command, limits=settings.limits,
                        folder=str(installed.code),
                        deps=None if installed.deps is None else str(installed.deps),
                        content_hash=sha256)
    bundled = sandbox.package_dirs("bots")[0].resolve()
    random = Entrant(-2, f"{RANDOM_BOT}@validation", command="python -m bots.random_bot",
                     limits=settings.limits, folder=str(bundled))
    folder = Path(tempfile.mkdtemp(prefix="validation-", dir=work))
    run = RunSettings(start_timeout_s=settings.start_timeout_s, limits=settings.limits,
                      sandbox=use_sandbox)
    executor = LocalExecutor(folder, run)
    played = 0
    try:
        try:
            await executor.start([candidate, random])
        except BotsDidNotStart:
            raise ValidationFailed(f"the new version of {name} did not start for its validation",
                                   _tail(folder / "logs" / log_name(label))) from None
        for game_name in games:
            game = get_game(game_name)
            players = game.default_players
            options = dict(game.parse_options(players, {}))
            for seats, against in (((candidate,) * players, "copies of itself"),
                                   ((candidate, *(random,) * (players - 1)), "the random bot")):
                played += 1
                report = await executor.play(MatchJob(
                    match_id=played, index=played - 1, game=game.name, players=players,
                    seed=secrets.randbits(63), options=options, seats=seats,
                    clocks=settings.clocks))
                for seat, fault in enumerate(report.faults):
                    if fault and seats[seat] is candidate:
                        why = report.reasons[seat] if seat < len(report.reasons) else ""
                        raise ValidationFailed(
                            f"the new version of {name} faulted in its validation match of "
                            f"{game.name} against {against}: {fault.value}"
                            + (f" ({why})" if why else ""), _tail(folder / "logs" / log_name(label)))
    finally:
        await executor.close()
        shutil.rmtree(folder, ignore_errors=True)
    return Validated(played, time.monotonic() - began)


def _tail(path: Path) -> str:
    try:
        with path.open("rb") as file:
            file.seek(max(0, file.seek(0, 2) - LOG_TAIL_BYTES))
            return file.read().decode("utf-8", "replace")
    except OSError:
        return ""


__all__ = ["LOG_TAIL_BYTES", "NOT_VALIDATED", "VALIDATED", "Validated", "ValidationFailed",
           "ValidationRules", "validate"]
