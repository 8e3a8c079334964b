"""Views of ratings, matches and replays: a terminal view (rich) and a web view
(:mod:`leaderboard.web`); the JSON documents both share are :mod:`arena.app.documents`'."""

from leaderboard.terminal import print_leaderboard, render_leaderboard, render_matches

__all__ = ["print_leaderboard", "render_leaderboard", "render_matches"]
