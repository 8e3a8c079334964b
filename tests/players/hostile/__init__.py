"""Hostile bots: each attacks the arena or the other bots in one way at start-up, reports
what it got as ``ATTACK <name> {json}`` lines on stdout, then plays honestly. See
``common.py`` and ``tests/players/test_hostile.py``; ``honest.py`` is their twin without
an attack."""
