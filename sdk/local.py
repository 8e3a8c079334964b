"""Play bots against each other in this process, with no server (for bot authors' tests).

Events are delivered as the referee's latest rule allows: each seat's in one
batch just before it acts and before the end, so a bot that passes here does
not rely on hearing of events earlier than a real match promises.

    from sdk.local import play_local
    result = play_local("face-card-kill-card", [MyBot(), RandomBot(), RandomBot()], seed=7)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arena.games import get_game
from arena.games.base import Tagged
from sdk.bot import Bot, MatchInfo, Result


def play_local(game_name: str, bots: Sequence[Bot], seed: int,
               options: Mapping[str, Any] | None = None) -> Result:
    """One match of ``game_name`` with ``bots`` in seat order; raises if a bot answers illegally."""
    game = get_game(game_name)
    players = len(bots)
    opts = game.parse_options(players, options)
    state = game.new(players, seed, opts)
    for number, bot in enumerate(bots):
        bot.on_start(MatchInfo(f"local-{seed}", game.name, game.version, number, players, opts,
                               tuple(type(b).__name__ for b in bots), 0.0))
    waiting: list[list[Any]] = [[] for _ in bots]  # each seat's events, not yet delivered
    _post(waiting, game.opening_events(state))
    while (seat := game.to_act(state)) is not None:
        _deliver(bots[seat], waiting[seat])
        legal = list(game.legal_actions(state))
        action = bots[seat].act(game.observe(state, seat), legal)
        if action not in legal:
            raise ValueError(f"seat {seat} ({type(bots[seat]).__name__}) chose illegal {action!r}")
        _post(waiting, game.apply(state, action))
    outcome = game.outcome(state)
    assert outcome is not None
    result = Result(outcome.scores, outcome.ranks, ("",) * players)
    for number, bot in enumerate(bots):
        _deliver(bot, waiting[number])
        bot.on_end(result)
    return result


def _post(waiting: list[list[Any]], events: Sequence[Tagged]) -> None:
    for viewer, queue in enumerate(waiting):
        queue.extend(t.event for t in events if t.visible(viewer))


def _deliver(bot: Bot, queue: list[Any]) -> None:
    """A seat's events in one batch, as the referee delivers them with a request or the end."""
    if queue:
        bot.on_events(list(queue))
        queue.clear()
