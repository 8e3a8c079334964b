"""Tournaments: schedules, setup and resume rules, the run loop, and the executors that play matches."""
