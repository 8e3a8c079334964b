"""``python -m arena`` and the ``arena`` command: the command line, or one line saying what
to install when the server's packages are missing (the SDK alone, ``pip install card-arena``,
has no command line: bots need only grpcio and protobuf)."""

from __future__ import annotations

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


if __name__ == "__main__":
    main()
