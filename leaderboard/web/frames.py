"""A match as frames for the replay viewer: the table after every step, from one view.

A *view* says who is looking: ``public`` (a spectator: :meth:`Game.spectate` and the
public events, no card hidden from any seat), ``seat:N`` (what seat N saw: its
observation and its events, its own decisions with the actions it was offered) or
``full`` (every seat's cards, every event with its audience, every decision).

The frames come from stepping the engine through the stored log
(:func:`arena.match.replay.steps`): the match dealt from its stored deal seed, each
logged decision applied and checked against the log. Every value goes to JSON the same
generic way (:func:`arena.games.values.to_json`): a card as its code (``"7H"``, ``"TS#1"``, ``"X1"``), an
enum as its name in lower case, a dataclass as an object of its fields, tuples and
sets as lists. To keep a long match small, a frame's ``public`` and ``seats`` entries
hold only the fields that changed since the frame before (frame 0 holds them all).

The viewer draws face up only the cards these values hold, never cards read again from the
events: a seat's own from its observation, and every card the rules make public from the
public view (the game's :meth:`Game.spectate`: Kill's known cards of each hand, ``shown``; Face
Card / Kill Card's face-up cards; ...). A card public by the rules that the public view lacks
is the engine's to add, so that the viewer, the bots' conformance and this stay one reading.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Container, Sequence
from dataclasses import dataclass
from typing import Any

from arena.games import get_game
from arena.games.base import Game, OptionValue
from arena.games.values import to_json
from arena.match.replay import LogLine, describe, steps

VIEW_HELP = "public, seat:N (N a seat of the match) or full"


class ViewError(ValueError):
    """A view that is not one of the match's, in one clear sentence."""


@dataclass(frozen=True)
class View:
    """Who looks: a spectator (``public``), one seat, or everyone (``full``)."""

    seat: int | None = None
    full: bool = False

    @property
    def name(self) -> str:
        return "full" if self.full else "public" if self.seat is None else f"seat:{self.seat}"

    @property
    def private(self) -> bool:
        """Whether it shows cards some seat may not see (a seat's own, or all)."""
        return self.full or self.seat is not None

    def sees(self, audience: frozenset[int] | None) -> bool:
        """Whether an event with this audience (None: everyone) is in the view."""
        if audience is None or self.full:
            return True
        return self.seat is not None and self.seat in audience

    def seats(self, players: int) -> range:
        """The seats whose own cards the view shows."""
        if self.full:
            return range(players)
        return range(0) if self.seat is None else range(self.seat, self.seat + 1)

    @classmethod
    def parse(cls, text: str, players: int) -> View:
        """``public``, ``seat:N`` or ``full``; a :class:`ViewError` for anything else."""
        word = text.strip().lower()
        if word == "public":
            return cls()
        if word == "full":
            return cls(full=True)
        found = re.fullmatch(r"seat:(\d{1,3})", word)
        if found is None:
            raise ViewError(f"no view {text!r}: a view is {VIEW_HELP}")
        seat = int(found.group(1))
        if seat >= players:
            raise ViewError(f"no view {text!r}: this match has {players} seats, "
                            f"seat:0 to seat:{players - 1}")
        return cls(seat=seat)


def private_fields(game: Game[Any, Any, Any]) -> tuple[str, ...]:
    """The fields of a seat's observation that the public view has not (its own cards):
    ``hand``, ``hole_cards``, a banker's ``banked``..."""
    public = {f.name for f in dataclasses.fields(game.public_view_type)}
    return tuple(f.name for f in dataclasses.fields(game.observation_type)
                 if f.name not in public and f.name != "seat")


class _Changes:
    """Turns successive dicts of values into JSON objects of the fields that changed."""

    def __init__(self) -> None:
        self.before: dict[str, Any] = {}

    def __call__(self, values: dict[str, Any]) -> dict[str, Any]:
        changed = {}
        for key, value in values.items():
            if key not in self.before or self.before[key] != value:
                changed[key] = to_json(value)
        self.before = values
        return changed


def frames(game_name: str, players: int, seed: int, options: dict[str, OptionValue],
           lines: Sequence[LogLine], view: View,
           notes: Container[int] = ()) -> list[dict[str, Any]]:
    """The match's frames from ``view``: frame 0 is the deal, then one per decision.

    Each frame: ``step``; ``to_act``; ``decision`` (None in frame 0): the deciding
    ``seat``, its think time ``seconds``, ``fallback`` (played by the referee for a seat
    that faulted), and where the view may see it the ``choice`` (as text and as JSON), the
    ``offered`` actions and the index ``chosen`` among them, and for a seat of ``notes`` the
    bot's ``note`` on its answer and the bytes of it cut, ``note_cut`` (where it wrote one);
    ``events``: what the view saw happen, each with ``type``, ``text``, ``data`` and (full
    view) its audience ``to``;
    ``faults`` logged at that step (their reasons only in the faulting seat's view and the
    full one); ``public``: the public view's fields that changed; ``seats``: per seat
    whose cards the view shows, the changed fields of its observation's own part.
    """
    game = get_game(game_name)
    own = private_fields(game)
    public_changes = _Changes()
    seat_changes = {seat: _Changes() for seat in view.seats(players)}
    out: list[dict[str, Any]] = []
    offered = None if view.full else frozenset(view.seats(players))
    for step in steps(game_name, players, seed, options, lines, offered):
        state = step.state
        frame: dict[str, Any] = {"step": step.index, "to_act": game.to_act(state),
                                 "decision": _decision(step.decision, step.seat, step.legal, view,
                                                       notes)}
        frame["events"] = [_event(line, view) for line in step.events if view.sees(line.audience)]
        frame["faults"] = [_fault(line, view) for line in step.faults]
        public = game.spectate(state)
        frame["public"] = public_changes({f.name: getattr(public, f.name)
                                          for f in dataclasses.fields(public)})
        seats = {}
        for seat, changes in seat_changes.items():
            seen = game.observe(state, seat)
            seats[str(seat)] = changes({name: getattr(seen, name) for name in own})
        frame["seats"] = seats
        out.append(frame)
    return out


def _decision(line: LogLine | None, seat: int | None, legal: Sequence[Any],
              view: View, notes: Container[int]) -> dict[str, Any] | None:
    if line is None:
        return None
    decision: dict[str, Any] = {"seat": seat, "seconds": round(line.seconds, 6),
                                "fallback": line.fallback}
    if view.full or view.seat == seat:
        decision["choice"] = describe(line.value)
        decision["action"] = {"type": type(line.value).__name__, **_fields(line.value)}
        decision["offered"] = [describe(action) for action in legal]
        decision["chosen"] = next((i for i, action in enumerate(legal) if action == line.value),
                                  None)
    if seat in notes and (line.note or line.note_cut):
        decision["note"], decision["note_cut"] = line.note, line.note_cut
    return decision


def _fields(value: Any) -> dict[str, Any]:
    data = to_json(value)
    return data if isinstance(data, dict) else {"value": data}


def _event(line: LogLine, view: View) -> dict[str, Any]:
    event: dict[str, Any] = {"type": type(line.value).__name__, "text": describe(line.value),
                             "data": _fields(line.value)}
    if view.full:
        event["to"] = None if line.audience is None else sorted(line.audience)
    return event


def _fault(line: LogLine, view: View) -> dict[str, Any]:
    fault = line.value
    shown: dict[str, Any] = {"seat": fault.seat, "fault": fault.fault}
    if view.full or view.seat == fault.seat:
        shown["reason"] = fault.reason
    return shown


__all__ = ["VIEW_HELP", "View", "ViewError", "frames", "private_fields"]
