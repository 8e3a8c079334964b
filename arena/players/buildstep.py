"""The step a build runs inside its sandbox: install, then hand the result out as a tar.

    python -I -S .../buildstep.py BUILD_DIR -- COMMAND [ARGS...]

It makes ``BUILD_DIR/deps`` and ``BUILD_DIR/tmp`` (``TMPDIR``: pip's temporary files on
the same size-capped tmpfs as its target, so its final move is a rename), runs the
command (``pip install --no-index ... --target BUILD_DIR/deps``) with its output on
standard error, and, if it succeeded, writes ``deps`` as an uncompressed tar to standard
output. The arena reads that tar as hostile (:func:`arena.players.buildbox.copy_out`):
under a size cap, files, folders and links inside only. Nothing the build wrote ever
lands on the server's disk otherwise: the tmpfs goes with the sandbox.

Run as a script with ``-I -S`` it imports only the standard library (like the launcher).
"""

import os
import subprocess
import sys
import tarfile


def main(args: list[str]) -> int:
    if len(args) < 3 or args[1] != "--":
        print("usage: buildstep.py BUILD_DIR -- COMMAND [ARGS...]", file=sys.stderr)
        return 2
    build, command = args[0], args[2:]
    deps, tmp = os.path.join(build, "deps"), os.path.join(build, "tmp")
    os.makedirs(deps, exist_ok=True)
    os.makedirs(tmp, exist_ok=True)
    env = {**os.environ, "TMPDIR": tmp}
    try:
        status = subprocess.call(command, stdin=subprocess.DEVNULL, stdout=sys.stderr.fileno(),
                                 env=env)
    except OSError as err:
        print(f"buildstep: cannot run {command[0]!r}: {err.strerror}", file=sys.stderr)
        return 127
    if status != 0:
        return status if status > 0 else 128 - status  # killed by a signal: 128 + its number
    with tarfile.open(fileobj=sys.stdout.buffer, mode="w|", format=tarfile.PAX_FORMAT) as out:
        for name in sorted(os.listdir(deps)):
            out.add(os.path.join(deps, name), arcname=name)  # links are kept as links
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
