"""Everything that knows protobuf: game values as messages, the referee's messages, match logs."""
