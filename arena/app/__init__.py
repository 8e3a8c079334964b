"""The application layer: use cases that the adapters (the CLI, the web app, the operator
service) share, over the tournament, storage and match layers below.

- :mod:`arena.app.visibility`: the one rule of who may see what of a match, and when (a
  duplicate deal stays secret while any rotation of it is unfinished);
- :mod:`arena.app.live`: live feeds of running matches, one cheap reader per match shared
  by every spectator, with caps per match, per client and in total.
"""
