"""The arena's one home for tokens (:mod:`arena.wire.tokens`): none a command line would read as
an option, the one hash every kept token is checked by, and no gRPC pulled in to get them."""

from __future__ import annotations

import hashlib
import subprocess
import sys

from arena.service.operator_token import TokenHash
from arena.wire.tokens import TOKEN_BYTES, digest, new_token

MANY = 5_000  # a random token starts with "-" one time in 64: about 78 of these would


def test_no_token_starts_with_a_dash() -> None:
    tokens = [new_token() for _ in range(MANY)] + [new_token(24) for _ in range(MANY)]
    assert not [t for t in tokens if t.startswith("-")]
    assert len(set(tokens)) == len(tokens)
    assert {len(t) for t in tokens} == {43, 32}  # 32 and 24 random bytes, URL-safe base64
    assert TOKEN_BYTES == 32
    assert any("-" in t for t in tokens)  # "-" is still a token character, never the first


def test_the_operator_token_and_every_kept_token_use_the_one_digest() -> None:
    token = new_token()
    assert digest(token) == hashlib.sha256(token.encode()).hexdigest()
    assert TokenHash.of(token).hexdigest == digest(token)
    assert digest(token) != digest(new_token())


def test_tokens_come_without_grpc_or_protobuf() -> None:
    code = ("import sys, arena.wire.tokens as t; t.digest(t.new_token()); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('grpc', 'google') "
            "or m.startswith('arena.v1')))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, timeout=60)
    assert loaded.stdout.strip() == "[]", loaded.stdout
