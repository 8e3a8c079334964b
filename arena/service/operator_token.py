"""The operator's token across restarts of ``arena serve``: known by its SHA-256 only, kept
in the data folder, and changed only when the operator says so.

* Given (``--operator-token`` or ``ARENA_OPERATOR_TOKEN``): that token; its hash is kept.
* Not given, a hash kept from an earlier start: that token still works (the server checks
  the hash; it never needs the token itself).
* Not given and none kept, or ``--rotate-operator-token``: a new random token, printed once;
  its hash is kept, and any earlier token stops working.

The file (:data:`TOKEN_FILE`, mode 0600) lies in the arena's data folder, which no bot sees.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from arena.errors import ArenaError
from arena.wire.tokens import digest, new_token

TOKEN_FILE = "operator-token.sha256"
MIN_LENGTH = 16
_HASH = re.compile(r"[0-9a-f]{64}")


class OperatorTokenError(ArenaError, ValueError):
    """The operator's token cannot be used or kept (the message says why in one line)."""


@dataclass(frozen=True)
class TokenHash:
    """A token known by its SHA-256 (hex) only: :func:`arena.wire.tokens.digest`, as every
    token the arena keeps."""

    hexdigest: str

    @classmethod
    def of(cls, token: str) -> TokenHash:
        return cls(digest(token))


@dataclass(frozen=True)
class OperatorToken:
    """The hash the server checks, and a new token to print once (None: none was made)."""

    hash: TokenHash
    new: str | None
    kept: bool  # the hash of an earlier start, reused


def check(given: str | None, rotate: bool) -> None:
    """Refuse, before anything is written, a token too short or a rotation beside a token."""
    if given is not None and len(given) < MIN_LENGTH:
        raise OperatorTokenError(f"the operator token must be at least {MIN_LENGTH} characters")
    if given is not None and rotate:
        raise OperatorTokenError("--rotate-operator-token makes a new token: give no "
                                 "--operator-token (nor ARENA_OPERATOR_TOKEN) with it")


def operator_token(data_dir: Path, given: str | None, rotate: bool = False) -> OperatorToken:
    """The operator's token for this start (see the module's rules)."""
    check(given, rotate)
    path = data_dir / TOKEN_FILE
    if given is not None:
        hashed = TokenHash.of(given)
        _keep(path, hashed)
        return OperatorToken(hashed, None, kept=False)
    if not rotate and (kept := _read(path)) is not None:
        return OperatorToken(kept, None, kept=True)
    token = new_token(24)
    hashed = TokenHash.of(token)
    _keep(path, hashed)
    return OperatorToken(hashed, token, kept=False)


def _read(path: Path) -> TokenHash | None:
    try:
        text = path.read_text().strip()
    except FileNotFoundError:
        return None
    except OSError as err:
        raise OperatorTokenError(f"cannot read the kept operator token ({err.strerror or err})") \
            from None
    if not _HASH.fullmatch(text):
        raise OperatorTokenError(f"{TOKEN_FILE} in the data folder is not a token's SHA-256: "
                                 "remove it, or pass --rotate-operator-token")
    return TokenHash(text)


def _keep(path: Path, hashed: TokenHash) -> None:
    """Write the hash (mode 0600) in one step: a reader sees the old file or the new one."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        staging = path.with_name(f".{path.name}.{os.getpid()}")
        descriptor = os.open(staging, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW,
                             0o600)
        with os.fdopen(descriptor, "w") as out:
            out.write(hashed.hexdigest + "\n")
        os.replace(staging, path)
    except OSError as err:
        raise OperatorTokenError(f"cannot keep the operator token's hash in the data folder "
                                 f"({err.strerror or err})") from None


__all__ = ["MIN_LENGTH", "TOKEN_FILE", "OperatorToken", "OperatorTokenError", "TokenHash",
           "check", "operator_token"]
