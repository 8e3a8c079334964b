"""The options every gRPC server of the arena is built with, written once: the bot service
(:func:`arena.net.bot_service.create_server`) and the operator service (``arena serve``, on its
port and on its Unix socket) differ only in what a request may weigh and how many connections
they take.

Against hostile or vanished peers: a port in use is an error (no second listener), bounded
messages and metadata, a bounded number of streams per connection, keepalive pings that find
dead or frozen peers (and strikes for clients that ping too often), and idle connections
closed.
"""

from __future__ import annotations

MAX_SEND_BYTES = 16 * 1024 * 1024   # operators' match records can be large
MAX_METADATA_BYTES = 16 * 1024
MAX_STREAMS_PER_CONNECTION = 256    # a bot plays every seat it holds on one connection
KEEPALIVE_S = 30.0                  # the server pings each connection this often ...
KEEPALIVE_TIMEOUT_S = 10.0          # ... and closes it when no answer comes back in time
MIN_CLIENT_PING_INTERVAL_S = 10.0   # clients pinging more often (without data) get strikes
MAX_PING_STRIKES = 2
MAX_IDLE_S = 300.0                  # a connection without any stream for this long is closed


def server_options(max_receive_bytes: int,
                   max_connections: int | None = None) -> list[tuple[str, int]]:
    """The options of a gRPC server that accepts requests of at most ``max_receive_bytes``
    and, when given, at most ``max_connections`` connections at once (more are closed as
    they come)."""
    options = [
        ("grpc.so_reuseport", 0),  # a port in use is an error, not a second listener
        ("grpc.max_receive_message_length", max_receive_bytes),
        ("grpc.max_send_message_length", MAX_SEND_BYTES),
        ("grpc.max_metadata_size", MAX_METADATA_BYTES),
        ("grpc.max_concurrent_streams", MAX_STREAMS_PER_CONNECTION),
        ("grpc.keepalive_time_ms", int(KEEPALIVE_S * 1000)),
        ("grpc.keepalive_timeout_ms", int(KEEPALIVE_TIMEOUT_S * 1000)),
        ("grpc.http2.min_ping_interval_without_data_ms", int(MIN_CLIENT_PING_INTERVAL_S * 1000)),
        ("grpc.http2.max_ping_strikes", MAX_PING_STRIKES),
        ("grpc.max_connection_idle_ms", int(MAX_IDLE_S * 1000)),
    ]
    if max_connections is not None:
        options.append(("grpc.max_allowed_incoming_connections", max_connections))
    return options


__all__ = ["MAX_METADATA_BYTES", "MAX_SEND_BYTES", "MAX_STREAMS_PER_CONNECTION", "server_options"]
