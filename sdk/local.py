"""Play bots against each other in this process, with no server (for bot authors' tests).

The match runs through the arena's own referee, so a local match keeps a
tournament's clocks and fault rules: each bot thinks on a thread of its own
against the move timeout (and time bank); a bot that answers too late, answers
an illegal action or raises is marked with that fault in the result, the
referee's fallback policy plays its seat from then on, and it ranks last.
Events are delivered by the referee's rule: mostly in one batch just before
``act`` and before ``on_end``.

    from sdk.local import play_local
    result = play_local("face-card-kill-card", [MyBot(), RandomBot(), RandomBot()], seed=7)
    assert result.faults == ("", "", "")
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

from arena.games import get_game
from arena.match.links import LocalLink, Player
from arena.match.protocol import MatchEnd, MatchStart
from arena.match.referee import MatchSettings, run_match
from sdk.bot import Bot, Result

CLOCKS = MatchSettings()
"""The referee's clocks by default, which are a tournament's defaults too
(:data:`arena.tournament.settings.CLOCKS`): written once, in :mod:`arena.match.referee`."""


def play_local(game_name: str, bots: Sequence[Bot], seed: int,
               options: Mapping[str, Any] | None = None, *,
               move_timeout_s: float = CLOCKS.move_timeout_s,
               time_bank_s: float = CLOCKS.time_bank_s,
               event_delay_s: float = CLOCKS.event_delay_s) -> Result:
    """One match of ``game_name`` with ``bots`` in seat order, through the referee.

    ``move_timeout_s`` and ``time_bank_s`` are the clocks a tournament would give
    (``arena tournament run --move-timeout --time-bank``); 0 means no deadline.
    """
    game = get_game(game_name)
    players = len(bots)
    opts = game.parse_options(players, options)
    settings = MatchSettings(move_timeout_s=move_timeout_s, time_bank_s=time_bank_s,
                             event_delay_s=event_delay_s)
    return asyncio.run(_play(game.name, [BotPlayer(bot) for bot in bots], seed, dict(opts),
                             settings))


async def _play(game: str, seats: list[BotPlayer], seed: int, options: dict[str, Any],
                settings: MatchSettings) -> Result:
    links = [LocalLink(seat) for seat in seats]

    async def ready(link: LocalLink) -> LocalLink:
        return link

    async def is_alive(seat: int) -> bool:
        return not links[seat].crashed()

    report = await run_match(game_name=game, players=len(seats), seed=seed, options=options,
                             links=[ready(link) for link in links], settings=settings,
                             match_id=f"local-{seed}",
                             seat_names=[type(seat.bot).__name__ for seat in seats],
                             is_alive=is_alive)
    return Result(report.scores, report.ranks, tuple(str(f) for f in report.faults))


class BotPlayer(Player):
    """A :class:`Bot` as the referee's in-process link drives it (an in-process seat)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    def start(self, start: MatchStart) -> None:
        self.bot.on_start(start)

    def events(self, events: Sequence[Any]) -> None:
        self.bot.on_events(list(events))

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        return self.bot.act(observation, list(legal_actions))

    def note(self) -> str:
        return self.bot.take_note()

    def end(self, end: MatchEnd) -> None:
        self.bot.on_end(Result(end.scores, end.ranks, tuple(str(f) for f in end.faults)))
