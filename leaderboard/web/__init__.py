"""The web app: leaderboards, bots, tournaments and matches in a browser, with their JSON.

:func:`create_app` builds it over a store; ``arena web`` and ``arena serve`` serve it.
"""

from leaderboard.web.app import create_app

__all__ = ["create_app"]
