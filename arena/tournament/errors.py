"""What can stop a tournament from being created or played, as one clear line each."""

from __future__ import annotations

from arena.storage.store import StoreError


class TournamentError(ValueError):
    """A tournament cannot be created or run as asked."""


class RemoteBotsAbsent(TournamentError):
    """Remote bots did not attend in time: nothing was played, the tournament can be resumed."""


class BotsDidNotStart(TournamentError):
    """Managed bots did not attend before the first match (they crashed at start, or were
    silent past the start's grace): nothing was played, the tournament can be resumed."""


class StorageStopped(StoreError):
    """The database refused a write mid-tournament (read-only or full disk, ...): the run
    stopped taking matches; what was written is intact and ``resume`` finishes the rest."""
