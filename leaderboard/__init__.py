"""Views of ratings, matches and replays: a terminal view (rich) and, later, a web view."""

from leaderboard.terminal import print_leaderboard, render_leaderboard, render_matches

__all__ = ["print_leaderboard", "render_leaderboard", "render_matches"]
