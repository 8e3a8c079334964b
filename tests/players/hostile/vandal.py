"""Attack 6: write over, truncate, move or delete the database; write into another bot's log.

    python -m tests.players.hostile.vandal --db PATH --victim-log PATH [--marker TEXT] [--gentle]

Tries, on the database: opening it for writing and writing over its header,
truncating it, changing its mode, renaming it away, deleting it, and planting a
"hot" journal beside it; on another bot's log: appending a line with its marker, and
deleting it; in the data folder: creating a file. Reports each step as ``ok`` or its
error.

``--gentle`` is for the unsandboxed control run, which must not harm the tournament:
it only opens the database for writing (writing nothing) and appends its line to the
other bot's log.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from .common import error, parse, parser, play, report

GARBAGE = b"HOSTILE " * 512


def main() -> None:
    cli = parser(__doc__ or "")
    cli.add_argument("--db", required=True)
    cli.add_argument("--victim-log", required=True)
    cli.add_argument("--gentle", action="store_true")
    args = parse(cli)
    db, victim = os.path.abspath(args.db), os.path.abspath(args.victim_log)
    line = f"HOSTILE-WROTE-{args.marker}\n".encode()
    steps: dict[str, str] = {}

    def step(name: str, action: Callable[[], object]) -> None:
        try:
            action()
            steps[name] = "ok"
        except OSError as err:
            steps[name] = error(err)

    def overwrite(path: str, data: bytes | None) -> None:
        fd = os.open(path, os.O_RDWR)  # never O_CREAT: only the real file counts
        try:
            if data is not None:
                os.pwrite(fd, data, 0)
        finally:
            os.close(fd)

    def append(path: str) -> None:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND)
        try:
            os.write(fd, line)
        finally:
            os.close(fd)

    def plant(path: str) -> None:
        with open(path, "xb") as file:
            file.write(GARBAGE)

    in_sight = {"db": os.path.exists(db), "victim_log": os.path.exists(victim),
                "data_folder": os.path.isdir(os.path.dirname(os.path.dirname(victim)))}
    step("open db for writing", lambda: overwrite(db, None))
    step("append to victim log", lambda: append(victim))
    if not args.gentle:
        step("write over db header", lambda: overwrite(db, GARBAGE))
        step("write over db-wal", lambda: overwrite(db + "-wal", GARBAGE))
        step("truncate db", lambda: os.truncate(db, 0))
        step("chmod db", lambda: os.chmod(db, 0))
        step("plant db-journal", lambda: plant(db + "-journal"))
        step("rename db", lambda: os.rename(db, db + ".stolen"))
        step("unlink db", lambda: os.unlink(db))
        step("unlink victim log", lambda: os.unlink(victim))
        step("create file in data folder",
             lambda: plant(os.path.join(os.path.dirname(victim), "hostile.log")))
    report("vandal", in_sight=in_sight, steps=steps, gentle=args.gentle)
    play()


if __name__ == "__main__":
    main()
