"""Card Arena: a tournament arena for bots that play hidden-information card games."""

__version__ = "0.1.0"
