"""The arena's tokens: how one is made (:func:`new_token`) and how it is kept (:func:`digest`).

Every secret a bot or a person presents to the arena is one of these: a managed bot's
token, a remote bot's, an author's, the operator's, and the one-time credential of a
seat. The arena keeps only a token's SHA-256 (hex), and compares hashes, never tokens.

This module lives in ``wire``, the lowest layer that every user can import (``players``
and ``net`` make and check tokens but are independent siblings, so neither can hold it
for the other; ``service``, ``tournament`` and ``cli`` sit above them; ``games`` holds
pure rules). It imports no gRPC and no protobuf (a contract in ``pyproject.toml`` says
so), so hashing a token never pulls in the transport.
"""

from __future__ import annotations

import hashlib
import secrets

TOKEN_BYTES = 32
"""Random bytes in a token: 256 bits, 43 URL-safe characters."""


def new_token(nbytes: int = TOKEN_BYTES) -> str:
    """A random URL-safe token of ``nbytes`` random bytes, never starting with ``-``: a
    command line would read ``--token -x...`` as an option."""
    while (token := secrets.token_urlsafe(nbytes)).startswith("-"):
        pass
    return token


def digest(token: str) -> str:
    """What the arena keeps of ``token``: its SHA-256, in hex."""
    return hashlib.sha256(token.encode()).hexdigest()


__all__ = ["TOKEN_BYTES", "digest", "new_token"]
