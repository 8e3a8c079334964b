"""The application layer: use cases that the adapters (the CLI, the web app, the operator
service) share, over the tournament, storage and match layers below.

- :mod:`arena.app.visibility`: the one rule of who may see what of a match, and when (a
  duplicate deal stays secret while any rotation of it is unfinished);
- :mod:`arena.app.live`: live feeds of running matches, one cheap reader per match shared
  by every spectator, with caps per match, per client and in total;
- the read use cases, each in one place, returning plain records for the views to format:
  :mod:`arena.app.boards` (leaderboards, pools, compare, head-to-head, a bot's page),
  :mod:`arena.app.reports` (a tournament's progress, report and export) and
  :mod:`arena.app.matches` (a match as the secrecy rule allows, lists of matches and faults),
  :mod:`arena.app.travellers` (a duplicate deal's rotations side by side, once it is over);
  :mod:`arena.app.records` names the store's values they return.
"""
