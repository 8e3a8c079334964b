"""Tests of bot processes."""
