"""The gRPC bot service: seats reached over gRPC links, server limits, TLS."""
