"""One match: the referee (the one match loop), the links to seats, replays, the conformance suite."""
