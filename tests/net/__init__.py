"""Tests of the gRPC bot service."""
