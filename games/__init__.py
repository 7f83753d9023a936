"""Deals, daily deals, games and their move logs, validated move by move on the server."""
