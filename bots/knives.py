"""A heuristic Knives bot: picks strong hands, banks stars, plays for its side.

    python -m bots.knives

* Choosing. Its strength for a strong suit counts trumps (Joker, Knives, the
  strong suit's high cards) and stars; it picks when strong enough, otherwise
  passes naming the suit it is strongest in. The dealer declares that suit too.
* Banking. It banks the two non-trump cards worth most stars (safe stars for
  the banker), keeping its trumps; it announces solo whenever it may.
* Play. Its side is itself and, in a banker hand, its partner as far as it
  knows (the banker for the shadow; the Ghost's player once the Ghost is
  out; every non-banker for a defender until the shadow shows). When an
  opponent is winning the trick it wins it with its cheapest winning card or
  throws its cheapest card; when a friend is winning it adds stars. In a
  leaster it ducks under the winner and dumps stars on others; in a moster it
  plays to win stars like a lone banker.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.games.knives import (
    STRONG_SUITS,
    AnnounceSolo,
    Bank,
    Declare,
    KMode,
    KnivesCard,
    KRank,
    KSuit,
    Leaster,
    Moster,
    NoAnnouncement,
    Observation,
    Pass,
    Phase,
    Pick,
    Play,
    Reveal,
)
from arena.games.tricks import winner_index
from sdk import Bot


def is_trump(card: KnivesCard, strong: KSuit | None) -> bool:
    return card.suit in (KSuit.NONE, KSuit.KNIVES) or card.suit is strong


def strength(hand: Sequence[KnivesCard], strong: KSuit) -> float:
    """Rough value of a hand for the banker with ``strong``: trumps, high trumps, stars."""
    score = 0.0
    for card in hand:
        if card.suit is KSuit.NONE:
            score += 2.0
        elif card.suit is KSuit.KNIVES:
            score += 1.0 + (0.5 if card.rank >= KRank.SIX else 0.0)
        elif card.suit is strong:
            score += 0.8 + (0.6 if card.rank >= KRank.QUEEN else 0.0)
        score += 0.3 * card.stars
    return score


def trick_winner(cards: Sequence[KnivesCard], strong: KSuit | None, powers: bool) -> int:
    """Index of the card winning ``cards`` so far (the engine's rule, §5)."""
    for i, card in enumerate(cards):
        if card.suit is KSuit.NONE:
            return i
    kings = {c.suit for c in cards if c.rank is KRank.KING} if powers else set()

    def power(card: KnivesCard) -> int:
        return 15 if card.rank is KRank.GHOST and card.suit in kings else int(card.rank)

    trumps = (KSuit.KNIVES, strong) if strong is not None else (KSuit.KNIVES,)
    return winner_index(cards, cards[0].suit, lambda c: c.suit, power, trumps)


class KnivesBot(Bot):
    def __init__(self) -> None:
        self.powers = True

    def on_start(self, match: Any) -> None:
        self.powers = not match.options.get("simplified_rules", False)

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        obs: Observation = observation
        legal = list(legal_actions)
        hand = obs.hand
        if obs.phase is Phase.DECLARE:
            return Declare(max(STRONG_SUITS, key=lambda s: strength(hand, s)))
        if obs.phase is Phase.CHOOSE:
            assert obs.strong is not None
            if Pick() in legal and (strength(hand, obs.strong) >= 6.0 or len(legal) == 1):
                return Pick()
            passes = [a for a in legal if isinstance(a, Pass)]
            if not passes:
                return Pick()
            return max(passes, key=lambda p: strength(hand, p.suit) if p.suit else 0.0)
        if obs.phase is Phase.BANK:
            return max((a for a in legal if isinstance(a, Bank)), key=lambda b: self._bank_value(
                b, obs.strong))
        if obs.phase is Phase.SOLO:
            return AnnounceSolo() if AnnounceSolo() in legal else NoAnnouncement()
        if obs.phase is Phase.MODE:
            strong = obs.strong or KSuit.SPADES
            return Moster() if strength(hand, strong) >= 5.0 else Leaster()
        if obs.phase is Phase.REVEAL:
            return Reveal(())
        return self._play(obs, legal)

    @staticmethod
    def _bank_value(bank: Bank, strong: KSuit | None) -> float:
        value = 0.0
        for card in (bank.first, bank.second):
            value += card.stars * 2
            if is_trump(card, strong) or card.rank is KRank.GHOST:
                value -= 10 + int(card.rank)
            else:
                value -= 0.1 * int(card.rank)
        return value

    def _friends(self, obs: Observation) -> set[int]:
        me = obs.seat
        if obs.mode is not KMode.BANKER or obs.banker is None:
            return {me}
        if me == obs.banker:
            ghost = obs.ghost_played_by
            return {me} if ghost is None else {me, ghost}
        if obs.is_shadow:
            return {me, obs.banker}
        return {s for s in range(5) if s not in (obs.banker, obs.ghost_played_by)} | {me}

    def _play(self, obs: Observation, legal: list[Play]) -> Play:
        cards = [a.card for a in legal]
        strong = obs.strong
        trick = list(obs.trick_cards)

        def cheap(card: KnivesCard) -> tuple[int, bool, int]:
            return (card.stars, is_trump(card, strong), int(card.rank))

        if not trick:
            if obs.mode is KMode.LEASTER:
                return Play(min(cards, key=lambda c: (is_trump(c, strong), cheap(c))))
            trumps = [c for c in cards if is_trump(c, strong)]
            if obs.seat in self._friends(obs) and obs.seat == obs.banker and len(trumps) >= 2:
                return Play(max(trumps, key=lambda c: (c.suit is KSuit.NONE, c.suit is KSuit.KNIVES,
                                                       int(c.rank))))
            return Play(min(cards, key=cheap))
        winner_seat = obs.trick_seats[trick_winner(trick, strong, self.powers)]
        wins = [c for c in cards if trick_winner([*trick, c], strong, self.powers) == len(trick)]
        loses = [c for c in cards if c not in wins]
        if obs.mode is KMode.LEASTER:
            if loses:
                return Play(max(loses, key=lambda c: (c.stars, int(c.rank))))
            return Play(min(cards, key=cheap))
        if winner_seat in self._friends(obs) and obs.mode is KMode.BANKER:
            pool = loses or cards
            return Play(max(pool, key=lambda c: (c.stars, -int(is_trump(c, strong)))))
        if wins:
            at_stake = sum(c.stars for c in trick)
            last = len(trick) == 4
            if at_stake > 0 or last or obs.mode is KMode.MOSTER:
                return Play(min(wins, key=cheap))
        return Play(min(cards, key=cheap))


if __name__ == "__main__":
    from sdk.run import run

    run(KnivesBot)
