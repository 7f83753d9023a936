"""Fair play in one room: voids (an operator takes a game or a player off every board, with a reason),
the daily re-check of ranked games and its flags (a stored result that its move log does not give,
and the suspicious-play rule), their admin, their API under ``/api/fair-play/`` and the work behind
the ``void`` and ``recheck_ranked_day`` commands."""
