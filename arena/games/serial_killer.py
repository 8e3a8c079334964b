"""Serial Killer — 2 to 8 players — see docs/games/serial_killer.md.

An elimination game on one 52-card deck and six graves. On a turn the seat
draws one card per open grave: a King or Queen (victim) is a kill; a turn with
no kill costs a clue; Jacks (corpses) close graves, now or later; Aces
(informants) take a clue from another seat or give one back. A seat with no
clues is arrested; the last seat with clues wins.

Everything is public except the order of the stack, so every seat observes the
same thing (apart from ``seat``) and ``redeal_hidden`` only permutes the stack.

Readings of the rules worth knowing (beyond the rulings S1-S15 of docs/games/serial_killer.md):

* The stack is drawn in the order the shuffle leaves it: the first card of the
  shuffled list is the first drawn (``stack[-1]`` is the top internally).
* Randomness is drawn in this order: the first player (``rng.below``), then
  the initial shuffle, then every reshuffle. A reshuffle gathers graves 0-5
  (bottom to top), then the stack (top first), then the set-aside pile.
* The draw phase is automatic between decisions: after a J or A decision the
  engine keeps drawing for the remaining target graves until the next J or A,
  then the seat enters its end-of-turn phase (asked even if only ``EndTurn`` is
  legal: every phase is a decision).
* An informant (now or held) may target the acting seat itself only while it
  has fewer than 6 clues, and any other seat not yet arrested (docs/games/serial_killer.md, Informants).
* ``max_turns`` counts turns started; the cap is checked when a turn resolves,
  so the capped game stops after its ``max_turns``-th turn.
* If an arrest during the draw phase (an informant) ends the game, the
  remaining draws of that turn do not happen (S9: the game ends at once).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from arena.games.base import (
    Game,
    Option,
    OptionValue,
    Outcome,
    Rng,
    Tagged,
    competition_ranks,
    public,
)
from arena.games.cards import Card, Rank, standard_deck

GRAVES = 6
CLUES = 6


# -- actions -------------------------------------------------------------------
@dataclass(frozen=True)
class BuryNow:
    """Put the Jack just drawn into the grave it was drawn for (closing it)."""


@dataclass(frozen=True)
class Hold:
    """Keep the Jack or Ace just drawn in front of you; its grave gets no card this turn."""


@dataclass(frozen=True)
class InformNow:
    """Play the Ace just drawn onto victim grave ``grave``: ``target`` is yourself
    (get a clue back) or another seat (it loses a clue)."""

    grave: int
    target: int


@dataclass(frozen=True)
class PlayCorpse:
    """End-of-turn: put held Jack ``card`` into open grave ``grave`` (closing it)."""

    card: Card
    grave: int


@dataclass(frozen=True)
class PlayInformant:
    """End-of-turn: play held Ace ``card`` onto victim grave ``grave`` against ``target``."""

    card: Card
    grave: int
    target: int


@dataclass(frozen=True)
class EndTurn:
    """Finish the turn: penalty if no kill, reshuffle if all graves are closed."""


Action = BuryNow | Hold | InformNow | PlayCorpse | PlayInformant | EndTurn
ACTION_TYPES = (BuryNow, Hold, InformNow, PlayCorpse, PlayInformant, EndTurn)


# -- events --------------------------------------------------------------------
class Phase(IntEnum):
    """What the seat to act is deciding."""

    JACK_DRAWN = 1  # bury_now or hold
    ACE_DRAWN = 2  # inform_now or hold
    END_OF_TURN = 3  # play held cards, then end_turn
    OVER = 4


class ClueReason(IntEnum):
    PENALTY = 1  # a turn without a kill
    INFORMED = 2  # another seat's informant
    DISCREDITED = 3  # the seat's own informant gave one back


class EndReason(IntEnum):
    LAST_KILLER = 1  # one seat still has clues
    TURN_CAP = 2  # max_turns reached


@dataclass(frozen=True)
class GameStarted:
    players: int
    first_player: int
    clues: int


@dataclass(frozen=True)
class TurnStarted:
    """``graves``: the open graves this turn draws for, in order (one card each)."""

    seat: int
    turn: int
    graves: tuple[int, ...]


@dataclass(frozen=True)
class Drew:
    """``seat`` drew ``card`` from the stack for grave ``grave``."""

    seat: int
    card: Card
    grave: int


@dataclass(frozen=True)
class Placed:
    """``card`` went into grave ``grave``; ``closed``: the grave is now closed."""

    seat: int
    card: Card
    grave: int
    closed: bool


@dataclass(frozen=True)
class Held:
    seat: int
    card: Card


@dataclass(frozen=True)
class InformantPlayed:
    """Ace ``card`` went onto the victim in ``grave``, against ``target``."""

    seat: int
    card: Card
    grave: int
    target: int


@dataclass(frozen=True)
class CluesChanged:
    """``seat`` now has ``clues`` (``change`` is -1 or +1)."""

    seat: int
    change: int
    clues: int
    reason: ClueReason


@dataclass(frozen=True)
class Arrested:
    """``seat`` has no clues left; its held cards go to the set-aside pile."""

    seat: int
    set_aside: tuple[Card, ...]


@dataclass(frozen=True)
class TurnEnded:
    seat: int
    killed: bool


@dataclass(frozen=True)
class Reshuffled:
    """All six graves were closed: graves, stack and set-aside pile form a new stack."""

    stack_size: int


@dataclass(frozen=True)
class GameEnded:
    reason: EndReason
    clues: tuple[int, ...]
    winner: int | None  # None only when the turn cap stopped the game


Event = (GameStarted | TurnStarted | Drew | Placed | Held | InformantPlayed | CluesChanged
         | Arrested | TurnEnded | Reshuffled | GameEnded)


# -- observation ---------------------------------------------------------------
@dataclass(frozen=True)
class Observation:
    """Everything is public but the stack order: all seats see the same."""

    seat: int
    players: int
    to_act: int | None
    phase: Phase
    first_player: int
    turn: int
    graves: tuple[tuple[Card, ...], ...]
    held: tuple[tuple[Card, ...], ...]
    set_aside: tuple[Card, ...]
    clues: tuple[int, ...]
    arrested: tuple[bool, ...]
    arrest_order: tuple[int, ...]
    police_pile: int
    stack_size: int
    targets: tuple[int, ...]  # this turn's graves, one card drawn for each
    current_grave: int | None  # during a J/A decision: the grave the card was drawn for
    drawn_card: Card | None  # during a J/A decision: that card
    killed_this_turn: bool
    max_turns: int


@dataclass(frozen=True)
class PublicView:
    """Everything every seat may know (a spectator's view): the observation, without a seat."""

    players: int
    to_act: int | None
    phase: Phase
    first_player: int
    turn: int
    graves: tuple[tuple[Card, ...], ...]
    held: tuple[tuple[Card, ...], ...]
    set_aside: tuple[Card, ...]
    clues: tuple[int, ...]
    arrested: tuple[bool, ...]
    arrest_order: tuple[int, ...]
    police_pile: int
    stack_size: int
    targets: tuple[int, ...]
    current_grave: int | None
    drawn_card: Card | None
    killed_this_turn: bool
    max_turns: int


# -- state ---------------------------------------------------------------------
@dataclass
class State:
    players: int
    options: dict[str, OptionValue]
    rng: Rng
    stack: list[Card] = field(default_factory=list)  # stack[-1] is the top
    graves: list[list[Card]] = field(default_factory=list)
    held: list[list[Card]] = field(default_factory=list)
    set_aside: list[Card] = field(default_factory=list)
    clues: list[int] = field(default_factory=list)
    arrested: list[bool] = field(default_factory=list)
    arrest_order: list[int] = field(default_factory=list)
    first_player: int = 0
    turn_player: int = 0
    to_act: int | None = None
    phase: Phase = Phase.END_OF_TURN
    targets: list[int] = field(default_factory=list)
    position: int = 0  # index in targets of the next grave to draw for
    pending: Card | None = None  # the J/A awaiting a decision
    killed_this_turn: bool = False
    turn_count: int = 0
    end_reason: EndReason | None = None
    opening: list[Tagged] = field(default_factory=list)  # events of ``start``


def is_closer(card: Card) -> bool:
    return card.rank in (Rank.KING, Rank.QUEEN, Rank.JACK)


def is_victim(card: Card) -> bool:
    return card.rank in (Rank.KING, Rank.QUEEN)


def grave_open(pile: Sequence[Card]) -> bool:
    return not any(is_closer(c) for c in pile)


def victim_grave(pile: Sequence[Card]) -> bool:
    """The grave's top card is a King or Queen with no informant on it."""
    return bool(pile) and is_victim(pile[-1])


class SerialKiller(Game[State, Action, Observation]):
    name = "serial-killer"
    title = "Serial Killer"
    version = 1
    min_players = 2
    max_players = 8
    default_players = 4
    options = (
        Option("clues", CLUES, "clues (counters) per player; fixed at 6 by the rules",
               minimum=CLUES, maximum=CLUES),
        Option("max_turns", 1000, "safety cap on turns; then seats rank by clues", minimum=100, pools=False),
    )
    action_types = ACTION_TYPES
    observation_type = Observation
    public_view_type = PublicView
    event_types = (GameStarted, TurnStarted, Drew, Placed, Held, InformantPlayed, CluesChanged,
                   Arrested, TurnEnded, Reshuffled, GameEnded)

    # -- setup ------------------------------------------------------------------
    def start(self, players: int, rng: Rng, opts: dict[str, OptionValue]) -> State:
        state = State(players=players, options=opts, rng=rng)
        state.clues = [CLUES] * players
        state.arrested = [False] * players
        state.held = [[] for _ in range(players)]
        state.graves = [[] for _ in range(GRAVES)]
        state.first_player = rng.below(players)
        deck = standard_deck()
        rng.shuffle(deck)
        deck.reverse()  # the shuffle's first card is drawn first
        state.stack = deck
        state.opening = [public(GameStarted(players, state.first_player, CLUES))]
        state.opening += self._begin_turn(state, state.first_player)
        return state

    def opening_events(self, state: State) -> list[Tagged]:
        """The events of ``start``: the game start and the first turn's draws."""
        return list(state.opening)

    # -- the turn -----------------------------------------------------------------
    def _begin_turn(self, state: State, seat: int) -> list[Tagged]:
        state.turn_count += 1
        state.turn_player = seat
        state.to_act = seat
        state.killed_this_turn = False
        state.targets = [g for g in range(GRAVES) if grave_open(state.graves[g])]
        state.position = 0
        events = [public(TurnStarted(seat, state.turn_count, tuple(state.targets)))]
        return events + self._draw(state)

    def _draw(self, state: State) -> list[Tagged]:
        """Draw for the remaining target graves until a decision is needed."""
        seat = state.turn_player
        events: list[Tagged] = []
        while state.position < len(state.targets):
            if not state.stack:
                break  # S10's defensive rule; cannot happen (see the invariants test)
            grave = state.targets[state.position]
            card = state.stack.pop()
            events.append(public(Drew(seat, card, grave)))
            if card.rank is Rank.JACK:
                state.pending = card
                state.phase = Phase.JACK_DRAWN
                return events
            if card.rank is Rank.ACE:
                state.pending = card
                state.phase = Phase.ACE_DRAWN
                return events
            state.graves[grave].append(card)
            killed = is_victim(card)
            if killed:
                state.killed_this_turn = True
            events.append(public(Placed(seat, card, grave, killed)))
            state.position += 1
        state.pending = None
        state.phase = Phase.END_OF_TURN
        return events

    def _informant_targets(self, state: State, seat: int) -> list[int]:
        return [t for t in range(state.players)
                if (state.clues[t] < CLUES if t == seat else not state.arrested[t])]

    def _victim_graves(self, state: State) -> list[int]:
        return [g for g in range(GRAVES) if victim_grave(state.graves[g])]

    def to_act(self, state: State) -> int | None:
        return state.to_act

    def legal_actions(self, state: State) -> Sequence[Action]:
        seat = state.to_act
        if seat is None:
            return ()
        if state.phase is Phase.JACK_DRAWN:
            return (BuryNow(), Hold())
        if state.phase is Phase.ACE_DRAWN:
            informs: list[Action] = [InformNow(g, t) for g in self._victim_graves(state)
                                     for t in self._informant_targets(state, seat)]
            return (*informs, Hold())
        actions: list[Action] = []
        held = state.held[seat]
        jacks = [c for c in held if c.rank is Rank.JACK]
        if jacks:
            open_graves = [g for g in range(GRAVES) if grave_open(state.graves[g])]
            actions += [PlayCorpse(c, g) for c in jacks for g in open_graves]
        aces = [c for c in held if c.rank is Rank.ACE]
        if aces:
            victims = self._victim_graves(state)
            targets = self._informant_targets(state, seat)
            actions += [PlayInformant(c, g, t) for c in aces for g in victims for t in targets]
        actions.append(EndTurn())
        return tuple(actions)

    def why_illegal(self, state: State, action: Action) -> str:
        return f"phase {state.phase.name}"

    def step(self, state: State, action: Action) -> list[Tagged]:
        seat = state.to_act
        assert seat is not None
        events: list[Tagged] = []
        if isinstance(action, (BuryNow, Hold, InformNow)):
            card = state.pending
            assert card is not None
            grave = state.targets[state.position]
            state.pending = None
            state.position += 1
            if isinstance(action, BuryNow):
                state.graves[grave].append(card)
                events.append(public(Placed(seat, card, grave, True)))
            elif isinstance(action, Hold):
                state.held[seat].append(card)
                events.append(public(Held(seat, card)))
            else:
                events += self._informant(state, seat, card, action.grave, action.target)
                if state.to_act is None:
                    return events
            return events + self._draw(state)
        if isinstance(action, PlayCorpse):
            state.held[seat].remove(action.card)
            state.graves[action.grave].append(action.card)
            return [public(Placed(seat, action.card, action.grave, True))]
        if isinstance(action, PlayInformant):
            state.held[seat].remove(action.card)
            return self._informant(state, seat, action.card, action.grave, action.target)
        return self._resolve_turn(state, seat)

    def _informant(self, state: State, seat: int, card: Card, grave: int,
                   target: int) -> list[Tagged]:
        state.graves[grave].append(card)
        events = [public(InformantPlayed(seat, card, grave, target))]
        if target == seat:
            return events + self._change_clues(state, seat, +1, ClueReason.DISCREDITED)
        return events + self._change_clues(state, target, -1, ClueReason.INFORMED)

    def _change_clues(self, state: State, seat: int, change: int,
                      reason: ClueReason) -> list[Tagged]:
        state.clues[seat] += change
        events = [public(CluesChanged(seat, change, state.clues[seat], reason))]
        if state.clues[seat] == 0:
            state.arrested[seat] = True
            state.arrest_order.append(seat)
            cards = tuple(state.held[seat])
            state.set_aside.extend(cards)
            state.held[seat] = []
            events.append(public(Arrested(seat, cards)))
            if state.arrested.count(False) == 1:
                events += self._end_game(state, EndReason.LAST_KILLER)
        return events

    def _resolve_turn(self, state: State, seat: int) -> list[Tagged]:
        killed = state.killed_this_turn
        events = [public(TurnEnded(seat, killed))]
        if not killed:
            events += self._change_clues(state, seat, -1, ClueReason.PENALTY)
            if state.to_act is None:
                return events
        if not any(grave_open(g) for g in state.graves):
            pool = [c for g in state.graves for c in g]
            pool += reversed(state.stack)
            pool += state.set_aside
            state.rng.shuffle(pool)
            pool.reverse()
            state.stack = pool
            state.graves = [[] for _ in range(GRAVES)]
            state.set_aside = []
            events.append(public(Reshuffled(len(pool))))
        if state.turn_count >= int(state.options["max_turns"]):
            return events + self._end_game(state, EndReason.TURN_CAP)
        n = state.players
        nxt = next(s for s in ((seat + i) % n for i in range(1, n + 1)) if not state.arrested[s])
        return events + self._begin_turn(state, nxt)

    def _end_game(self, state: State, reason: EndReason) -> list[Tagged]:
        state.to_act = None
        state.phase = Phase.OVER
        state.pending = None
        state.end_reason = reason
        free = [s for s in range(state.players) if not state.arrested[s]]
        winner = free[0] if len(free) == 1 else None
        return [public(GameEnded(reason, tuple(state.clues), winner))]

    # -- views ----------------------------------------------------------------------
    def observe(self, state: State, seat: int) -> Observation:
        deciding = state.phase in (Phase.JACK_DRAWN, Phase.ACE_DRAWN)
        return Observation(
            seat=seat,
            players=state.players,
            to_act=state.to_act,
            phase=state.phase,
            first_player=state.first_player,
            turn=state.turn_count,
            graves=tuple(tuple(g) for g in state.graves),
            held=tuple(tuple(h) for h in state.held),
            set_aside=tuple(state.set_aside),
            clues=tuple(state.clues),
            arrested=tuple(state.arrested),
            arrest_order=tuple(state.arrest_order),
            police_pile=CLUES * state.players - sum(state.clues),
            stack_size=len(state.stack),
            targets=tuple(state.targets),
            current_grave=state.targets[state.position] if deciding else None,
            drawn_card=state.pending if deciding else None,
            killed_this_turn=state.killed_this_turn,
            max_turns=int(state.options["max_turns"]),
        )

    def outcome(self, state: State) -> Outcome | None:
        if state.end_reason is None:
            return None
        position = {s: i for i, s in enumerate(state.arrest_order)}
        keys = [(0, position[s]) if state.arrested[s] else (1, state.clues[s])
                for s in range(state.players)]
        return Outcome(scores=tuple(float(c) for c in state.clues),
                       ranks=competition_ranks(keys))

    # -- conformance helpers --------------------------------------------------------
    def cards_in_play(self, state: State) -> list[Any]:
        return (list(state.stack) + [c for g in state.graves for c in g]
                + [c for h in state.held for c in h] + list(state.set_aside)
                + ([state.pending] if state.pending is not None else []))

    def clone(self, state: State) -> State:
        """A copy sharing nothing mutable with ``state`` (faster than a deep copy)."""
        other = copy.copy(state)
        other.options = dict(state.options)
        other.rng = state.rng.copy()
        other.stack = list(state.stack)
        other.graves = [list(g) for g in state.graves]
        other.held = [list(h) for h in state.held]
        other.set_aside = list(state.set_aside)
        other.clues = list(state.clues)
        other.arrested = list(state.arrested)
        other.arrest_order = list(state.arrest_order)
        other.targets = list(state.targets)
        other.opening = list(state.opening)
        return other

    def redeal_hidden(self, state: State, seat: int, rng: random.Random) -> State:
        """Only the stack order is hidden (from every seat alike)."""
        other = self.clone(state)
        rng.shuffle(other.stack)
        return other


GAME = SerialKiller()
