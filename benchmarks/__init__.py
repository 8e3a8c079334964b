"""Benchmarks of the arena: every figure is a ratio against a reference measured in the same run.

Run everything with ``python -m benchmarks`` (``--quick`` for small sizes); see
``benchmarks/README.md``.
"""
