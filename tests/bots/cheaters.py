"""Bots that cheat with nothing but their own messages, and their honest twin (Face Card / Kill Card).

    python -m tests.bots.cheaters honest|memorizer|seed-search [--seeds N] [--marker M]

* ``honest``: draws while its face-up total plus its hole card is under 14.
* ``memorizer``: the same, but it remembers every deal it saw (the cards drawn, in
  order) for as long as its process lives.
  When a match's first cards match a deal it remembers (a seat rotation of a
  duplicated deal), it knows the stock: it draws while the next card is no face card.
* ``seed-search``: the same, but after its first match it searches the public seeds
  ``0..N-1`` (``--deals-from-seed`` deals of the first repetitions and groups) for
  the deal it saw; once it has the seed it knows the stock of every later match.

Each prints ``CHEAT <kind> {json}`` lines (the arena keeps them in its log): what it
recognised or found. Only the game's observation and events are used.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from collections.abc import Sequence
from typing import Any

from arena.games import get_game
from arena.games.cards import Card, Rank
from arena.games.face_card_kill_card import Draw, Drew, HolesRevealed, card_value
from sdk import Bot, MatchInfo

FACE = (Rank.JACK, Rank.QUEEN, Rank.KING)
GAME = "face-card-kill-card"


_PRINTING = threading.Lock()


def report(kind: str, **facts: Any) -> None:
    """One whole line (the seed search reports from a thread of its own: two prints at once
    could otherwise interleave, one report's newline after the other's text)."""
    with _PRINTING:
        sys.stdout.write(f"CHEAT {kind} {json.dumps(facts, sort_keys=True)}\n")
        sys.stdout.flush()


class Honest(Bot):
    """The twin: a fixed threshold, no memory."""

    kind = "honest"

    def on_start(self, match: MatchInfo) -> None:
        self.match = match
        self.drawn: list[Card] = []  # every card drawn face up this match, in order
        self.holes: tuple[tuple[Card, ...], ...] = ()  # every seat's, if a showdown shows them

    def on_events(self, events: Sequence[Any]) -> None:
        for event in events:
            if isinstance(event, Drew):
                self.drawn.append(event.card)
            elif isinstance(event, HolesRevealed):
                self.holes = event.holes

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        known = self.next_card()
        if known is not None and Draw() in legal_actions:
            return Draw() if known.rank not in FACE else legal_actions[-1]
        total = observation.face_up_totals[observation.seat] + sum(
            card_value(c, observation.ace_value) for c in observation.hole_cards)
        return Draw() if total < 14 and Draw() in legal_actions else legal_actions[-1]

    def next_card(self) -> Card | None:
        """The next card of the stock, when the bot knows it (never, for the honest twin)."""
        return None


class Memory:
    """What a cheater keeps for as long as its process lives (the SDK makes a bot per seat)."""

    def __init__(self, seeds: int = 0) -> None:
        self.deals: list[tuple[list[Card], tuple[tuple[Card, ...], ...]]] = []
        """(draws in order, every seat's hole cards if a showdown showed them) per deal seen"""
        self.recognised = 0
        self.matches = 0
        self.seeds = seeds
        self.found: int | None = None
        self.searched = False
        self.stocks: dict[tuple[int, int, int], tuple[list[Card], list[list[Card]]]] = {}
        """(stock in drawing order, hole cards by seat) of every deal of the seed found"""


class Memorizer(Honest):
    kind = "memorizer"

    def __init__(self, memory: Memory) -> None:
        self.memory = memory

    def on_start(self, match: MatchInfo) -> None:
        super().on_start(match)
        self.known: list[Card] | None = None

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        self.hole = set(observation.hole_cards)
        return super().act(observation, legal_actions)

    def next_card(self) -> Card | None:
        if self.known is None:
            self.known = self.recognise()
        if self.known is not None and len(self.drawn) < len(self.known):
            return self.known[len(self.drawn)]
        return None

    def recognise(self) -> list[Card] | None:
        """The latest remembered deal whose draws began as this match's did (two cards at
        least), or, before that, one of the last few whose showdown showed this seat's hole
        card at this seat (a seat rotation of a deal deals every seat the same cards)."""
        seat = self.match.seat
        for age, (draws, holes) in enumerate(reversed(self.memory.deals)):
            if draws[:len(self.drawn)] != self.drawn:
                continue
            recent = age < 4  # rotations of a deal follow each other in the schedule
            if len(self.drawn) >= 2 or (recent and seat < len(holes) and set(holes[seat]) == self.hole):
                self.memory.recognised += 1
                return draws
        return None

    def on_end(self, result: Any) -> None:
        memory = self.memory
        memory.matches += 1
        memory.deals.append((list(self.drawn), self.holes))
        report(self.kind, match=self.match.match_id, recognised=memory.recognised,
               matches=memory.matches)


class SeedSearcher(Memorizer):
    kind = "seed-search"

    def recognise(self) -> list[Card] | None:
        """The deal of the seed found in which this seat holds this hole and whose stock began
        with this match's draws."""
        for stock, holes in self.memory.stocks.values():
            if set(holes[self.match.seat]) == self.hole and stock[:len(self.drawn)] == self.drawn:
                self.memory.recognised += 1
                return stock
        return None

    def on_end(self, result: Any) -> None:
        super().on_end(result)
        if not self.memory.searched and len(self.drawn) >= 3 and getattr(self, "hole", None):
            self.memory.searched = True
            match, drawn, hole = self.match, list(self.drawn), set(self.hole)
            threading.Thread(target=self.search, args=(match, drawn, hole), daemon=True).start()

    def search(self, match: MatchInfo, drawn: list[Card], hole: set[Card]) -> None:
        """Every deal of the first repetitions and groups of every seed below ``seeds``, as
        ``--deals-from-seed`` makes them: is this match's among them (its first draws, and
        this seat's hole card: three draws alone match one of a thousand deals by chance about
        once in 130)?"""
        from arena.tournament.schedule import match_seed

        game = get_game(GAME)
        options = game.parse_options(match.players, dict(match.options))
        tried = 0
        found: int | None = None
        stocks: dict[tuple[int, int, int], tuple[list[Card], list[list[Card]]]] = {}
        for seed in range(self.memory.seeds):
            for repetition in range(2):
                for group in range(8):
                    state = game.new(match.players, match_seed(seed, repetition, group), options)
                    tried += 1
                    stock = list(reversed(state.stock))
                    stocks[seed, repetition, group] = (stock, [list(h) for h in state.hole])
                    if stock[:len(drawn)] == drawn and found is None \
                            and set(state.hole[match.seat]) == hole:
                        found = seed
        if found is not None:  # every deal of that seed, to recognise later matches
            for repetition in range(32):
                for group in range(16):
                    state = game.new(match.players, match_seed(found, repetition, group), options)
                    stocks[found, repetition, group] = (list(reversed(state.stock)),
                                                        [list(h) for h in state.hole])
            self.memory.stocks = {k: v for k, v in stocks.items() if k[0] == found}
            self.memory.found = found
        report(self.kind, searched=tried, found=found)


def main(argv: Sequence[str]) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("kind", choices=("honest", "memorizer", "seed-search"))
    parser.add_argument("--seeds", type=int, default=256)
    parser.add_argument("--marker", default="")  # lets a test find the process
    args, rest = parser.parse_known_args(argv)
    from sdk.run import run

    memory = Memory(args.seeds)
    if args.kind == "honest":
        run(Honest, rest)
    elif args.kind == "memorizer":
        run(lambda: Memorizer(memory), rest)
    else:
        run(lambda: SeedSearcher(memory), rest)


if __name__ == "__main__":
    main(sys.argv[1:])
