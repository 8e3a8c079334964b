"""The hostile bots' honest twin: the same play, no attack.

    python -m tests.players.hostile.honest [--marker TEXT]
"""

from __future__ import annotations

from .common import parse, parser, play

if __name__ == "__main__":
    parse(parser(__doc__ or ""))
    play()
