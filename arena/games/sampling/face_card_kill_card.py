"""Face Card / Kill Card: full states drawn from what one seat has seen.

What a seat knows of the game under way (the main game or a replay): its own hole cards
(``HoleSeen``, ``Observation.hole_cards``) and every card drawn face up (``Drew``,
``Observation.face_up``). Nothing else about the hidden cards: the other seats' hole
cards, an eliminated seat's included, and the stock are a uniform shuffle of the cards it
has not seen, whatever anyone did (``Draw`` and ``Stop`` are open whatever a seat holds,
and the stock's order is the pack's shuffle). A game's end shows every hole
(``HolesRevealed``), and a replay deals afresh from all the packs, so nothing learned in an
earlier game bears on the hidden cards of the next.

So a sample deals the unseen cards (the packs less the seat's hole and the face-up cards)
uniformly to the other seats' holes and the stock, in a uniform order. Its future deals
(a replay's shuffle) come from a generator drawn from the bot's own.

History the engine keeps: the ranking keys and the scores of the games already over are
rebuilt from their ``GameStarted``, ``Eliminated`` and ``GameEnded`` events, as the engine
computes them; the main game's opening events (kept by the engine for ``opening_events``,
asked only at the start) are rebuilt from the public ones and the holes of the main game:
the sample's own while it is under way, the revealed ones after.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from arena.games.base import OptionValue, Tagged, private, public
from arena.games.cards import Card, standard_deck
from arena.games.face_card_kill_card import (
    Eliminated,
    EndReason,
    GameEnded,
    GameStarted,
    HoleDealt,
    HoleSeen,
    HolesRevealed,
    Observation,
    State,
    auto_decks,
)
from arena.games.sampling.base import Knowledge, future_rng


class FaceCardKillCardKnowledge(Knowledge[State, Observation]):
    """One seat's knowledge: the packs in play and the history of the games already over
    (the observation holds the rest: its hole, the face-up cards, the counts)."""

    def __init__(self, players: int, seat: int, options: Mapping[str, OptionValue]) -> None:
        super().__init__(players, seat, options)
        self.decks = auto_decks(players, int(self.options["hole_cards"])) \
            if self.options["decks"] == "auto" else int(self.options["decks"])
        self.deck = standard_deck(self.decks)
        self.seats: tuple[int, ...] = tuple(range(players))  # playing the game under way
        self.eliminated: set[int] = set()  # in the game under way
        self.rank_keys: list[tuple[tuple[int, int], ...]] = [() for _ in range(players)]
        self.scores = [0] * players
        self.opening: list[Any] = []  # the main game's public opening events, in order
        self.own_opening_hole: tuple[Card, ...] = ()
        self.main_holes: tuple[tuple[Card, ...], ...] | None = None  # once revealed

    def note(self, event: Any) -> None:
        if isinstance(event, GameStarted):
            self.decks = event.decks
            self.deck = standard_deck(event.decks)
            self.seats = event.seats
            self.eliminated = set()
            if event.tiebreak_game == 0:
                self.opening = [event]
        elif isinstance(event, HoleDealt):
            if self.main_holes is None and len(self.opening) <= self.players:
                self.opening.append(event)
        elif isinstance(event, HoleSeen):
            if self.main_holes is None and not self.own_opening_hole:
                self.own_opening_hole = event.cards
        elif isinstance(event, Eliminated):
            self.eliminated.add(event.seat)
        elif isinstance(event, HolesRevealed):
            if self.main_holes is None:
                self.main_holes = event.holes
        elif isinstance(event, GameEnded):
            self._game_over(event)

    def _game_over(self, event: GameEnded) -> None:
        """The ranking keys (and, after the main game, the scores) the engine keeps."""
        for s in range(self.players):
            active = s in self.seats and s not in self.eliminated
            if not active:
                key = (0, 0)
            elif event.reason is EndReason.SURVIVOR:
                key = (2, 0)
            else:
                key = (1, event.totals[s])
            self.rank_keys[s] = (*self.rank_keys[s], key)
        if event.tiebreak_game == 0:
            self.scores = [0 if s in self.eliminated else event.totals[s]
                           for s in range(self.players)]

    def unseen(self, observation: Observation) -> list[Card]:
        """The cards the seat has not seen: the packs less its hole and the face-up cards."""
        seen = set(observation.hole_cards)
        for pile in observation.face_up:
            seen.update(pile)
        return [c for c in self.deck if c not in seen]

    def sample(self, observation: Observation, rng: random.Random) -> State:
        seat = self.seat
        n = self.players
        others = [s for s in range(n) if s != seat and observation.hole_counts[s]]
        # Nothing tells the unseen cards apart: deal_uniform's unconstrained case, a shuffle
        # cut into the holes, the rest being the stock in a uniform order.
        unseen = self.unseen(observation)
        rng.shuffle(unseen)
        hole: list[list[Card]] = [[] for _ in range(n)]
        hole[seat] = list(observation.hole_cards)
        start = 0
        for s in others:
            hole[s] = unseen[start:start + observation.hole_counts[s]]
            start += observation.hole_counts[s]
        stock = unseen[start:]
        if len(stock) != observation.stock_size:
            raise ValueError("the observation does not match the packs in play")
        over = observation.to_act is None
        state = State(players=n, options=dict(self.options), rng=future_rng(rng),
                      decks=self.decks, dealer=observation.dealer, stock=stock, hole=hole,
                      face_up=[list(p) for p in observation.face_up],
                      eliminated=list(observation.eliminated),
                      in_game=list(observation.in_game), to_act=observation.to_act,
                      drawn_this_turn=observation.drawn_this_turn,
                      consecutive_passes=observation.consecutive_passes,
                      tiebreak_game=observation.tiebreak_game,
                      rank_keys=list(self.rank_keys), scores=list(self.scores), over=over)
        state.opening = self._opening(hole if observation.tiebreak_game == 0 else None)
        return state

    def _opening(self, hole: list[list[Card]] | None) -> list[Tagged]:
        """The main game's opening events, with the holes of ``hole`` (the main game
        under way) or the revealed ones."""
        holes: Any = self.main_holes if self.main_holes is not None else hole
        events: list[Tagged] = []
        for event in self.opening:
            events.append(public(event))
            if isinstance(event, HoleDealt):
                cards = tuple(holes[event.seat]) if holes is not None else ()
                if event.seat == self.seat:
                    cards = self.own_opening_hole
                events.append(private(HoleSeen(event.seat, cards), event.seat))
        return events


KNOWLEDGE = FaceCardKillCardKnowledge
