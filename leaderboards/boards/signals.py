"""What the boards announce while they write a result, so that the rooms above them follow it without the boards
knowing of them. Both are sent in the result's transaction; their receivers are connected by the app's ready()."""

from django.dispatch import Signal

# asked before a ranked game's result is written (``game``): a receiver that answers True holds the result off
# every board (``Result.voided``); fair play answers for its voids and open flags
result_held = Signal()

# sent once a result's row and the weekly and all-time standings are written, before the board's bucket count
# moves (``result``): the tournaments' standings follow it there
result_written = Signal()
