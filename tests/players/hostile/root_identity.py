"""Attack 13: act with the arena's own identity outside the sandbox.

    python -m tests.players.hostile.root_identity [--private PATH]

A bot is uid 65534 in its sandbox; what matters to the kernel's permission checks is
the uid outside it, to which that one is mapped. The bot reads a file only its owner
may read (``--private``, and whatever is under ``/etc/ssl/private``), opens global
kernel settings under ``/proc/sys`` for writing (writing nothing: among them
``kernel.core_pattern``, whose program the kernel runs as root outside any sandbox),
and writes ``kernel.printk_ratelimit`` back with the value it already has (no change
to the machine, but proof that a write goes through). Reports each as ``ok`` (with
what it read) or its error, and its uid map.
"""

from __future__ import annotations

import os

from .common import error, parse, parser, play, read, report

OPENED = ("kernel/core_pattern", "kernel/modprobe", "kernel/panic", "vm/drop_caches",
          "vm/overcommit_memory", "fs/file-max", "kernel/threads-max", "kernel/randomize_va_space")
REWRITTEN = "kernel/printk_ratelimit"


def open_for_writing(path: str) -> str:
    try:
        os.close(os.open(path, os.O_WRONLY))
        return "ok"
    except OSError as err:
        return error(err)


def rewrite(path: str) -> str:
    try:
        with open(path, "rb") as file:
            value = file.read()
        fd = os.open(path, os.O_WRONLY)
        try:
            return "ok" if os.write(fd, value) == len(value) else "short write"
        finally:
            os.close(fd)
    except OSError as err:
        return error(err)


def main() -> None:
    cli = parser(__doc__ or "")
    cli.add_argument("--private", default="")
    args = parse(cli)
    private: dict[str, str] = {}
    paths = [args.private] if args.private else []
    try:
        paths += [os.path.join("/etc/ssl/private", name) for name in os.listdir("/etc/ssl/private")]
        private["/etc/ssl/private"] = "listed"
    except OSError as err:
        private["/etc/ssl/private"] = error(err)
    for path in paths:
        content = read(path, 4096)
        private[path] = f"ok: {content.decode(errors='replace')}" if isinstance(content, bytes) \
            else content
    opened = {name: open_for_writing(f"/proc/sys/{name}") for name in OPENED}
    rewritten = {REWRITTEN: rewrite(f"/proc/sys/{REWRITTEN}")}
    with open("/proc/self/uid_map") as uid_map:  # inside, outside, count
        mapped = uid_map.read().split()
    with open("/proc/self/status") as status:
        effective = next(line.split()[1] for line in status if line.startswith("CapEff:"))
    report("root_identity", private=private, opened=opened, rewritten=rewritten,
           uid=os.getuid(), uid_map=mapped, capabilities=int(effective, 16))
    play()


if __name__ == "__main__":
    main()
