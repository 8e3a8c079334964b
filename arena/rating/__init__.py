"""Ratings: TrueSkill for free-for-all matches and the pure per-bot accounting."""
