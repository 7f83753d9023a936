"""Reads of the leaderboards: boards, stats, clubs and standings."""
