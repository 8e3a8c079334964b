"""Attack 2: read /proc of the arena and of the other bots.

    python -m tests.players.hostile.proc_spy --db PATH [--only TEXT]

For every process in sight but itself: its environment, command line, status, open
files and the top of its stack (through ``/proc/PID/mem``). Looks there for other
bots' tokens, the arena's variables (every ``ARENA_*`` value is reported, so that the
test can look for the secret it gave the arena) and the database's path.
"""

from __future__ import annotations

import os

from .common import (
    clipped,
    error,
    own_token,
    parse,
    parser,
    play,
    processes,
    read,
    report,
    stack,
    tokens_in,
    without_own_arguments,
)


def main() -> None:
    cli = parser(__doc__ or "")
    cli.add_argument("--db", required=True)
    args = parse(cli)
    db = os.path.abspath(args.db).encode()
    mine = own_token()
    seen: dict[int, dict[str, object]] = {}
    tokens: set[str] = set()
    variables: dict[str, str] = {}
    db_seen_in: list[str] = []
    for pid, line in processes(args.only).items():
        entry: dict[str, object] = {"cmdline": clipped(line)}
        for part in ("environ", "cmdline", "status", "maps"):
            data = read(f"/proc/{pid}/{part}")
            if isinstance(data, str):
                entry[part] = data
                continue
            entry[part] = f"{len(data)} bytes"
            tokens |= tokens_in(data)
            if db in without_own_arguments(data):
                db_seen_in.append(f"{pid}/{part}")
            if part == "environ":
                for pair in data.split(b"\0"):
                    name, _, value = pair.decode(errors="replace").partition("=")
                    if name.startswith("ARENA_"):
                        variables[f"{pid}:{name}"] = value
        try:
            links = [os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")]
            entry["fds"] = links
            db_seen_in += [f"{pid}/fd" for link in links if link.encode().startswith(db)]
        except OSError as err:
            entry["fds"] = error(err)
        memory = stack(pid)
        if isinstance(memory, bytes):
            entry["mem"] = f"read {len(memory)} bytes of the stack"
            tokens |= tokens_in(memory)
            if db in without_own_arguments(memory):
                db_seen_in.append(f"{pid}/mem")
        else:
            entry["mem"] = memory
        seen[pid] = entry
    report("proc_spy", processes=seen, other_tokens=sorted(tokens - {mine}),
           own_token_seen=mine in tokens, arena_variables=variables, db_path_seen_in=db_seen_in)
    play()


if __name__ == "__main__":
    main()
