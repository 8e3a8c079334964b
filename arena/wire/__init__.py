"""What crosses the wire: everything that knows protobuf (game values as messages, the referee's
messages, match logs) and the tokens that bots and people present (:mod:`arena.wire.tokens`)."""
