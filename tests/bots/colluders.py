"""A bot that feeds another (King), for the presence tests: it plays as the bundled heuristic,
except where it can help its partner: the auctions its partner sells, and the tricks
its partner is winning or has still to play to.

    python -m tests.bots.colluders PARTNER   # PARTNER: the fed bot's name@version

* When its partner sells a positive hand (an auction, or an ultimatum), it bids the most it
  may: the buyer pays the bid's value to the seller, whatever its tricks.
* In a hand where tricks score (``MODE_UP``), it never takes a trick its partner is winning
  or has still to play to: it plays its lowest card that does not beat the best so far.
* Where tricks cost (negative hands, ``MODE_DOWN``), it takes such a trick, with its highest
  card that beats the best so far: the penalty is its own, not the partner's.

With its partner not at the table it is the heuristic bot. Only the seat names of the match
start and its own observation are used.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from arena.games.king import Bid, Mode, Observation, Phase, Play, bid_value, power
from bots.king import KingBot
from sdk.bot import MatchInfo


class Feeder(KingBot):
    partner_label = ""

    def on_start(self, match: MatchInfo) -> None:
        self.partner = next((seat for seat, name in enumerate(match.seat_names)
                             if name == self.partner_label and seat != match.seat), None)

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        obs: Observation = observation
        if self.partner is None:
            return super().act(observation, legal_actions)
        if obs.phase in (Phase.AUCTION, Phase.ULTIMATUM) and obs.dealer == self.partner:
            bids = [a for a in legal_actions if isinstance(a, Bid)]
            if bids:  # the partner sells the hand: it is paid the bid's value, the most
                return max(bids, key=lambda b: bid_value(b.n, b.direction))
        if obs.phase is not Phase.PLAY or not obs.trick_cards:
            return super().act(observation, legal_actions)
        best = self._winning(obs.trick_cards, obs.trump)
        partner_wins = obs.trick_seats[obs.trick_cards.index(best)] == self.partner
        partner_to_play = self.partner not in obs.trick_seats
        if not partner_wins and not partner_to_play:
            return super().act(observation, legal_actions)
        cards = [a.card for a in legal_actions]
        beats = [c for c in cards if self._beats(c, best, obs.trick_cards[0].suit, obs.trump)]
        if obs.mode is Mode.UP:  # the trick is the partner's to take
            return Play(min([c for c in cards if c not in beats] or cards, key=power))
        if beats:  # a trick that costs: this seat takes it, not the partner
            return Play(max(beats, key=power))
        return super().act(observation, legal_actions)


def main(argv: Sequence[str]) -> None:
    from sdk.run import run

    Feeder.partner_label = argv[0]
    run(Feeder, argv[1:])


if __name__ == "__main__":
    main(sys.argv[1:])
