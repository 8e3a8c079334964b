"""Bundled bots. Each runs as its own process: ``python -m bots.<name>``."""
