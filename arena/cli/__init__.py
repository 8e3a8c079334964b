"""The `arena` command line: one module per command group."""
