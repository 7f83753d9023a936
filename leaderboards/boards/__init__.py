"""Results and the boards read from them: a ranked game's result, the daily, weekly and all-time boards, their
counts and Redis copies, a player's page, statistics and streaks. The boards know nothing of tournaments or fair
play: they leave out a result whose ``voided`` is set, and announce each result they write (``signals``) to the
rooms above them."""
