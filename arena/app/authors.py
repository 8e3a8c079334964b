"""Authors, the command side: add one, issue a new token, list them. An author submits
bots to a server with a token of their own (the store keeps only its SHA-256)."""

from __future__ import annotations

from arena.storage.store import AuthorInfo, Store
from arena.wire.tokens import digest, new_token


def add(store: Store, name: str) -> tuple[AuthorInfo, str]:
    """Add an author; (them, their token, to be shown once)."""
    token = new_token()
    return store.add_author(name, digest(token)), token


def issue_token(store: Store, name: str) -> tuple[AuthorInfo, str]:
    """A new token for an author (the old one stops working at once)."""
    token = new_token()
    return store.set_author_token_hash(name, digest(token)), token


def listing(store: Store) -> list[AuthorInfo]:
    return store.list_authors()


__all__ = ["add", "issue_token", "listing"]
