"""``python -m arena`` is the ``arena`` command."""

from arena.cli.app import main

main()
