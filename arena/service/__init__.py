"""`arena serve`: the operator service, its authentication, and the server around it."""
