"""The ``arena`` command line: :mod:`arena.cli.app` registers every command group and
command, one module each."""

from arena.cli.app import app, main

__all__ = ["app", "main"]
