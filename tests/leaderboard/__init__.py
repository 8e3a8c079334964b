"""Tests of the leaderboard views."""
