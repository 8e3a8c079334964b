"""Tests of tournaments."""
