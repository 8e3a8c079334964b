"""Attack: one bot, many lanes, each holding memory, to get more than the bot's limit in all.

    python -m tests.players.hostile.hoard [--mb 150] [--step-mb 10]

Every process of the bot (each lane of a tournament with duplicate deals, and each
restart of one) allocates ``--mb`` MB as it starts, ``--step-mb`` at a time, writing
to every page, and holds it while it plays. Alone, each process stays well under the
bot's memory limit; the lanes together do not. A process that got all of it says so
(``ATTACK hoard {"held_mb": MB}``) before it connects and plays; one that
the kernel kills on the way says nothing.
"""

from __future__ import annotations

from .common import parse, parser, play, report

_hoard: list[bytearray] = []  # held for as long as the process lives


def main() -> None:
    cli = parser(__doc__ or "")
    cli.add_argument("--mb", type=int, default=150)
    cli.add_argument("--step-mb", type=int, default=10)
    args = parse(cli)
    while len(_hoard) * args.step_mb < args.mb:
        _hoard.append(bytearray(b"\x5a") * (args.step_mb << 20))  # every page written
    report("hoard", held_mb=len(_hoard) * args.step_mb)
    play()


if __name__ == "__main__":
    main()
