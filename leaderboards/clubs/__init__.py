"""Clubs, their members and the audit record of their changes: the bottom room of the leaderboards, which knows
nothing of the boards, tournaments or fair play."""
