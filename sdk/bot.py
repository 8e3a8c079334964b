"""The one class a bot author writes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from arena.match.protocol import MatchStart

# What a bot learns when a match starts: the game, its version and options, its seat,
# the players' names and the clocks. The referee's own value, handed over as it is.
MatchInfo = MatchStart


@dataclass(frozen=True)
class Result:
    """How the match ended, for every seat (rank 1 = best)."""

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    faults: tuple[str, ...]


NOTE_SENT_BYTES = 16 * 1024
"""The most of a note the SDK sends (the arena keeps 256 bytes of it and counts the rest)."""


class Bot:
    """Subclass this and write :meth:`act`. One instance plays one seat of one match.

    ``act`` receives the game's typed observation (for example
    ``arena.games.face_card_kill_card.Observation``) and the legal actions, and
    returns one of them. The other hooks are optional.
    """

    _note = ""

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        raise NotImplementedError("a bot must implement act(observation, legal_actions)")

    def note(self, text: str) -> None:
        """Attach ``text`` to the answer :meth:`act` is about to give (call it from ``act``):
        what the bot thought, for its author. The replay shows it beside the decision, to the
        bot's author and the operator once the match and the other rotations of its deal are
        over (to everyone where the tournament's notes are public). The arena keeps the
        first 256 bytes of UTF-8 and counts the rest; a longer note is never a fault (the SDK
        sends at most :data:`NOTE_SENT_BYTES` of it, well within a message's size). A second
        call before the answer replaces the first."""
        data = str(text).encode("utf-8", "replace")[:NOTE_SENT_BYTES]
        self._note = data.decode("utf-8", "ignore")

    def take_note(self) -> str:
        """The note on the answer just given (the SDK sends it with the answer), once."""
        note, self._note = self._note, ""
        return note

    def on_start(self, match: MatchInfo) -> None:
        """The match starts; ``match`` says the game, options and this bot's seat."""

    def on_events(self, events: Sequence[Any]) -> None:
        """Events (only those this seat may see), as typed values, in the order they happened.

        Every event reaches the bot before its next ``act`` and before ``on_end``;
        to save messages they mostly arrive in one batch just before ``act``, and
        a seat that is not asked to act gets them within a fraction of a second.
        """

    def on_end(self, result: Result) -> None:
        """The match is over."""
