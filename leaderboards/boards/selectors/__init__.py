"""Reads of the results and boards: the daily, weekly and all-time boards, a player's page and statistics."""
