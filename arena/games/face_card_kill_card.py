"""Face Card / Kill Card — 2 to 12 players — see docs/games/face_card_kill_card.md.

Push your luck: each seat holds secret hole card(s) and draws face-up cards one
at a time; a face-up J, Q or K eliminates the drawer. The game ends with one
survivor, or when every active seat passes in a row (showdown, highest total).

Readings of the rules worth knowing:

* A turn is a series of one-card ``Draw`` decisions ended by ``Stop`` or by an
  eliminating draw (F1); a turn with no draw is a pass.
* With ``tiebreak = replay`` the seats tied for first play fresh games among
  themselves; the dealer of such a game is the first tied seat clockwise from
  the original dealer, the original dealer included. The score for ratings stays
  the original game's total; the replay only orders the tied seats.
* The original text's second scoring example (K in the hole, 6, 5, 3 face up)
  says 13 points; its own rule gives 0 + 6 + 5 + 3 = 14, which is what counts here.
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from arena.games.base import (
    Game,
    Option,
    OptionError,
    OptionValue,
    Outcome,
    Rng,
    Tagged,
    competition_ranks,
    private,
    public,
)
from arena.games.cards import Card, Rank, standard_deck


# -- actions -------------------------------------------------------------------
@dataclass(frozen=True)
class Draw:
    """Take the top card of the stock face up."""


@dataclass(frozen=True)
class Stop:
    """End the turn (a pass if nothing was drawn this turn)."""


Action = Draw | Stop


# -- events --------------------------------------------------------------------
class EndReason(IntEnum):
    SURVIVOR = 1
    SHOWDOWN = 2


@dataclass(frozen=True)
class GameStarted:
    """A game starts: the main game (``tiebreak_game`` 0) or a tie-break replay."""

    tiebreak_game: int
    dealer: int
    seats: tuple[int, ...]
    decks: int


@dataclass(frozen=True)
class HoleDealt:
    seat: int
    count: int


@dataclass(frozen=True)
class HoleSeen:
    """Private to ``seat``: its own hole cards."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Drew:
    seat: int
    card: Card
    face_up_total: int


@dataclass(frozen=True)
class Eliminated:
    seat: int
    card: Card


@dataclass(frozen=True)
class Stopped:
    """A turn ended by choice; ``drawn`` 0 means the seat passed."""

    seat: int
    drawn: int


@dataclass(frozen=True)
class HolesRevealed:
    """Every seat's hole cards, at the end of a game."""

    holes: tuple[tuple[Card, ...], ...]


@dataclass(frozen=True)
class GameEnded:
    tiebreak_game: int
    reason: EndReason
    totals: tuple[int, ...]
    winners: tuple[int, ...]


Event = GameStarted | HoleDealt | HoleSeen | Drew | Eliminated | Stopped | HolesRevealed | GameEnded


# -- observation ---------------------------------------------------------------
@dataclass(frozen=True)
class Observation:
    """Everything one seat may know."""

    seat: int
    players: int
    dealer: int
    to_act: int | None
    hole_cards: tuple[Card, ...]
    hole_counts: tuple[int, ...]
    face_up: tuple[tuple[Card, ...], ...]
    face_up_totals: tuple[int, ...]
    eliminated: tuple[bool, ...]
    in_game: tuple[bool, ...]
    stock_size: int
    face_cards_unseen: int
    drawn_this_turn: int
    consecutive_passes: int
    tiebreak_game: int
    ace_value: int


@dataclass(frozen=True)
class PublicView:
    """Everything every seat may know (a spectator's view): no hole card until the end."""

    players: int
    dealer: int
    to_act: int | None
    hole_counts: tuple[int, ...]
    face_up: tuple[tuple[Card, ...], ...]
    face_up_totals: tuple[int, ...]
    eliminated: tuple[bool, ...]
    in_game: tuple[bool, ...]
    stock_size: int
    face_cards_unseen: int  # face cards not face up (in the stock or in someone's hole)
    drawn_this_turn: int
    consecutive_passes: int
    tiebreak_game: int
    ace_value: int
    holes: tuple[tuple[Card, ...], ...]  # every seat's hole cards once the match is over


# -- state ---------------------------------------------------------------------
@dataclass
class State:
    players: int
    options: dict[str, OptionValue]
    rng: Rng
    decks: int
    dealer: int = 0
    stock: list[Card] = field(default_factory=list)
    hole: list[list[Card]] = field(default_factory=list)
    face_up: list[list[Card]] = field(default_factory=list)
    eliminated: list[bool] = field(default_factory=list)
    in_game: list[bool] = field(default_factory=list)
    to_act: int | None = None
    drawn_this_turn: int = 0
    consecutive_passes: int = 0
    tiebreak_game: int = 0
    # One key per game played; ranks compare these tuples lexicographically.
    rank_keys: list[tuple[tuple[int, int], ...]] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    over: bool = False
    opening: list[Tagged] = field(default_factory=list)


def card_value(card: Card, ace_value: int) -> int:
    """Points of a card: 2-10 face value, A ``ace_value``, J/Q/K 0 (in the hole)."""
    if card.rank is Rank.ACE:
        return ace_value
    if card.rank.is_face:
        return 0
    return int(card.rank)


def auto_decks(players: int, hole_cards: int) -> int:
    return max(1, math.ceil((hole_cards + 1) * players / 12))


class FaceCardKillCard(Game[State, Action, Observation]):
    name = "face-card-kill-card"
    title = "Face Card / Kill Card"
    version = 1
    min_players = 2
    max_players = 12
    default_players = 4
    options = (
        Option("hole_cards", 1, "hole cards per player", minimum=1, maximum=3),
        Option("ace_value", 11, "points of an ace", choices=(11, 1)),
        Option("decks", "auto", "52-card packs shuffled together (at least the auto count)",
               choices=("auto",), minimum=1, maximum=24),
        Option("dealer", 0, "the seat that deals; the first turn is the dealer's left",
               minimum=0, maximum=11, pools=False),
        Option("tiebreak", "shared", "a tie for first at showdown: shared rank or replay",
               choices=("shared", "replay")),
        Option("max_tiebreak_games", 3, "replays at most (with tiebreak=replay)", minimum=1, pools=False),
    )
    action_types = (Draw, Stop)
    observation_type = Observation
    public_view_type = PublicView
    event_types = (GameStarted, HoleDealt, HoleSeen, Drew, Eliminated, Stopped,
                   HolesRevealed, GameEnded)

    def check_options(self, players: int, options: Mapping[str, OptionValue]) -> None:
        dealer = options["dealer"]
        assert isinstance(dealer, int)
        if dealer >= players:
            raise OptionError(f"option 'dealer' must be a seat from 0 to {players - 1}; got {dealer}")
        hole = options["hole_cards"]
        assert isinstance(hole, int)
        need = auto_decks(players, hole)
        decks = options["decks"]
        if isinstance(decks, int) and decks < need:
            raise OptionError(
                f"option 'decks' must be at least {need} for {players} players "
                f"with {hole} hole card(s); got {decks}"
            )

    # -- setup ------------------------------------------------------------------
    def start(self, players: int, rng: Rng, opts: dict[str, OptionValue]) -> State:
        hole_cards = int(opts["hole_cards"])
        decks = opts["decks"]
        n_decks = auto_decks(players, hole_cards) if decks == "auto" else int(decks)
        state = State(players=players, options=opts, rng=rng, decks=n_decks,
                      scores=[0] * players, rank_keys=[() for _ in range(players)])
        state.in_game = [True] * players
        state.opening = self._start_game(state, int(opts["dealer"]), tuple(range(players)))
        return state

    def opening_events(self, state: State) -> list[Tagged]:
        return list(state.opening)

    def _start_game(self, state: State, dealer: int, seats: tuple[int, ...]) -> list[Tagged]:
        n = state.players
        state.stock = standard_deck(state.decks)
        state.rng.shuffle(state.stock)
        state.dealer = dealer
        state.hole = [[] for _ in range(n)]
        state.face_up = [[] for _ in range(n)]
        state.eliminated = [False] * n
        state.in_game = [s in seats for s in range(n)]
        state.drawn_this_turn = 0
        state.consecutive_passes = 0
        events = [public(GameStarted(state.tiebreak_game, dealer, seats, state.decks))]
        order = self._clockwise_from(state, dealer + 1)
        for _ in range(int(state.options["hole_cards"])):
            for seat in order:
                state.hole[seat].append(state.stock.pop())
        for seat in order:
            events.append(public(HoleDealt(seat, len(state.hole[seat]))))
            events.append(private(HoleSeen(seat, tuple(state.hole[seat])), seat))
        state.to_act = order[0]
        return events

    def _clockwise_from(self, state: State, start: int) -> list[int]:
        """Active seats of the current game, clockwise from ``start`` (inclusive)."""
        n = state.players
        return [s for s in ((start + i) % n for i in range(n))
                if state.in_game[s] and not state.eliminated[s]]

    # -- rules --------------------------------------------------------------------
    def to_act(self, state: State) -> int | None:
        return state.to_act

    def legal_actions(self, state: State) -> Sequence[Action]:
        if state.to_act is None:
            return ()
        return (Draw(), Stop()) if state.stock else (Stop(),)

    def is_legal(self, state: State, action: Action) -> bool:
        return isinstance(action, Stop) or bool(state.stock)  # Draw: while the stock lasts

    def why_illegal(self, state: State, action: Action) -> str:
        return "the stock is empty"

    def step(self, state: State, action: Action) -> list[Tagged]:
        seat = state.to_act
        assert seat is not None
        if isinstance(action, Draw):
            return self._draw(state, seat)
        events: list[Tagged] = [public(Stopped(seat, state.drawn_this_turn))]
        passed = state.drawn_this_turn == 0
        return events + self._end_turn(state, seat, passed)

    def _draw(self, state: State, seat: int) -> list[Tagged]:
        card = state.stock.pop()
        state.face_up[seat].append(card)
        state.drawn_this_turn += 1
        events = [public(Drew(seat, card, self._face_up_total(state, seat)))]
        if card.rank.is_face:
            state.eliminated[seat] = True
            events.append(public(Eliminated(seat, card)))
            events += self._end_turn(state, seat, passed=False)
        return events

    def _end_turn(self, state: State, seat: int, passed: bool) -> list[Tagged]:
        state.drawn_this_turn = 0
        active = self._clockwise_from(state, seat + 1)
        if len(active) == 1:
            return self._end_game(state, EndReason.SURVIVOR)
        state.consecutive_passes = state.consecutive_passes + 1 if passed else 0
        if state.consecutive_passes >= len(active):
            return self._end_game(state, EndReason.SHOWDOWN)
        state.to_act = active[0]
        return []

    def _end_game(self, state: State, reason: EndReason) -> list[Tagged]:
        n = state.players
        totals = tuple(self._total(state, s) for s in range(n))
        if reason is EndReason.SURVIVOR:
            keys = [(2, 0) if state.in_game[s] and not state.eliminated[s] else (0, 0)
                    for s in range(n)]
        else:
            keys = [(1, totals[s]) if state.in_game[s] and not state.eliminated[s] else (0, 0)
                    for s in range(n)]
        playing = [s for s in range(n) if state.in_game[s]]
        best = max(keys[s] for s in playing)
        winners = tuple(s for s in playing if keys[s] == best)
        if state.tiebreak_game == 0:
            state.scores = [0 if state.eliminated[s] else totals[s] for s in range(n)]
        for s in range(n):
            state.rank_keys[s] = (*state.rank_keys[s], keys[s] if state.in_game[s] else (0, 0))
        events = [
            public(HolesRevealed(tuple(tuple(h) for h in state.hole))),
            public(GameEnded(state.tiebreak_game, reason, totals, winners)),
        ]
        replay = (state.options["tiebreak"] == "replay" and len(winners) > 1
                  and state.tiebreak_game < int(state.options["max_tiebreak_games"]))
        if replay:
            state.tiebreak_game += 1
            first = next(s for s in ((state.dealer + i) % n for i in range(n)) if s in winners)
            return events + self._start_game(state, first, winners)
        state.to_act = None
        state.over = True
        return events

    def _face_up_total(self, state: State, seat: int) -> int:
        ace = int(state.options["ace_value"])
        return sum(card_value(c, ace) for c in state.face_up[seat])

    def _total(self, state: State, seat: int) -> int:
        ace = int(state.options["ace_value"])
        return self._face_up_total(state, seat) + sum(card_value(c, ace) for c in state.hole[seat])

    def observe(self, state: State, seat: int) -> Observation:
        n = state.players
        own_face_holes = sum(1 for c in state.hole[seat] if c.rank.is_face)
        faces_seen = sum(1 for pile in state.face_up for c in pile if c.rank.is_face)
        return Observation(
            seat=seat,
            players=n,
            dealer=state.dealer,
            to_act=state.to_act,
            hole_cards=tuple(state.hole[seat]),
            hole_counts=tuple(len(h) for h in state.hole),
            face_up=tuple(tuple(p) for p in state.face_up),
            face_up_totals=tuple(self._face_up_total(state, s) for s in range(n)),
            eliminated=tuple(state.eliminated),
            in_game=tuple(state.in_game),
            stock_size=len(state.stock),
            face_cards_unseen=12 * state.decks - faces_seen - own_face_holes,
            drawn_this_turn=state.drawn_this_turn,
            consecutive_passes=state.consecutive_passes,
            tiebreak_game=state.tiebreak_game,
            ace_value=int(state.options["ace_value"]),
        )

    def spectate(self, state: State) -> PublicView:
        n = state.players
        faces_seen = sum(1 for pile in state.face_up for c in pile if c.rank.is_face)
        return PublicView(
            players=n,
            dealer=state.dealer,
            to_act=state.to_act,
            hole_counts=tuple(len(h) for h in state.hole),
            face_up=tuple(tuple(p) for p in state.face_up),
            face_up_totals=tuple(self._face_up_total(state, s) for s in range(n)),
            eliminated=tuple(state.eliminated),
            in_game=tuple(state.in_game),
            stock_size=len(state.stock),
            face_cards_unseen=12 * state.decks - faces_seen,
            drawn_this_turn=state.drawn_this_turn,
            consecutive_passes=state.consecutive_passes,
            tiebreak_game=state.tiebreak_game,
            ace_value=int(state.options["ace_value"]),
            holes=tuple(tuple(h) for h in state.hole) if state.over else (),
        )

    def outcome(self, state: State) -> Outcome | None:
        if not state.over:
            return None
        return Outcome(scores=tuple(float(s) for s in state.scores),
                       ranks=competition_ranks(state.rank_keys))

    # -- conformance helpers --------------------------------------------------------
    def cards_in_play(self, state: State) -> list[Any]:
        return state.stock + [c for h in state.hole for c in h] + [c for p in state.face_up for c in p]

    def clone(self, state: State) -> State:
        """A copy sharing nothing mutable with ``state`` (faster than a deep copy)."""
        other = copy.copy(state)
        other.options = dict(state.options)
        other.rng = state.rng.copy()
        other.stock = list(state.stock)
        other.hole = [list(h) for h in state.hole]
        other.face_up = [list(p) for p in state.face_up]
        other.eliminated = list(state.eliminated)
        other.in_game = list(state.in_game)
        other.rank_keys = list(state.rank_keys)
        other.scores = list(state.scores)
        other.opening = list(state.opening)
        return other

    def redeal_hidden(self, state: State, seat: int, rng: random.Random) -> State:
        other = self.clone(state)
        if state.over:
            return other  # everything is revealed
        pool = list(other.stock)
        for s in range(other.players):
            if s != seat:
                pool += other.hole[s]
        rng.shuffle(pool)
        for s in range(other.players):
            if s != seat:
                count = len(other.hole[s])
                other.hole[s] = pool[:count]
                pool = pool[count:]
        other.stock = pool
        return other


GAME = FaceCardKillCard()
