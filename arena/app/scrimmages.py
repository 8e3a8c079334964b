"""Scrimmages: an author asks the server for duplicate sets of one game between their own
versions and any other active versions (other authors' or the bundled bots), to learn whether
a new version beats the old one and the field, without touching a rating.

- **What is played.** Two bots, in a game two can play: a versus match of ``sets`` duplicate
  sets at a table of two (each deal in both seat rotations), stopping early when an SPRT is
  asked for and decides. Otherwise a round-robin at the game's default table (a bot takes
  several seats where there are fewer bots than seats), each group's deal in every rotation,
  ``sets`` times.
- **Unrated.** A scrimmage is a tournament whose settings name the author who asked for it
  (``scrimmage_of``): its matches count in its own standings and crosstable, never in a
  rating pool, the head-to-head tables or the leaderboards. Its matches, standings and
  replays are shown as any tournament's.
- **Limits, per author** (:class:`ScrimmageRules`, set by the operator: ``arena serve
  --scrimmage-...``): at most ``queued`` scrimmages not yet finished, and at most
  ``matches_per_hour`` matches asked for in the last hour; a request over either is refused
  in one line and nothing is written.
- **A share of the server.** The scheduler plays scrimmages with at most ``share`` of its
  match slots (at least one), so they never starve the ladder and the operator's
  tournaments (:mod:`arena.tournament.scheduler`).
"""

from __future__ import annotations

import dataclasses
import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from arena.app.tournaments import TournamentRequest, create
from arena.errors import ArenaError, ErrorKind
from arena.games import get_game
from arena.storage.store import Store, TournamentInfo
from arena.tournament.formats import ROUND_ROBIN, VERSUS
from arena.tournament.setup import name_version

MAX_SETS = 500
"""The most sets one request may ask for."""
MAX_BOTS = 8
"""The most bots one scrimmage may seat (a round-robin's groups grow fast)."""


@dataclass(frozen=True)
class ScrimmageRules:
    """The operator's limits on scrimmages (``arena serve --scrimmage-share``,
    ``--scrimmage-matches``, ``--scrimmage-queue``)."""

    share: float = 0.25  # of the scheduler's match slots, at least one slot
    matches_per_hour: int = 400  # per author, asked for within the last hour
    queued: int = 2  # per author, scrimmages not finished yet

    def __post_init__(self) -> None:
        if not 0 < self.share <= 1:
            raise ArenaError(f"--scrimmage-share must be above 0 and at most 1, not {self.share}",
                             kind=ErrorKind.BAD_REQUEST)
        if self.matches_per_hour < 0 or self.queued < 0:
            raise ArenaError("scrimmage limits must be 0 or more", kind=ErrorKind.BAD_REQUEST)

    def slots(self, parallel: int) -> int:
        """The scheduler's slots scrimmages may hold at once, of its ``parallel``."""
        return max(1, math.floor(parallel * self.share))


SCRIMMAGES = ScrimmageRules()
"""The limits unless the operator sets others."""


@dataclass(frozen=True, kw_only=True)
class ScrimmageRequest:
    """What an author asks for: ``mine``, versions of their own bots (``NAME`` or
    ``NAME@VERSION``); ``against``, any other active versions; ``sets`` duplicate sets (a
    versus between two bots may stop early on ``sprt``, ``elo0=0,elo1=10``)."""

    game: str
    mine: Sequence[str]
    against: Sequence[str]
    sets: int
    sprt: str | None = None


class ScrimmageRefused(ArenaError):
    kind = ErrorKind.BAD_REQUEST


class OverLimit(ScrimmageRefused):
    kind = ErrorKind.BUSY


def is_scrimmage(tournament: TournamentInfo) -> bool:
    return tournament.settings.get("scrimmage_of") is not None


def scrimmages_of(store: Store, author_id: int) -> list[TournamentInfo]:
    """An author's scrimmages, newest first."""
    return [t for t in store.list_tournaments() if t.settings.get("scrimmage_of") == author_id]


class ScrimmageDesk:
    """Takes scrimmage requests for the arena of ``store`` under ``rules``: one request at a
    time, so that two at once cannot both pass an author's limits."""

    def __init__(self, store: Store, rules: ScrimmageRules) -> None:
        self.store = store
        self.rules = rules
        self._lock = threading.Lock()

    def request(self, author_id: int, asked: ScrimmageRequest,
                now: datetime | None = None) -> TournamentInfo:
        """Queue the scrimmage ``asked`` for the author ``author_id`` (see the module), for the
        server's scheduler; refused in one line (nothing written) when it is not theirs to ask
        or over their limits."""
        if not 1 <= asked.sets <= MAX_SETS:
            raise ScrimmageRefused(f"--sets must be from 1 to {MAX_SETS}, not {asked.sets}")
        if not asked.mine:
            raise ScrimmageRefused("name at least one version of your own bots (--bot)")
        for label in asked.mine:
            bot = self.store.get_bot(*name_version(label))
            if bot.author_id != author_id:
                raise ScrimmageRefused(f"{bot.label} is not a bot of yours: a scrimmage plays "
                                       "your own versions (--bot) against others (--against)",
                                       kind=ErrorKind.NOT_ALLOWED)
        labels = [*asked.mine, *asked.against]
        if not 2 <= len(labels) <= MAX_BOTS:
            raise ScrimmageRefused(f"a scrimmage seats from 2 to {MAX_BOTS} bots, not "
                                   f"{len(labels)}: your own (--bot) and others (--against)")
        for label in asked.against:
            if self.store.get_bot(*name_version(label)).removed:
                raise ScrimmageRefused(f"{label} is removed: choose an active version")
        game = get_game(asked.game)
        versus = len(labels) == 2 and game.min_players <= 2
        if asked.sprt is not None and not versus:
            raise ScrimmageRefused("--sprt is for a scrimmage of two bots (one --bot, one "
                                   "--against) in a game two can play")
        request = TournamentRequest(
            game=game.name, bots=labels, players=2 if versus else None,
            repetitions=1 if versus else asked.sets, format=VERSUS if versus else ROUND_ROBIN,
            sets=asked.sets if versus else None, sprt=asked.sprt, parallel=2)
        settings = dataclasses.replace(request.settings(), scrimmage_of=author_id)
        with self._lock:
            mine = scrimmages_of(self.store, author_id)
            waiting = [t for t in mine if not t.status.ended]
            if len(waiting) >= self.rules.queued:
                raise OverLimit(f"you have {len(waiting)} scrimmages not finished yet, the most "
                                f"the arena allows ({self.rules.queued}): ask again once one "
                                "is over")
            since = (now or datetime.now(UTC)) - timedelta(hours=1)
            recent = sum(t.total for t in mine if t.created_at >= since)

            def within(matches: int) -> None:
                if recent + matches > self.rules.matches_per_hour:
                    raise OverLimit(
                        f"this scrimmage is {matches} matches and you asked for {recent} in "
                        f"the last hour; the arena allows {self.rules.matches_per_hour} an "
                        "hour: ask for fewer sets, or later")

            return create(self.store, request, settings, queued=True, check_size=within)


__all__ = ["MAX_BOTS", "MAX_SETS", "SCRIMMAGES", "OverLimit", "ScrimmageDesk",
           "ScrimmageRefused", "ScrimmageRequest", "ScrimmageRules", "is_scrimmage",
           "scrimmages_of"]
