"""Tests of the wire layer."""
