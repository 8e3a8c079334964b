"""A heuristic King bot: ducks in negative and down hands, wins cheaply when playing up.

    python -m bots.king

* Play. Against a trick to avoid (negative hands, down contracts) it plays the
  highest card that still loses, or, when it cannot lose, its highest card of
  the suit; when void it sheds the costliest card for the hand (K♥, queens,
  kings and jacks, hearts, else its highest card); it leads its lowest card.
  In up contracts it wins with the cheapest winning card or throws its lowest.
* Contracts. It estimates the tricks its hand takes (aces, guarded kings and
  queens, length in a trump) and compares how far each contract puts it ahead
  of an average opponent: up gains 25(4t - 13)/3, down 25(13 - 4t).
  As Beneficiary it always opens the auction (it can still decline) and
  accepts a price that beats its own best contract. As bidder it bids for a
  contract only when its hand would make more tricks than it pays for.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.games.cards import Card, Rank, Suit
from arena.games.king import (
    KING_OF_HEARTS,
    Accept,
    Bid,
    ChooseTrump,
    DeclareDown,
    DeclareUp,
    Decline,
    Direction,
    Forfeit,
    HandKind,
    Mode,
    Observation,
    OpenAuction,
    Pass,
    Phase,
    Play,
    bid_value,
    power,
)
from sdk import Bot

SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


def up_tricks(hand: Sequence[Card], trump: Suit | None) -> float:
    """A rough count of the tricks ``hand`` takes when trying to win, with ``trump``."""
    total = 0.0
    for suit in SUITS:
        ranks = sorted((power(c) for c in hand if c.suit is suit), reverse=True)
        n = len(ranks)
        total += sum(1.0 for r in ranks if r == 14)
        total += sum(0.7 for r in ranks if r == 13 and n >= 2)
        total += sum(0.4 for r in ranks if r == 12 and n >= 3)
        if suit is trump and n > 3:
            total += n - 3
        elif trump is not None and suit is not trump and n <= 1:
            total += 0.5 * (2 - n) * 0.6  # ruffing chances
    return total


def down_tricks(hand: Sequence[Card]) -> float:
    """A rough count of the tricks ``hand`` is forced to take when trying to lose."""
    total = 0.0
    for suit in SUITS:
        ranks = [power(c) for c in hand if c.suit is suit]
        low = sum(1 for r in ranks if r <= 7)
        for r in ranks:
            if r >= 11:
                total += (r - 10) * 0.2 * (1.0 if low < 2 else 0.5)
    return total


def best_trump(hand: Sequence[Card]) -> tuple[Suit | None, float]:
    options: list[Suit | None] = [*SUITS, None]
    best = max(options, key=lambda t: up_tricks(hand, t))
    return best, up_tricks(hand, best)


def up_edge(tricks: float) -> float:
    return 25 * (4 * tricks - 13) / 3


def down_edge(tricks: float) -> float:
    return 25 * (13 - 4 * tricks)


def danger(card: Card, kind: HandKind, mode: Mode | None) -> float:
    """How much a card costs to keep in a hand we want to lose tricks in (higher: shed first)."""
    score = float(power(card))
    if mode is Mode.NEGATIVE:
        if card == KING_OF_HEARTS and kind in (HandKind.NO_KING_OF_HEARTS, HandKind.QUICK_HEARTS):
            score += 100
        if card.rank is Rank.QUEEN and kind in (HandKind.NO_QUEENS, HandKind.QUICK_QUEENS_AND_MEN):
            score += 50
        if card.rank in (Rank.KING, Rank.JACK) and kind in (HandKind.NO_MEN,
                                                            HandKind.QUICK_QUEENS_AND_MEN):
            score += 30
        if card.suit is Suit.HEARTS and kind in (HandKind.NO_HEARTS, HandKind.QUICK_HEARTS):
            score += 20
    return score


class KingBot(Bot):
    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        obs: Observation = observation
        legal = list(legal_actions)
        if obs.phase is Phase.PLAY:
            return self._play(obs, legal)
        hand = obs.hand
        trump, t_up = best_trump(hand)
        own_up, own_down = up_edge(t_up), down_edge(down_tricks(hand))
        own_best = max(own_up, own_down)
        if obs.phase in (Phase.BEN_CHOICE, Phase.BEN_CONTRACT):
            if OpenAuction() in legal:
                return OpenAuction()
            return DeclareUp(trump) if own_up >= own_down else DeclareDown()
        if obs.phase is Phase.BEN_RESPONSE:
            if Accept() in legal and obs.high_direction is not None:
                price = bid_value(obs.high_n, obs.high_direction)
                if price * 4 / 3 > own_best:
                    return Accept()
            if Forfeit() in legal and own_best < 25:
                return Forfeit()
            return Decline()
        if obs.phase is Phase.WINNER_TRUMP:
            return ChooseTrump(trump)
        if obs.phase is Phase.ULTIMATUM:
            return Bid(8, Direction.UP) if t_up >= 9.5 else Pass()
        # auction: bid for an up contract the hand should beat by a trick
        target = int(t_up) - 1
        bids = [a for a in legal if isinstance(a, Bid) and a.direction is Direction.UP
                and 4 <= a.n <= target]
        if bids:
            return min(bids, key=lambda b: b.n)
        return Pass()

    def _play(self, obs: Observation, legal: list[Play]) -> Play:
        cards = [a.card for a in legal]
        trick = obs.trick_cards
        avoid = obs.mode is not Mode.UP
        if not trick:
            if avoid:
                return Play(min(cards, key=power))
            aces = [c for c in cards if power(c) == 14]
            if aces:
                return Play(aces[0])
            return Play(min(cards, key=power))
        best = self._winning(trick, obs.trump)
        beats = [c for c in cards if self._beats(c, best, trick[0].suit, obs.trump)]
        losers = [c for c in cards if c not in beats]
        if avoid:
            if losers:
                return Play(max(losers, key=lambda c: danger(c, obs.kind, obs.mode)))
            return Play(max(cards, key=power))
        if beats and (obs.trump is None or len(trick) == 3 or power(min(beats, key=power)) >= 11
                      or min(beats, key=power).suit is obs.trump):
            return Play(min(beats, key=lambda c: (c.suit is obs.trump, power(c))))
        return Play(min(cards, key=lambda c: (c.suit is obs.trump, power(c))))

    @staticmethod
    def _beats(card: Card, best: Card, led: Suit, trump: Suit | None) -> bool:
        if card.suit is best.suit:
            return power(card) > power(best)
        return card.suit is trump

    def _winning(self, trick: Sequence[Card], trump: Suit | None) -> Card:
        best = trick[0]
        for card in trick[1:]:
            if self._beats(card, best, trick[0].suit, trump):
                best = card
        return best


if __name__ == "__main__":
    from sdk.run import run

    run(KingBot)
