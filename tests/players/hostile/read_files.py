"""Attack 1: read the arena's database and files.

    python -m tests.players.hostile.read_files --db PATH --data FOLDER [--only TEXT]

Tries the database and the files beside it sharing its name, the data folder (its
logs), a listing of the database's folder, every SQLite file and log it can find by
walking what it sees, and the files open in every process in sight (reopened through
``/proc/PID/fd/N``). Reports what it could read and, for what it read, its printable
strings (so that the test can look for a canary it planted in the database).
"""

from __future__ import annotations

import os
import sys

from .common import error, parse, parser, play, processes, read, report, strings

SKIP = {"/proc", "/sys", "/dev", "/usr"}
MAX_FILES = 20_000
DUMP_LIMIT = 300_000  # characters of strings per report: the log keeps 1 MB per start


def main() -> None:
    cli = parser(__doc__ or "")
    cli.add_argument("--db", required=True)
    cli.add_argument("--data", required=True)
    args = parse(cli)
    db, data = os.path.abspath(args.db), os.path.abspath(args.data)
    attempts: dict[str, str] = {}
    got: dict[str, bytes] = {}

    def attempt(path: str) -> None:
        if path in attempts:
            return
        content = read(path)
        if isinstance(content, bytes):
            attempts[path] = f"read {len(content)} bytes"
            got[path] = content
        else:
            attempts[path] = content

    for suffix in ("", "-wal", "-shm", "-journal"):
        attempt(db + suffix)
    listing: list[str] | str
    try:
        listing = sorted(os.listdir(os.path.dirname(db)))
    except OSError as err:
        listing = error(err)
    try:
        for folder, _, names in os.walk(data):
            for name in names:
                attempt(os.path.join(folder, name))
    except OSError as err:
        attempts[data] = error(err)
    if not os.path.isdir(data):
        attempts.setdefault(data, "not in sight")

    # What else is in sight: SQLite files (by their header) and logs, anywhere but the system.
    roots = [os.getcwd(), os.path.dirname(db)] if args.only else ["/"]
    skip = SKIP | {sys.prefix, sys.base_prefix} if not args.only else set()
    found_db: list[str] = []
    found_logs: list[str] = []
    seen = 0
    for root in roots:
        for folder, dirs, names in os.walk(root):
            dirs[:] = [d for d in dirs if os.path.join(folder, d) not in skip]
            for name in names:
                path = os.path.join(folder, name)
                seen += 1
                if seen > MAX_FILES:
                    break
                head = read(path, 16)
                if head == b"SQLite format 3\0":
                    found_db.append(path)
                    attempt(path)
                elif name.endswith(".log"):
                    found_logs.append(path)
                    attempt(path)

    # Files open in any process in sight, reopened through /proc.
    open_files: dict[str, str] = {}
    for pid in processes(args.only):
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError as err:
            open_files[f"/proc/{pid}/fd"] = error(err)
            continue
        for fd in fds:
            link = f"/proc/{pid}/fd/{fd}"
            try:
                target = os.readlink(link)
            except OSError as err:
                open_files[link] = error(err)
                continue
            open_files[link] = target
            if target.startswith("/") and not target.startswith(("/dev/", "/proc/")):
                attempt(link)

    arena_files = {p: a for p, a in attempts.items() if a.startswith("read")
                   and (p.startswith((db, data)) or p.startswith("/proc/") or p in found_db)}
    report("read_files", db_listing=listing, attempts=attempts, sqlite_files=found_db,
           logs=found_logs, open_files=open_files, read_arena_files=sorted(arena_files))
    dumped = 0
    for path in sorted(got):
        if path not in arena_files or dumped > DUMP_LIMIT:
            continue
        text = strings(got[path])
        dumped += sum(len(s) for s in text)
        report("read_files_strings", path=path, strings=text)
    play()


if __name__ == "__main__":
    main()
