"""What the course asks: the catalog of exercises and key points, and the levels built on it.
Check side: no learner process may import it."""
