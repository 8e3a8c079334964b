"""Tests of the operator service."""
