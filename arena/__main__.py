"""``python -m arena`` and the ``arena`` command: the command line, or one line saying what
to install when the server's packages are missing (the SDK alone, ``pip install card-arena``,
has no command line: bots need only grpcio and protobuf)."""

from __future__ import annotations

import gc
import sys

SERVER_PACKAGES = frozenset({"typer", "rich", "click", "sqlmodel", "sqlalchemy", "alembic",
                             "trueskill", "fastapi", "starlette", "uvicorn", "jinja2", "pydantic"})
"""What ``card-arena[server]`` brings that the SDK's install does not."""


def main() -> None:
    try:
        from arena.cli.app import main as command_line
    except ModuleNotFoundError as err:
        missing = (err.name or "").split(".")[0]
        if missing not in SERVER_PACKAGES:
            raise
        print(f"arena: the command line needs the server's packages ({missing} is not "
              "installed): pip install 'card-arena[server]'", file=sys.stderr)
        raise SystemExit(1) from None
    command_line()


def run() -> None:
    """The ``arena`` process: :func:`main` with no garbage collection while it imports (the
    store, SQLAlchemy, pydantic and typer: about 750 modules whose objects live as long as
    the process; collecting during their import is a tenth of the start-up's CPU, 0.08 of
    0.8 s), those objects then set aside for good (``gc.freeze``: later collections do
    not walk them)."""
    gc.disable()
    try:
        from arena.cli import app  # noqa: F401  (imported here, without collections)
    except ModuleNotFoundError:
        pass  # main() says what is missing
    finally:
        gc.freeze()
        gc.enable()
    main()


if __name__ == "__main__":
    run()
