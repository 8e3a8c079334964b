"""Tests of the match layer."""
