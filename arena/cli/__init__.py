"""The ``arena`` command line (see :mod:`arena.cli.app`); one module per command group.

Importing the package imports every command module, and so registers every command
(in this order, which is the order of ``arena --help``).
"""

# isort: off
import arena.cli.games
import arena.cli.bots
import arena.cli.authors
import arena.cli.tournaments
import arena.cli.ladder
import arena.cli.standings
import arena.cli.results
import arena.cli.play
import arena.cli.serve
import arena.cli.web
import arena.cli.demo  # noqa: F401  (each module registers its commands on the app)
# isort: on
from arena.cli.app import app, main

__all__ = ["app", "main"]
