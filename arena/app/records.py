"""The plain values the read use cases return, for the views (:mod:`leaderboard`) to format.

They are the store's frozen dataclasses (tables never leave :mod:`arena.storage`), named here
so that a view imports them from the application layer and never from the store itself; the
:class:`Store` too, which a view only holds and hands to the use cases.
"""

from __future__ import annotations

from arena.storage.store import (
    BOT_NAME,
    AuthorInfo,
    BotInfo,
    FaultInfo,
    HeadToHead,
    HistoryPoint,
    HistorySample,
    LeaderboardRow,
    MatchInfo,
    MatchStatus,
    NotFoundError,
    SeatInfo,
    Store,
    StoreError,
    TournamentInfo,
)

__all__ = ["BOT_NAME", "AuthorInfo", "BotInfo", "FaultInfo", "HeadToHead", "HistoryPoint",
           "HistorySample", "LeaderboardRow", "MatchInfo", "MatchStatus", "NotFoundError",
           "SeatInfo", "Store", "StoreError", "TournamentInfo"]
