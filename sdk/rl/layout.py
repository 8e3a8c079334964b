"""The layout of each game's observation vector and action space, as ``docs/rl.md`` prints it:

    python -m sdk.rl.layout            # every game, at its default table size
    python -m sdk.rl.layout kill 3     # one game, at a table of 3

One row per field of the game's observation: where its numbers start, how many there are,
and what they hold (a tuple's items are listed once, as ``[i]``).
"""

from __future__ import annotations

import re
import sys
from itertools import groupby

from arena.games import all_games, get_game
from sdk.rl.encoding import Slot
from sdk.rl.spaces import Spaces


def _field(slot: Slot) -> str:
    return re.split(r"[.\[#?]", slot.name, maxsplit=1)[0]


def markdown(name: str, players: int | None = None) -> str:
    """The game's layout as a Markdown section."""
    game = get_game(name)
    seats = players if players is not None else game.default_players
    options = game.parse_options(seats)
    found = Spaces.of(game, seats, options)
    encoder, catalogue = found.encoder, found.catalogue
    kinds = ", ".join(f"{kind.__name__} {sum(1 for a in catalogue.actions if type(a) is kind)}"
                      for kind in game.action_types)
    lines = [f"### {name} ({seats} seats)", "",
             f"Observation: {encoder.size} numbers. Actions: {len(catalogue)} ({kinds}).", "",
             "| from | numbers | field | what they hold |", "|---|---|---|---|"]
    for field, run in groupby(encoder.slots, key=_field):
        slots = list(run)
        parts: dict[str, str] = {}
        for slot in slots:
            parts.setdefault(re.sub(r"\[\d+\]", "[i]", slot.name), slot.meaning)
        held = "; ".join(f"`{pattern}`: {meaning}" for pattern, meaning in parts.items())
        lines.append(f"| {slots[0].offset} | {sum(s.width for s in slots)} | {field} | {held} |")
    return "\n".join(lines) + "\n"


def every_game() -> str:
    """Every game's section, at its default table size."""
    return "\n".join(markdown(name) for name in all_games())


if __name__ == "__main__":
    if len(sys.argv) > 1:
        print(markdown(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else None), end="")
    else:
        print(every_game(), end="")
