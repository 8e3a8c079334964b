"""Tests of ratings."""
