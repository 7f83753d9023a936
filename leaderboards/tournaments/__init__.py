"""A club's tournaments: their deals, entries, standings and windows. Above the clubs and the boards (a standing
sums results), below fair play."""
