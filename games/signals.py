"""What the game service announces to the apps above it, which it never imports.

``game_finished`` is sent when a game ends (the move that ends it, a resignation, or the server closing a
ranked game at the end of its window), inside the transaction that stores it, with ``game`` and
``position`` (the final engine position, or None when the receiver should load it from the game) and
``payer`` (who the analysis' solver work is charged to: the request that ended it; None when the server
closed it): a receiver's writes land with the game's, or neither does. Leaderboards score the ranked ones; the game
app queues every finished game's analysis once the transaction commits.

``game_moved`` is sent after each stored change of a ranked game (a move; its end too: the ending move, a
resignation or the server's close, after ``game_finished``), with ``game`` (as stored) and ``kind`` (``move`` or
``over``: a ranked game has no undo), inside the transaction that stores it (a move that does not end the game is
stored by one statement, committed at once): a receiver that tells others of it does so once it is committed.
Tournaments tell a race's entrants of each other's progress.

``game_analysed`` is sent when a finished ranked game's analysis is stored, inside that transaction, with
``game`` and ``analysis`` (an ``engine.solver.analysis.Analysis``): fair play reads the player's accuracy.
"""

from django.dispatch import Signal

game_finished = Signal()
game_moved = Signal()
game_analysed = Signal()
