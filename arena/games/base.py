"""The engine contract every game implements, and the values it trades in.

A game is pure rules: no I/O, no clocks, no transport. The referee drives it
only through :class:`Game`; it never learns a game's rules beyond this surface.

Hidden information lives in exactly three places: :meth:`Game.observe` (what a
seat may know now), :meth:`Game.spectate` (what anyone may know now: a spectator's
view, which carries no card hidden from any seat) and the ``visible_to`` tag of
every :class:`Tagged` event (``None``: public).
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Generic, TypeVar

from arena.errors import ArenaError

State = TypeVar("State")
Action = TypeVar("Action")
Observation = TypeVar("Observation")
T = TypeVar("T")

OptionValue = int | bool | str
Options = Mapping[str, OptionValue]


class GameError(ArenaError, ValueError):
    """Base class of the errors a game raises on bad input."""


class OptionError(GameError):
    """An option is unknown, of the wrong type, or out of range."""


class InvalidActionError(GameError):
    """An action is malformed: not an action of this game at all."""


class IllegalActionError(GameError):
    """An action is well formed but not legal in this state."""


@dataclass(frozen=True)
class Option:
    """One game option: its default, the values it allows and its meaning.

    A boolean option takes true/false. Otherwise the allowed values are the
    words or numbers in ``choices`` plus, when ``minimum`` or ``maximum`` is set
    (or the default is a number and there are no choices), the whole numbers in
    that range. ``doc`` is the one-line meaning shown to users.

    ``pools``: whether a value other than the default makes another game to be rated
    on its own (a target score, a variant), or leaves the skill it measures as it is
    (who deals first, a safety cap): see :meth:`Game.pool`.
    """

    name: str
    default: OptionValue
    doc: str
    choices: tuple[OptionValue, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    pools: bool = True

    @property
    def takes_numbers(self) -> bool:
        if self.minimum is not None or self.maximum is not None:
            return True
        return isinstance(self.default, int) and not isinstance(self.default, bool) and not self.choices

    def describe(self) -> str:
        """The allowed values, in words: 'true or false', 'auto or 1 to 4', ..."""
        if isinstance(self.default, bool):
            return "true or false"
        parts = [str(c) for c in self.choices]
        if self.takes_numbers:
            if self.minimum is not None and self.maximum is not None:
                parts.append(f"a number from {self.minimum} to {self.maximum}")
            elif self.minimum is not None:
                parts.append(f"a number of at least {self.minimum}")
            elif self.maximum is not None:
                parts.append(f"a number of at most {self.maximum}")
            else:
                parts.append("a whole number")
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]

    def parse(self, raw: object) -> OptionValue:
        """Turn a user's value (possibly text from a command line) into a typed one."""
        bad = OptionError(f"option {self.name!r} takes {self.describe()}, not {raw!r}")
        if isinstance(self.default, bool):
            if isinstance(raw, bool):
                return raw
            if isinstance(raw, str) and raw.strip().lower() in _TRUE | _FALSE:
                return raw.strip().lower() in _TRUE
            raise bad
        if isinstance(raw, str):
            text = raw.strip()
            if text in self.choices:
                return text
            try:
                raw = int(text)
            except ValueError:
                raise bad from None
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise bad
        if raw in self.choices:
            return raw
        if not self.takes_numbers:
            raise bad
        if self.minimum is not None and raw < self.minimum:
            raise bad
        if self.maximum is not None and raw > self.maximum:
            raise bad
        return raw


_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})


@dataclass(frozen=True)
class Tagged:
    """An event and the seats allowed to see it (``None``: everyone)."""

    event: Any
    visible_to: frozenset[int] | None = None

    def visible(self, seat: int | None) -> bool:
        """Whether ``seat`` may see this event; ``None`` asks for the public view."""
        if self.visible_to is None:
            return True
        return seat is not None and seat in self.visible_to


def fast_constructor(cls: type[T]) -> Callable[..., T]:
    """A constructor for the frozen dataclass ``cls`` that fills the instance's
    ``__dict__`` directly, for values built in bulk on the hot path (an observation
    at every decision).

    A frozen dataclass's own ``__init__`` sets each field through
    ``object.__setattr__``: about 0.15 us a field, 4.3 us for a 29-field
    observation, against 1.1 us here. The instance is the same in every respect
    (fields, equality, hash, ``repr``, still frozen); the constructor takes every
    field, by keyword or in order, and runs no ``__post_init__`` (``cls`` may have none).
    """
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or hasattr(cls, "__post_init__") \
            or hasattr(cls, "__slots__"):
        raise TypeError(f"{cls.__name__} is no frozen dataclass with a __dict__ and no __post_init__")
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    lines = [f"def make({', '.join(names)}):", "    made = new(cls)", "    slots = made.__dict__"]
    lines += [f"    slots[{name!r}] = {name}" for name in names]
    lines.append("    return made")
    namespace: dict[str, Any] = {"new": object.__new__, "cls": cls}
    exec("\n".join(lines), namespace)
    make: Callable[..., T] = namespace["make"]
    return make


def public(event: Any) -> Tagged:
    return Tagged(event, None)


def private(event: Any, *seats: int) -> Tagged:
    return Tagged(event, frozenset(seats))


def all_but(event: Any, players: int, *hidden_from: int) -> Tagged:
    """An event every seat sees except ``hidden_from`` (who gets a private form)."""
    return Tagged(event, frozenset(s for s in range(players) if s not in hidden_from))


@dataclass(frozen=True)
class Outcome:
    """Per seat: the game's own score and a competition rank (1 = best, ties share)."""

    scores: tuple[float, ...]
    ranks: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.scores) != len(self.ranks):
            raise ValueError("scores and ranks must have one entry per seat")


@dataclass(frozen=True, slots=True)
class Situation:
    """One seat's part in one stretch of a match that its game names (a hand's contract in
    King, a seat's role in a hand of Knives, whether it dealt that hand): ``kind`` the
    condition ("contract"), ``value`` which one ("no hearts"), ``points`` what the seat
    scored in that stretch, in the game's own points. A bot's page shows its mean per kind
    and value (:meth:`Game.situations`)."""

    seat: int
    kind: str
    value: str
    points: float


def hand_situations(events: Sequence[Any], started: type, scored: type,
                    conditions: Callable[[Any, int], Sequence[tuple[str, str]]],
                    points: Callable[[Any], Sequence[float]]) -> list[Situation]:
    """The situations of a game played in hands: for each ``scored`` event (a hand's result),
    every seat's ``conditions`` of that hand (kind, value) and whether it dealt it (from the
    ``dealer`` of the hand's ``started`` event), each with the seat's ``points`` of the hand."""
    found: list[Situation] = []
    dealer = 0
    for event in events:
        if isinstance(event, started):
            dealer = int(getattr(event, "dealer"))  # noqa: B009  (its type is the game's)
        elif isinstance(event, scored):
            for seat, won in enumerate(points(event)):
                found += [Situation(seat, kind, value, won)
                          for kind, value in conditions(event, seat)]
                found.append(Situation(seat, "dealer", "dealer" if seat == dealer else
                                       "not dealer", won))
    return found


def competition_ranks(keys: Sequence[Any], *, higher_is_better: bool = True) -> tuple[int, ...]:
    """Competition ranking ("1224"): tied keys share the best place, the next is skipped.

    Keys may be numbers or tuples (compared lexicographically).
    """
    return tuple(
        1 + sum(1 for other in keys if (other > k if higher_is_better else other < k))
        for k in keys
    )


@dataclass
class Rng:
    """The one random generator of a game, seeded at ``new`` and kept in the state.

    Shuffles are Fisher-Yates over ``random.Random``'s ``randrange``, so a seed
    replays the same match bit for bit on every platform.

    Copies are cheap, for search (a forward model copies states by the thousand, and most
    copies never draw): a deep copy takes the generator's state (``getstate``, kept until
    the generator draws again, so copies of a copy share it) and makes its own generator
    from it only when it first draws; a new ``Rng`` seeds its generator then too.
    """

    seed: int
    _random: random.Random | None = field(init=False, repr=False, default=None)
    # the generator's state as ``getstate`` gives it, when known: a copy that has not
    # drawn yet resumes from it; a generator's own, until it draws again
    _state: tuple[Any, ...] | None = field(init=False, repr=False, default=None)

    def _generator(self) -> random.Random:
        """The generator, about to draw: made now if this ``Rng`` has not drawn yet."""
        made = self._random
        if made is None:
            if self._state is None:
                made = random.Random(self.seed)
            else:
                made = random.Random.__new__(random.Random)
                made.setstate(self._state)
            self._random = made
        self._state = None
        return made

    def __deepcopy__(self, memo: dict[int, Any]) -> Rng:
        """A copy that draws the same numbers from here on, independently; any other
        attribute (a subclass's) deep-copied as usual."""
        other = copy.copy(self)
        for name, value in vars(self).items():
            if name not in ("_random", "_state"):
                setattr(other, name, copy.deepcopy(value, memo))
        if self._random is not None and self._state is None:
            self._state = self._random.getstate()
        other._random = None
        other._state = self._state
        return other

    def shuffle(self, items: list[Any]) -> None:
        randrange = self._generator().randrange
        for i in range(len(items) - 1, 0, -1):
            j = randrange(i + 1)
            items[i], items[j] = items[j], items[i]

    def below(self, n: int) -> int:
        """A uniform whole number from 0 to n - 1."""
        return self._generator().randrange(n)

    def copy(self) -> Rng:
        """A generator that goes on exactly as this one would, independently (for a game's
        ``clone``): the cheap copy above."""
        return self.__deepcopy__({})


class Game(ABC, Generic[State, Action, Observation]):
    """A game's rules. Subclasses are stateless: every method takes the state.

    A game advances through :meth:`apply`, a template that refuses what is not
    an action of the game, or not legal now, and hands the rest to the game's
    own :meth:`step`; a game may refine the checks through :meth:`well_formed`,
    :meth:`is_legal` and :meth:`why_illegal`.

    ``action_types``, ``observation_type`` and ``event_types`` name the typed
    values the game trades in; the wire codec maps them to protobuf messages of
    the same shape, and the conformance suite checks that every game keeps to them.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    version: ClassVar[int]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()
    # Options for a short match (``arena demo``); the rules' defaults otherwise.
    demo_options: ClassVar[Mapping[str, OptionValue]] = {}
    action_types: ClassVar[tuple[type, ...]]
    observation_type: ClassVar[type]
    public_view_type: ClassVar[type]  # what :meth:`spectate` returns (never sent to a bot)
    event_types: ClassVar[tuple[type, ...]]
    # Events whose values the rules compute from cards hidden until then (say, the
    # penalties of the hands left at a deal's end): they reveal something by design,
    # so the hidden-information check does not compare the steps that emit them.
    revealing_events: ClassVar[tuple[type, ...]] = ()

    # -- options -------------------------------------------------------------
    def parse_options(self, players: int, raw: Mapping[str, object] | None = None) -> dict[str, OptionValue]:
        """Validate ``raw`` against this game's options and fill in the defaults."""
        self.check_players(players)
        raw = dict(raw or {})
        known = {o.name: o for o in self.options}
        unknown = sorted(set(raw) - set(known))
        if unknown:
            names = ", ".join(known) or "none"
            raise OptionError(
                f"{self.name} has no option {unknown[0]!r} (its options: {names})"
            )
        parsed = {name: opt.parse(raw[name]) if name in raw else opt.default
                  for name, opt in known.items()}
        self.check_options(players, parsed)
        return parsed

    def pool(self, options: Mapping[str, object]) -> str:
        """The rating pool of a match with these (parsed) options: the game's name for the
        rules' defaults, else the name with every pool-forming option that differs, e.g.
        ``kill[target_score=11]``. Matches of different pools never move each other's
        ratings."""
        changed = [f"{o.name}={_shown(options[o.name])}" for o in self.options
                   if o.pools and o.name in options and options[o.name] != o.default]
        return f"{self.name}[{','.join(changed)}]" if changed else self.name

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise OptionError(
                f"{self.name} is for {self.min_players} to {self.max_players} players, not {players}"
            )

    def check_options(self, players: int, options: Mapping[str, OptionValue]) -> None:
        """Checks that span several options (or the player count); override as needed."""

    # -- the rules -----------------------------------------------------------
    def new(self, players: int, seed: int, options: Options | None = None) -> State:
        """A fresh match; all randomness comes from ``seed``. ``options`` are validated."""
        return self.start(players, Rng(seed), self.parse_options(players, options))

    @abstractmethod
    def start(self, players: int, rng: Rng, options: dict[str, OptionValue]) -> State:
        """A fresh match drawing all randomness from ``rng``; ``options`` are parsed."""

    def opening_events(self, state: State) -> list[Tagged]:
        """The events of the setup ``start`` did (the first deal), in order.

        ``start`` cannot return them, so a game keeps them in its state for
        this method; the referee sends them before the first decision.
        """
        return []

    @abstractmethod
    def to_act(self, state: State) -> int | None:
        """The one seat that must decide now, or ``None`` once the game is over."""

    @abstractmethod
    def legal_actions(self, state: State) -> Sequence[Action]:
        """The actions open to the seat to act; never empty while the game is live."""

    def apply(self, state: State, action: Action) -> list[Tagged]:
        """Advance the game (mutating ``state``) and return the events it caused.

        Raises :class:`InvalidActionError` for a value that is not an action of
        this game and :class:`IllegalActionError` for one not legal now (the
        match being over included); the state is unchanged when either is raised.

        The template every game shares; a game writes :meth:`step`, not this. In
        order: not an instance of ``action_types`` or not :meth:`well_formed`
        (invalid); the match over (illegal); not :meth:`is_legal` (illegal, with
        :meth:`why_illegal` in the message); then ``step``.
        """
        if not isinstance(action, self.action_types) or not self.well_formed(action):
            raise InvalidActionError(f"{action!r} is not an action of {self.name}")
        seat = self.to_act(state)
        if seat is None:
            raise IllegalActionError(f"{action!r} is not legal in {self.name}: the match is over")
        if not self.is_legal(state, action):
            why = self.why_illegal(state, action)
            raise IllegalActionError(f"{action!r} is not legal now for seat {seat} in {self.name}"
                                     + (f": {why}" if why else ""))
        return self.step(state, action)

    @abstractmethod
    def step(self, state: State, action: Action) -> list[Tagged]:
        """The rules of one action: advance ``state`` and return the events it caused.

        Called by :meth:`apply` only with an action legal now (so the match is
        live and ``to_act`` is the seat acting); it checks nothing again.
        """

    def well_formed(self, action: Action) -> bool:
        """Whether an instance of ``action_types`` holds values of the right types.

        Everything is, by default; a game whose :meth:`is_legal` inspects the
        fields of an action without listing the legal ones overrides this, so a
        malformed value is refused as invalid rather than breaking that test.
        """
        return True

    def is_legal(self, state: State, action: Action) -> bool:
        """Whether a well-formed ``action`` is legal now (the match is live).

        By default, whether it is one of :meth:`legal_actions`; a game may
        override this with a cheaper test of the same answer. It must not change
        ``state``.
        """
        return action in self.legal_actions(state)

    def why_illegal(self, state: State, action: Action) -> str:
        """Why ``action`` is not legal now, for the error message ('' says nothing more).

        Called only when :meth:`is_legal` said no, so it may be slow.
        """
        return ""

    @abstractmethod
    def observe(self, state: State, seat: int) -> Observation:
        """Everything ``seat`` may know now, and nothing more."""

    def spectate(self, state: State) -> Any:
        """The public view: everything every seat may know now, and nothing more (a
        spectator's view, a :attr:`public_view_type`): the table, piles, open cards, the
        trick, scores and hand *sizes*, but no card any seat cannot see.

        Its cards are in every seat's observation while the match is live; two states that
        differ only in cards hidden from some seat (:meth:`redeal_hidden`) give equal views.

        By default it is the observation without what is private to its seat: the fields of
        :attr:`public_view_type`, taken from seat 0's observation. They must be the same in
        every seat's observation (the conformance suite checks that a public view agrees
        with every seat's on the fields they share). A game whose public view holds more
        (cards shown only at the end, say) writes its own.
        """
        seen = self.observe(state, 0)
        return self.public_view_type(**{f.name: getattr(seen, f.name)
                                        for f in fields(self.public_view_type)})

    @abstractmethod
    def outcome(self, state: State) -> Outcome | None:
        """Scores and ranks once the game is over, else ``None``."""

    def situations(self, events: Sequence[Any], players: int) -> list[Situation]:
        """The game's own conditions of a played match, read from its events in order
        (every event, private ones included: a match's record): for each stretch the game
        scores on its own (a hand), one :class:`Situation` per seat and kind. Only what the
        events of a finished stretch show publicly once it is scored may be used: the
        situations are shown on the seat's bot page. A match cut short by a fault gives
        its finished stretches. None by default: a game without such stretches."""
        return []

    # -- used by the conformance suite --------------------------------------
    @abstractmethod
    def cards_in_play(self, state: State) -> list[Any]:
        """Every physical card, wherever it is (for the conservation check)."""

    @abstractmethod
    def redeal_hidden(self, state: State, seat: int, rng: random.Random) -> State:
        """A copy of ``state`` in which the cards ``seat`` cannot see are permuted.

        Used by the hidden-information property test: ``seat``'s observation of
        the copy, and its events from then on, must be the same as the original's.
        Everything ``seat`` can see (its own cards, public cards) stays where it is.
        """

    def is_over(self, state: State) -> bool:
        return self.to_act(state) is None

    def clone(self, state: State) -> State:
        """A copy of ``state`` sharing nothing mutable with it, for search (a forward model
        copies a state at every branch). A deep copy by default; a game writes a faster one."""
        return copy.deepcopy(state)


def _shown(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
