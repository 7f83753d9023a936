"""The app's models, each kept in its room: results and boards (``boards``), clubs, tournaments and fair play.
Django reads an app's models from this module, so it gathers them; code imports each from its own room."""

from .boards.models import BoardCount, PeriodCount, PeriodStanding, Result
from .clubs.models import Club, ClubChange, Membership
from .fair_play.models import Flag, RecheckChunk, Void
from .tournaments.models import Entry, Tournament, TournamentAnnouncement, TournamentDeal, WindowChange

__all__ = [
    "BoardCount",
    "Club",
    "ClubChange",
    "Entry",
    "Flag",
    "Membership",
    "PeriodCount",
    "PeriodStanding",
    "RecheckChunk",
    "Result",
    "Tournament",
    "TournamentAnnouncement",
    "TournamentDeal",
    "Void",
    "WindowChange",
]
