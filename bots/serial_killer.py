"""A heuristic bot for Serial Killer.

Everything but the stack order is public, so the bot reads the whole table
from its observation:

* **Jacks** are always held when drawn (burying at once can only close the
  grave the card was drawn for; a held corpse can close any open grave later).
  At the end of its turn the bot buries held corpses to leave the next seat as
  few open graves, hence as few draws and chances to kill, as it can, but never
  closes the last open grave: closing all six reshuffles the stack and hands the
  next seat six fresh draws.
* **Aces** discredit a clue against the bot whenever it has fewer than 6 (one
  clue for itself is worth one against every rival). At 6 clues it informs on a
  rival it would arrest outright (a rival with 1 clue), and otherwise keeps the
  Ace for a later discredit, except in a duel (where informing is as good) or
  when it already holds three cards; then it informs on the rival with most clues.
  An Ace drawn with no victim grave on the table must be held.

    python -m bots.serial_killer
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.games.serial_killer import (
    CLUES,
    BuryNow,
    EndTurn,
    Hold,
    InformNow,
    Observation,
    Phase,
    PlayCorpse,
    PlayInformant,
    grave_open,
)
from sdk import Bot


class SerialKillerBot(Bot):
    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        obs: Observation = observation
        if obs.phase is Phase.JACK_DRAWN:
            return Hold() if Hold() in legal_actions else BuryNow()
        informs = [a for a in legal_actions if isinstance(a, (InformNow, PlayInformant))]
        target = self._informant_target(obs, {a.target for a in informs})
        if target is not None:
            return next(a for a in informs if a.target == target)
        if obs.phase is Phase.ACE_DRAWN:
            return Hold()
        corpses = [a for a in legal_actions if isinstance(a, PlayCorpse)]
        open_graves = sum(1 for g in obs.graves if grave_open(g))
        if corpses and open_graves > 1:
            # Close the open grave holding the most number cards (any would do).
            return max(corpses, key=lambda a: (len(obs.graves[a.grave]), -a.grave))
        return EndTurn()

    @staticmethod
    def _informant_target(obs: Observation, targets: set[int]) -> int | None:
        """Whom to play an informant against now, or None to keep it."""
        me = obs.seat
        if me in targets:  # only offered below 6 clues
            return me
        rivals = [t for t in targets if t != me]
        if not rivals:
            return None
        free = sum(1 for a in obs.arrested if not a)
        doomed = [t for t in rivals if obs.clues[t] == 1]
        if doomed:
            return doomed[0]
        if free == 2 or (obs.clues[me] == CLUES and len(obs.held[me]) > 2):
            # Against the rival with the most clues: the one that would outlast us.
            return max(rivals, key=lambda t: (obs.clues[t], -t))
        return None


if __name__ == "__main__":
    from sdk.run import run

    run(SerialKillerBot)
