"""Attack 7: fill the disk.

    python -m tests.players.hostile.disk_fill --db-dir FOLDER [--cap-mb 96]

Writes 1 MB blocks into its own folder and the database's folder (up to ``--cap-mb``,
removed after), then into ``/tmp`` (its scratch, also ``$HOME``) until refused, then
into the other writable-looking places (``/``, ``/run``, ``/dev``) up to ``--cap-mb``
each, keeping all that. Reports the bytes written in each place and how it ended.
"""

from __future__ import annotations

import contextlib
import os
from typing import Any

from .common import error, parse, parser, play, report

BLOCK = b"\xa5" * (1 << 20)


def fill(name: str, folder: str, cap_mb: int, remove: bool = False) -> dict[str, Any]:
    path = os.path.join(folder, "hostile-fill-" + name.replace(" ", "-").strip("/"))
    written = 0
    ended = f"no refusal up to {cap_mb} MB"
    try:
        with open(path, "wb", buffering=0) as file:
            while written < cap_mb << 20:
                written += file.write(BLOCK)
            os.fsync(file.fileno())
    except OSError as err:
        ended = error(err)
    if remove:
        with contextlib.suppress(OSError):
            os.remove(path)
    return {"path": path, "bytes": written, "ended": ended}


def main() -> None:
    cli = parser(__doc__ or "")
    cli.add_argument("--db-dir", required=True)
    cli.add_argument("--cap-mb", type=int, default=96)
    args = parse(cli)
    # Its folder and the database's first (its folder may be in its scratch: that must not
    # be full yet), each file removed after; then the scratch until refused; then the rest.
    results = {"own folder": fill("own folder", os.getcwd(), args.cap_mb, remove=True),
               "db folder": fill("db folder", os.path.abspath(args.db_dir), args.cap_mb,
                                 remove=True),
               "scratch": fill("scratch", "/tmp", 4096)}
    for folder in ("/", "/run", "/dev"):
        results[folder] = fill(folder, folder, args.cap_mb)
    report("disk_fill", results=results,
           outside_scratch_bytes=sum(r["bytes"] for n, r in results.items() if n != "scratch"))
    play()


if __name__ == "__main__":
    main()
