"""The launcher of managed bots: joins the bot's control groups, lowers its rlimits, then
becomes the bot (or the sandbox holding it) with ``execvp``.

    python -I -S .../launcher.py [--join CGROUP_PROCS_FILE] [--memory-mb N] [--cpu-seconds N]
        [--processes N] [--open-files N] -- COMMAND [ARGS...]

It runs once per bot process start, so it imports nothing but ``os``, ``sys`` and
``resource`` (about 30 ms less per start than through :mod:`arena.players.limits`,
which builds its command line; see there for what each limit means).

Why a launcher: setting limits in the child between fork and exec (``preexec_fn``)
is unsafe in a process with threads (gRPC runs several), and ``prlimit`` after the
spawn races with a child that allocates at once.
"""

import os
import resource
import sys

CPU_GRACE_S = 5  # between SIGXCPU (soft limit) and SIGKILL (hard limit)
_RESOURCES = {"--memory-mb": (resource.RLIMIT_AS, 1024 * 1024), "--cpu-seconds": (resource.RLIMIT_CPU, 1),
              "--processes": (resource.RLIMIT_NPROC, 1), "--open-files": (resource.RLIMIT_NOFILE, 1)}


def _lower(kind: int, soft: int, hard: int) -> None:
    """Lower a limit; never raise it above the hard limit already in force."""
    _, current_hard = resource.getrlimit(kind)
    if current_hard != resource.RLIM_INFINITY:
        hard = min(hard, current_hard)
        soft = min(soft, hard)
    resource.setrlimit(kind, (soft, hard))


def launch(args: list[str]) -> None:
    """Apply ``--flag N`` limits, then become the command after ``--`` (never returns)."""
    args = list(args)
    if "--" not in args or args.index("--") == len(args) - 1:
        raise SystemExit("usage: limits.py [--join CGROUP_PROCS_FILE] [--memory-mb N] "
                         "[--cpu-seconds N] [--processes N] [--open-files N] -- COMMAND [ARGS...]")
    split = args.index("--")
    flags, command = args[:split], args[split + 1:]
    if len(flags) % 2:
        raise SystemExit(f"limits: a value is missing in {flags}")
    for flag, text in zip(flags[::2], flags[1::2], strict=True):
        if flag == "--join":  # a control group: every process of the bot will be in it
            try:
                with open(text, "w") as procs:
                    procs.write(str(os.getpid()))
            except OSError as err:
                raise SystemExit(f"limits: cannot join the control group {text}: {err}") from None
            continue
        if flag not in _RESOURCES or not text.isdigit() or int(text) < 1:
            raise SystemExit(f"limits: bad limit {flag} {text}")
        kind, unit = _RESOURCES[flag]
        value = int(text) * unit
        grace = CPU_GRACE_S if kind == resource.RLIMIT_CPU else 0
        try:
            _lower(kind, value, value + grace)
        except (ValueError, OSError) as err:
            raise SystemExit(f"limits: cannot set {flag} {text}: {err}") from None
    try:
        os.execvp(command[0], command)
    except OSError as err:
        print(f"limits: cannot run {command[0]!r}: {err}", file=sys.stderr)
        os._exit(127)


if __name__ == "__main__":
    launch(sys.argv[1:])
