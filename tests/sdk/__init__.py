"""Tests of the bot SDK."""
