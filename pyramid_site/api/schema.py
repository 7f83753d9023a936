"""Parts of the OpenAPI schema that every API module shares."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse

ERROR = OpenApiResponse(OpenApiTypes.OBJECT, description='{"code": "...", "message": "..."}')

GAME_OPERATIONS = ["games_retrieve", "games_moves_create", "games_resign_create", "games_undo_create",
                   "games_hint_retrieve", "games_log_retrieve", "games_share_retrieve"]
CLUB_OPERATIONS = ["clubs_retrieve", "clubs_partial_update", "clubs_invite_create", "clubs_members_retrieve",
                   "clubs_tournaments_retrieve", "clubs_tournaments_create", "clubs_leave_create"]
TOURNAMENT_OPERATIONS = ["tournaments_retrieve", "tournaments_partial_update", "tournaments_join_create",
                         "tournaments_games_create", "tournaments_standings_retrieve", "tournaments_destroy"]
# (path, method, status) of an answer -> the path parameter its body fills in, and the operations that take it
LINKS = {
    ("/api/games/", "post", "201"): ("game_id", "$response.body#/id", GAME_OPERATIONS),
    ("/api/games/{game_id}/moves/", "post", "201"): ("game_id", "$response.body#/id", GAME_OPERATIONS),
    ("/api/tournaments/{tournament_id}/games/", "post", "201"): ("game_id", "$response.body#/id", GAME_OPERATIONS),
    ("/api/clubs/", "post", "201"): ("club_id", "$response.body#/id", CLUB_OPERATIONS),
    ("/api/clubs/join/", "post", "201"): ("club_id", "$response.body#/id", CLUB_OPERATIONS),
    ("/api/clubs/{club_id}/tournaments/", "post", "201"): ("tournament_id", "$response.body#/id",
                                                          TOURNAMENT_OPERATIONS),
    ("/api/accounts/signup/", "post", "201"): ("username", "$response.body#/username", ["players_retrieve"]),
}


def add_links(result, generator, request, public):
    """drf-spectacular post-processing: OpenAPI links from what an answer makes to what takes it next (a new
    game's id to its moves, log and hint), so clients and stateful tests can follow them."""
    for (path, method, status), (parameter, value, operations) in LINKS.items():
        response = result["paths"].get(path, {}).get(method, {}).get("responses", {}).get(status)
        if response is None:
            continue
        response["links"] = {operation: {"operationId": operation, "parameters": {parameter: value}}
                             for operation in operations}
    return result
