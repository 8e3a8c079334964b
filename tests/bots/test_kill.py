"""The heuristic Kill bot: beats random bots clearly, and plays exactly as it did before its
speed-ups (the same decisions over seeded matches: the search bot's rollouts are this bot, and a
faster one must not be a different one)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from arena.games.kill import GAME, ClaimJoker, Draw, EndTurn, Kill
from bots.kill import KillBot
from bots.random_bot import RandomBot
from sdk.bot import Bot, MatchInfo
from sdk.local import play_local
from tests.games.test_kill import WINNING_DECK, Script, deal_order, heart_run

MATCHES = 24
DECISIONS_DIGEST = "b6533046257e78814d29e41a301d85459a6f364481f841614e48ced0e178545f"
"""sha256 of every decision of the heuristic seats and every result, one per line, over the
matches below, as the bot played them before its speed-ups."""


class Recorded(KillBot):
    """The heuristic bot, writing down each of its decisions."""

    def __init__(self, decisions: list[str]) -> None:
        super().__init__()
        self.decisions = decisions

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        action = super().act(observation, legal_actions)
        self.decisions.append(repr(action))
        return action


def test_the_heuristic_beats_random_and_plays_as_it_did() -> None:
    lines: list[str] = []
    ranks: list[tuple[int, int]] = []  # (the heuristic seat's rank, a random seat's rank)
    for m in range(MATCHES):
        players = 3 if m % 3 == 0 else 4
        rookie = m % players  # a random bot's seat in every other match
        bots: list[Bot] = [RandomBot(seed=10 * m + s) if m % 2 == 0 and s == rookie
                           else Recorded(lines) for s in range(players)]
        result = play_local("kill", bots, seed=m, options={"target_score": "21"})
        lines.append(repr(result))
        if m % 2 == 0:
            ranks.append((result.ranks[(rookie + 1) % players], result.ranks[rookie]))
    assert hashlib.sha256("\n".join(lines).encode()).hexdigest() == DECISIONS_DIGEST
    assert sum(mine < theirs for mine, theirs in ranks) >= 0.75 * len(ranks), ranks


def test_a_copy_that_learns_from_the_state_kills_a_winning_hand_it_was_shown() -> None:
    """The search bot's rollouts (bots/search.py, Plan.learns): a copy of the heuristic bot
    told nothing but the state it plays in (KillBot.learn) knows what its seat saw there.
    Seat 0 shows its winning hand in a failed Joker claim; seat 1, to act, kills it once it
    has learnt from the state, and draws without."""
    script = Script(4, [deal_order(4, WINNING_DECK)], rounds=1)
    heart_run(script)  # seat 0 holds TH JH QH KH
    script.do(EndTurn())
    script.pass_turns(3)
    script.do(ClaimJoker(1))  # no Joker there: the claim fails, the hand is shown to all
    assert script.to_act == 1 and Kill(0) in script.legal()
    observation = GAME.observe(script.state, 1)
    learnt, told_nothing = KillBot(), KillBot()
    for bot in (learnt, told_nothing):
        bot.on_start(MatchInfo("m", "kill", GAME.version, 1, 4, {}, (), 0.0, 0.0))
    learnt.learn(script.state)
    assert learnt.act(observation, script.legal()) == Kill(0)
    assert told_nothing.act(observation, script.legal()) == Draw()
