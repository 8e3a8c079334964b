"""Tournaments: schedules, setup and resume rules, the run loop, and the executors that play matches.

- :mod:`~arena.tournament.schedule`: the schedules of each format (pure);
- :mod:`~arena.tournament.formats`: the formats as saved, and a versus match's SPRT;
- :mod:`~arena.tournament.settings`: :class:`RunSettings`, saved with a tournament;
- :mod:`~arena.tournament.setup`: creating a tournament, and the resume rules;
- :mod:`~arena.tournament.executor`: the seam through which a match is played;
- :mod:`~arena.tournament.local`: :class:`LocalExecutor`, bots on this machine over gRPC;
- :mod:`~arena.tournament.run`: the run loop (parallelism, store writes, stops).
"""

from arena.tournament.errors import (
    BotsDidNotStart,
    RemoteBotsAbsent,
    StorageStopped,
    TournamentError,
)
from arena.tournament.executor import Entrant, Executor, MatchJob
from arena.tournament.local import MANAGED_START_GRACE_S, LocalExecutor
from arena.tournament.run import RunSummary, run_tournament, run_until_done
from arena.tournament.schedule import groups, match_seed, rotations, round_robin
from arena.tournament.settings import RunSettings
from arena.tournament.setup import (
    Plan,
    RemoteAccess,
    Repeated,
    check_unchanged,
    create_tournament,
    remote_access,
    resume_settings,
)

__all__ = [
    "MANAGED_START_GRACE_S", "BotsDidNotStart", "Entrant", "Executor", "LocalExecutor", "MatchJob", "Plan",
    "RemoteAccess",
    "RemoteBotsAbsent", "Repeated", "RunSettings", "RunSummary", "StorageStopped",
    "TournamentError", "check_unchanged", "create_tournament", "groups", "match_seed",
    "remote_access", "resume_settings", "rotations", "round_robin", "run_tournament",
    "run_until_done",
]
