"""Tests of the application layer."""
