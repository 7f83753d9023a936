"""What the game service announces to the apps above it, which it never imports.

``game_finished`` is sent when a ranked game ends (the move that ends it, or a resignation), inside
the transaction that stores it, with ``game`` and ``position`` (the final engine position, or None
when the receiver should load it from the game): a receiver's writes land with the game's, or
neither does.
"""

from django.dispatch import Signal

game_finished = Signal()
