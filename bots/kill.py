"""A heuristic Kill bot: collects 10-J-Q-K of one colour, kills on evidence.

    python -m bots.kill

What it does, from the observation and the events its seat is shown:

* **Colours.** A hand is valued by its best colour: distinct 10/J/Q/K of that
  colour plus Jokers, then how many cards that would complete it are still
  live (not face up on the table, not known to sit in another hand).
* **Exchanges.** After a draw it takes the swap or two-card move that improves
  that value most, or rejects the card. A two-card gift goes to the opponent it
  most suspects of a strong hand (else the leader), who must discard one of its
  own cards.
* **Suspicion.** For every opponent it keeps the possible sets of cards that
  opponent is known to hold (revealed hands, cards taken from the table, the two
  cards of a two-card move), branching when the opponent discards unseen. The
  chance that a seat holds a winning hand follows from those sets; it kills when
  that chance is high enough, and asks for a Joker only when one is known to be
  there and would make its hand winning.
* **Wins, trios, folds.** It shows a true win whenever it can; after a draw it
  waits one turn for the true win (+10 rather than +5) unless its hand is mostly
  known to the others. It takes a trio when the missing card is gone or when it is
  behind late in a round, and folds when an immune opponent is surely winning or
  its hand is hopeless late in a round.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from arena.games.cards import Card, Rank, standard_deck
from arena.games.kill import (
    HIGH_RANKS,
    ClaimJoker,
    ClaimTrio,
    ClaimWin,
    Discard,
    Draw,
    EndTurn,
    FalseWinShown,
    Fold,
    GiftDiscarded,
    JokerClaimed,
    JokerDiscarded,
    Kill,
    KillAttempt,
    Observation,
    Phase,
    Reject,
    RoundStarted,
    ShowTrio,
    ShowTrueWin,
    State,
    Status,
    Swap,
    Swapped,
    Tracker,
    Two,
    TwoCardExchange,
    can_swap,
    fixed_cards,
    is_consistent,
    is_trio,
    is_winning,
    knowledge,
)
from sdk import Bot
from sdk.bot import MatchInfo

ALL_CARDS = tuple(standard_deck(1, jokers=2))
JOKERS = tuple(c for c in ALL_CARDS if c.rank is Rank.JOKER)
HIGH_CARDS = {red: tuple(c for c in ALL_CARDS if c.rank in HIGH_RANKS and c.is_red == red)
              for red in (True, False)}
"""The 10, J, Q, K of each colour (``True``: red): the only cards but Jokers a winning hand
holds."""
COMPLETING = (*HIGH_CARDS[True], *HIGH_CARDS[False], *JOKERS)
"""Every card a winning hand may hold."""
MAX_CANDIDATES = 120
KILL_THRESHOLD = 0.5
KILL_THRESHOLD_WEAK_HAND = 0.3
Hypotheses = set[frozenset[Card]]


def colour_progress(hand: Iterable[Card], red: bool) -> tuple[int, set[Rank]]:
    """Cards of ``hand`` towards a winning hand of one colour, and the ranks it still needs."""
    ranks = set()
    jokers = 0
    for c in hand:
        if c.rank is Rank.JOKER:
            jokers += 1
        elif c.rank in HIGH_RANKS and c.is_red == red:
            ranks.add(c.rank)
    missing = set(HIGH_RANKS) - ranks
    return min(4, len(ranks) + jokers), missing


class KillBot(Bot):
    def __init__(self) -> None:
        self.seat = 0
        self.players = 4
        self.tracker = Tracker(0, 4)
        self.suspect: dict[int, Hypotheses] = {}
        self.pending_gift: Card | None = None
        self.exposed: set[Card] = set()  # cards of this seat's hand the others have seen

    # -- bookkeeping ------------------------------------------------------------
    def on_start(self, match: MatchInfo) -> None:
        self.seat = match.seat
        self.players = match.players
        self.tracker = Tracker(match.seat, match.players)
        self._new_round(fixed_cards(match.players))

    def _new_round(self, fixed: tuple[tuple[Card, ...], ...]) -> None:
        self.tracker.update(RoundStarted(0, 0, fixed, 0))
        self.suspect = {s: {frozenset(fixed[s])} for s in range(self.players) if s != self.seat}
        self.pending_gift = None
        self.exposed = set(fixed[self.seat])

    def on_events(self, events: Sequence[Any]) -> None:
        for event in events:
            if isinstance(event, RoundStarted):
                self._new_round(event.fixed)
                continue
            self.tracker.update(event)
            self._suspect(event)
            self._expose(event)

    def learn(self, state: State) -> None:
        """Know what this seat knows in ``state`` from the game's record of the events each
        seat saw this round (:func:`arena.games.kill.knowledge`) rather than from events told
        to it: how the search bot's rollouts play it (bots/search.py), every seat knowing
        there what it would know. Each opponent's hand is one hypothesis, its known cards;
        this seat's cards another seat knows it holds are exposed."""
        trackers = knowledge(state).trackers
        me, players = self.seat, state.players
        self.tracker = trackers[me]
        known: dict[int, set[Card]] = {s: set() for s in range(players) if s != me}
        for card, place in self.tracker.known.items():
            if place in known:
                known[place].add(card)
        self.suspect = {s: {frozenset(cards)} for s, cards in known.items()}
        self.exposed = {c for c in state.hands[me]
                        if any(trackers[s].known.get(c) == me for s in known)}
        self.pending_gift = None

    def _set(self, seat: int, hypotheses: Hypotheses) -> None:
        if seat == self.seat:
            return
        kept = {h for h in hypotheses if len(h) <= 5}
        if not kept:
            kept = {frozenset()}
        if len(kept) > MAX_CANDIDATES:
            kept = set(sorted(kept, key=lambda h: sorted(h))[:MAX_CANDIDATES])
        self.suspect[seat] = kept

    def _suspect(self, event: Any) -> None:
        me = self.seat
        if isinstance(event, Swapped) and event.seat != me:
            new: Hypotheses = set()
            for h in self.suspect[event.seat]:
                outs = [h - {c} for c in h if can_swap(event.taken, c)]
                if len(h) < 4:
                    outs.append(h)
                new |= {o | {event.taken} for o in outs}
            self._set(event.seat, new)
        elif isinstance(event, TwoCardExchange):
            p, shown = event.seat, frozenset(event.shown)
            if p != me:
                new = set()
                for h in self.suspect[p]:
                    full = h | shown
                    if len(full) > 4:
                        continue
                    gone = [event.given] if event.given is not None else list(shown)
                    new |= {(full - {g}) | {event.taken} for g in gone}
                self._set(p, new)
            self.pending_gift = event.given
        elif isinstance(event, GiftDiscarded):
            r, gift = event.seat, self.pending_gift
            self.pending_gift = None
            if r != me:
                new = set()
                for h in self.suspect[r]:
                    outs = [h - {c} for c in h] + ([h] if len(h) < 4 else [])
                    new |= {o | {gift} if gift is not None else o for o in outs}
                self._set(r, new)
        elif isinstance(event, JokerClaimed):
            hand = frozenset(event.hand)
            if event.seat != me:
                self._set(event.seat, {hand | {event.joker} if event.joker else hand})
            if event.success and event.joker is not None and event.target != me:
                self._set(event.target, {h - {event.joker} for h in self.suspect[event.target]
                                         if event.joker in h or len(h) < 4})
        elif isinstance(event, JokerDiscarded) and event.seat != me:
            new = set()
            for h in self.suspect[event.seat]:
                new |= {h - {c} for c in h}
                if len(h) < 5:
                    new.add(h)
            self._set(event.seat, new)
        elif isinstance(event, KillAttempt) and event.target != me:
            self._set(event.target, {frozenset(event.target_hand)})
        elif isinstance(event, FalseWinShown) and event.seat != me:
            self._set(event.seat, {frozenset(event.hand)})

    def _expose(self, event: Any) -> None:
        me = self.seat
        if isinstance(event, Swapped) and event.seat == me:
            self.exposed.add(event.taken)
        elif isinstance(event, TwoCardExchange) and event.seat == me:
            self.exposed |= {event.taken, *event.shown}
        elif isinstance(event, (JokerClaimed, FalseWinShown)) and event.seat == me:
            self.exposed |= set(event.hand)
            if isinstance(event, JokerClaimed) and event.joker is not None:
                self.exposed.add(event.joker)

    # -- evaluation ----------------------------------------------------------------
    def _dead(self, obs: Observation) -> set[Card]:
        """Cards that cannot come to this seat soon: face up, or known in another hand."""
        dead = {c for hand in obs.face_up for c in hand}
        dead |= {c for c, place in self.tracker.known.items() if place >= 0}
        return dead

    def value(self, hand: Sequence[Card], obs: Observation, dead: set[Card]) -> float:
        best = 0.0
        own_red = obs.seat_suits[self.seat].is_red
        gone = dead.union(hand)
        jokers = sum(1 for c in JOKERS if c not in gone)
        for red in (True, False):
            progress, missing = colour_progress(hand, red)
            live = jokers + sum(1 for c in HIGH_CARDS[red] if c.rank in missing and c not in gone)
            score = 10.0 * progress + 0.3 * min(live, 8) + (0.5 if red == own_red else 0.0)
            if progress == 3 and live == 0:
                score -= 5.0
            best = max(best, score)
        return best

    def win_chance(self, seat: int, obs: Observation) -> float:
        hypotheses = self.suspect.get(seat) or {frozenset()}
        seen = set(obs.hand) | {c for h in obs.face_up for c in h}
        if obs.drawn is not None:
            seen.add(obs.drawn)
        total = 0.0
        for h in hypotheses:
            if len(h) > 4 or not is_consistent(h):
                continue
            if len(h) == 4:
                total += 1.0
            elif len(h) == 3:
                pool = [c for c in ALL_CARDS if c not in seen and c not in h]
                good = sum(1 for c in pool if is_consistent(h | {c}))
                total += good / max(1, len(pool))
        return total / len(hypotheses)

    # -- decisions ---------------------------------------------------------------
    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        obs: Observation = observation
        legal = list(legal_actions)
        if obs.phase is Phase.TURN_START:
            return self._turn_start(obs, legal)
        if obs.phase is Phase.DRAWN:
            return self._exchange(obs, legal)
        if obs.phase is Phase.GIFT_DISCARD:
            assert obs.gift is not None
            return self._best_discard(obs, legal, list(obs.hand), obs.gift)
        if obs.phase is Phase.JOKER_DISCARD:
            return self._best_discard(obs, legal, list(obs.hand), None)
        return self._post_move(obs, legal)

    def _behind(self, obs: Observation) -> bool:
        return obs.totals[self.seat] + 8 <= max(obs.totals)

    def _wants_trio(self, obs: Observation, dead: set[Card]) -> bool:
        hand = list(obs.hand)
        if not is_trio(hand):
            return False
        threes = _threes(hand)
        completing = any(is_winning([*three, c]) for c in COMPLETING
                         if c not in hand and c not in dead for three in threes)
        if not completing:
            return True
        return self._behind(obs) and obs.turns_completed >= 6 * obs.players

    def _turn_start(self, obs: Observation, legal: list[Any]) -> Any:
        if ShowTrueWin() in legal and is_winning(obs.hand):
            return ShowTrueWin()
        dead = self._dead(obs)
        own = self.value(obs.hand, obs, dead)
        threshold = KILL_THRESHOLD if own >= 30 else KILL_THRESHOLD_WEAK_HAND
        kills = [(self.win_chance(a.target, obs), a) for a in legal if isinstance(a, Kill)]
        if kills:
            chance, kill = max(kills, key=lambda x: x[0])
            if chance >= threshold:
                return kill
        claim = self._joker_claim(obs, legal, dead)
        if claim is not None:
            return claim
        if ShowTrio() in legal and self._wants_trio(obs, dead):
            return ShowTrio()
        if Fold() in legal:
            immune_winner = any(obs.immune[s] and obs.statuses[s] is Status.ACTIVE
                                and self.win_chance(s, obs) >= 0.9
                                for s in range(obs.players) if s != self.seat)
            hopeless = own < 20 and obs.turns_completed >= 20 * obs.players
            if immune_winner or hopeless:
                return Fold()
        return Draw()

    def _joker_claim(self, obs: Observation, legal: list[Any], dead: set[Card]) -> Any:
        for action in legal:
            if not isinstance(action, ClaimJoker):
                continue
            hypotheses = self.suspect.get(action.target, set())
            has_joker = hypotheses and all(any(c.rank is Rank.JOKER for c in h)
                                           for h in hypotheses)
            if not has_joker:
                continue
            joker = next(c for c in next(iter(hypotheses)) if c.rank is Rank.JOKER)
            five = [*obs.hand, joker]
            if any(is_winning([c for c in five if c != out]) for out in five):
                return action
        return None

    def _exchange(self, obs: Observation, legal: list[Any]) -> Any:
        drawn = obs.drawn
        assert drawn is not None
        hand = list(obs.hand)
        dead = self._dead(obs)
        best_action: Any = Reject()
        best = self.value(hand, obs, dead)
        target = self._gift_target(obs)
        for action in legal:
            if isinstance(action, Swap):
                new = [c for i, c in enumerate(hand) if i != action.hand_index] + [drawn]
                score = self.value(new, obs, dead) - 0.01 * _card_worth(hand[action.hand_index])
            elif isinstance(action, Two) and action.recipient == target:
                new = [c for i, c in enumerate(hand) if i != action.give_index] + [drawn]
                score = self.value(new, obs, dead) + 0.2 - 0.01 * _card_worth(
                    hand[action.give_index])
            else:
                continue
            if score > best + 1e-9:
                best, best_action = score, action
        return best_action

    def _gift_target(self, obs: Observation) -> int:
        others = [s for s in range(obs.players)
                  if s != self.seat and obs.statuses[s] is Status.ACTIVE]
        return max(others, key=lambda s: (self.win_chance(s, obs), obs.totals[s], -s))

    def _best_discard(self, obs: Observation, legal: list[Any], hand: list[Card],
                      gift: Card | None) -> Any:
        dead = self._dead(obs)
        extra = [gift] if gift is not None else []

        def score(action: Discard) -> float:
            rest = [c for i, c in enumerate(hand) if i != action.hand_index] + extra
            return self.value(rest, obs, dead) - 0.01 * _card_worth(hand[action.hand_index])

        return max((a for a in legal if isinstance(a, Discard)), key=score)

    def _post_move(self, obs: Observation, legal: list[Any]) -> Any:
        hand = list(obs.hand)
        if ClaimWin() in legal:
            known = sum(1 for c in hand if c in self.exposed)
            if known >= 3 or obs.turns_completed + obs.players >= 250:
                return ClaimWin()
            return EndTurn()
        if ClaimTrio() in legal and self._wants_trio(obs, self._dead(obs)) \
                and obs.turns_completed >= 40 * obs.players:
            return ClaimTrio()
        return EndTurn()


def _card_worth(card: Card) -> int:
    return 14 if card.rank is Rank.JOKER else int(card.rank)


def _threes(hand: list[Card]) -> list[list[Card]]:
    return [[c for j, c in enumerate(hand) if j != i] for i in range(len(hand))]


if __name__ == "__main__":
    from sdk.run import run

    run(KillBot)
