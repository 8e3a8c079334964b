"""How a tournament is played: saved with it, so that a resume plays the same way."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from arena.match.referee import MatchSettings
from arena.players.limits import DEFAULT_LIMITS, ResourceLimits
from arena.tournament.errors import TournamentError


@dataclass(frozen=True)
class PerRun:
    """What a run is asked for each time, never saved with the tournament (these fields of
    :class:`RunSettings`): a server applies its own to every tournament it plays."""

    sandbox: bool = True
    keep_going: bool = False
    executor: str = "local"
    ray_address: str | None = None

    def applied(self, settings: RunSettings) -> RunSettings:
        return replace(settings, **asdict(self))


PER_RUN = tuple(f.name for f in fields(PerRun))
"""The settings asked for at every run of a tournament, never saved with it."""

CLOCKS = MatchSettings()
"""The referee's clocks by default: a tournament's too."""

EXECUTORS = ("local", "ray")
"""Where a run's matches can be played: this machine, or the nodes of a Ray cluster."""


@dataclass(frozen=True)
class RunSettings:
    """How a tournament is played; saved with it, so that a resume plays the same way."""

    parallel: int = 2
    move_timeout_s: float = CLOCKS.move_timeout_s  # the clocks' defaults are the referee's
    start_timeout_s: float = CLOCKS.start_timeout_s
    time_bank_s: float = CLOCKS.time_bank_s
    event_delay_s: float = CLOCKS.event_delay_s  # see MatchSettings.event_delay_s
    limits: ResourceLimits = DEFAULT_LIMITS  # for every bot process
    listen: str | None = None  # HOST:PORT where remote bots connect; None: managed bots only
    tls_cert: str | None = None  # PEM files securing ``listen`` (both or neither)
    tls_key: str | None = None
    wait_for_remote_s: float = 60.0  # before the first match, for every remote bot to attend
    public_notes: bool = False  # the bots' notes in the replays are everyone's, once shown
    # the author who asked for it: a scrimmage, rated in its own standings only, never in a
    # rating pool (arena.app.scrimmages); None: a tournament
    scrimmage_of: int | None = None
    sandbox: bool = True  # managed bots in the sandbox; asked for at every run, never saved
    keep_going: bool = False  # play on when a managed bot does not start (never saved)
    executor: str = "local"  # where matches are played: "local" or "ray" (never saved)
    ray_address: str | None = None  # the Ray cluster's, for the ray executor (never saved)

    def __post_init__(self) -> None:
        for name in ("move_timeout_s", "start_timeout_s", "time_bank_s", "event_delay_s",
                     "wait_for_remote_s"):
            value = getattr(self, name)
            positive = name in ("move_timeout_s", "start_timeout_s")
            if not math.isfinite(value) or value < 0 or (positive and value == 0):
                flag = "--" + name.removesuffix("_s").replace("_", "-")
                raise TournamentError(f"{flag} must be a finite number of seconds, "
                                      f"{'above' if positive else 'at least'} 0, not {value:g}")
        if self.parallel < 1:
            raise TournamentError(f"--parallel must be at least 1, not {self.parallel}")
        if self.executor not in EXECUTORS:
            raise TournamentError(f"--executor must be {' or '.join(EXECUTORS)}, not "
                                  f"{self.executor!r}")
        if self.ray_address is not None and self.executor != "ray":
            raise TournamentError("--ray-address is for the ray executor: add --executor ray")

    def saved(self) -> dict[str, Any]:
        """The settings as stored with the tournament (``resume`` reads them back)."""
        plain = {f.name: getattr(self, f.name) for f in fields(self)
                 if f.name not in ("limits", *PER_RUN)}
        return {**plain, **self.limits.as_settings()}

    @classmethod
    def from_saved(cls, saved: Mapping[str, Any], parallel: int | None = None) -> RunSettings:
        """Settings stored by :meth:`saved`; defaults for keys saved before they existed."""
        known = {f.name for f in fields(cls)} - {"limits", *PER_RUN}
        settings = cls(**{key: value for key, value in saved.items() if key in known},
                       limits=ResourceLimits.from_settings(saved))
        return replace(settings, parallel=parallel) if parallel else settings

    @property
    def clocks(self) -> MatchSettings:
        """The clocks of every match of the tournament."""
        return MatchSettings(move_timeout_s=self.move_timeout_s, start_timeout_s=self.start_timeout_s,
                             time_bank_s=self.time_bank_s, event_delay_s=self.event_delay_s)


EVERY_RUN = PerRun()
"""The defaults: this machine, in the sandbox."""
DEFAULTS = RunSettings()
"""How a tournament is played unless it says otherwise: the one place the command line, the
operator service and the ladder take their defaults from."""
