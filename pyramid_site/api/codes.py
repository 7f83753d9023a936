"""Every ``code`` an error answer of the API can carry, with its HTTP status and what it means.

Clients branch on these codes, so they never change once published; the table of error codes in docs/api.md
lists exactly these (a test compares them, and another finds every code the code base answers with).
"""

from __future__ import annotations

ERROR_CODES: dict[str, tuple[int, str]] = {
    # the request itself
    "invalid": (400, "a field is missing or wrong (`fields` says which)"),
    "malformed_body": (400, "the body is not a JSON object, not JSON at all, or nested too deep"),
    "bad_request": (400, "the request could not be read (a bad Host header, or a NUL byte in the address, say)"),
    "bad_parameter": (400, "a query parameter such as `limit` or `offset` is out of range"),
    "bad_date": (400, "a date that is not YYYY-MM-DD, or out of range (0001-02-01 to 9998-12-31)"),
    "bad_notation": (400, "a move not written in the notation of docs/rules.md"),
    "bad_rules": (400, "a rule set that does not parse, or an option out of its bounds"),
    "bad_deal_number": (400, "a deal number outside 0 to 2**64 - 1"),
    "bad_club_name": (400, "an empty club name, or one with control or invisible characters"),
    "bad_tournament_name": (400, "an empty tournament name, or one with control or invisible characters"),
    "bad_window": (400, "a tournament window that ends before it starts, lasts over a year or has no time zone"),
    "bad_format": (400, "a tournament format other than match or arena"),
    "bad_scoring": (400, "a scoring other than plain or par, or par scoring for an arena"),
    "bad_source": (400, "a tournament source other than secret or daily"),
    "bad_deal_count": (400, "a tournament of fewer than 1 or more than 100 deals"),
    "bad_index": (400, "a deal index given for an arena, whose deals come in order"),
    "bad_role": (400, "a club role other than owner, admin or member"),
    "no_daily_deal": (400, "a tournament on the daily deal of a day that has none"),
    "reason_required": (400, "a void or its lifting without a reason"),
    "note_required": (400, "a flag review without a note"),
    "remove_self": (400, "a manager removing themselves (leave instead)"),
    "owner_role_change": (400, "the owner changing their own role (hand the club over instead)"),
    # who is asking
    "not_authenticated": (401, "no credentials: log in, or send `Authorization: Bearer KEY`"),
    "authentication_failed": (401, "the token is unknown or revoked"),
    "bad_credentials": (401, "the username or password is wrong"),
    "forbidden": (403, "not allowed (staff only, say), or a session write without its CSRF token"),
    "csrf_failed": (403, "a session write whose CSRF check failed"),
    "ranked_no_undo": (403, "undo is for practice games only"),
    "ranked_no_hint": (403, "hints are for practice games only"),
    "ranked_no_verdict": (403, "whether a position can still be won is shown in practice games only"),
    "not_member": (403, "only the club's members may do this"),
    "not_club_manager": (403, "only the club's owner (and admins) may do this"),
    "rank_too_low": (403, "an admin cannot remove the owner or another admin"),
    "guest_not_allowed": (403, "a guest account cannot do this (create a club or a tournament): sign up first, "
                               "which keeps its games"),
    # what it names
    "not_found": (404, "nothing at this address"),
    "game_not_found": (404, "no game of this id that you may see"),
    "deal_not_found": (404, "no practice deal of this number (a daily or tournament deal stays secret)"),
    "daily_not_found": (404, "no daily deal of this id, or of this day and preset"),
    "player_not_found": (404, "no player of this name or id"),
    "club_not_found": (404, "no club of this id that you can see"),
    "member_not_found": (404, "this user is not a member of the club"),
    "tournament_not_found": (404, "no tournament of this id that you can see"),
    "void_not_found": (404, "no void of this id"),
    "flag_not_found": (404, "no flag of this id"),
    "task_failure_not_found": (404, "no recorded task failure of this id (they are kept a limited time)"),
    "bad_invite_code": (404, "no club has this invite code (it may have been renewed)"),
    "method_not_allowed": (405, "this address does not take this method"),
    "not_acceptable": (406, "the answer cannot be given in the media type asked for"),
    # the state of things
    "conflict": (409, "the request conflicts with the state of things"),
    "wrong_ply": (409, "the move is not the next one (`expected_ply` says which is)"),
    "game_over": (409, "the game is over"),
    "already_played": (409, "you have played this deal already (`game` is your game)"),
    "daily_over": (409, "the daily deal's day is over (its game was closed as it stood)"),
    "tournament_over": (409, "the tournament is over (its game was closed as it stood)"),
    "tournament_started": (409, "the tournament has started: its start is fixed and its end only moves later"),
    "daily_window_fixed": (409, "a tournament on the daily deal keeps its day"),
    "not_started": (409, "the tournament has not started yet"),
    "not_ready": (409, "the tournament's deals are still being prepared"),
    "not_joined": (409, "join the tournament first"),
    "game_in_progress": (409, "finish your current arena game first (`game` is that game)"),
    "no_deal_ready": (409, "no practice deal of the asked difficulty is proved yet: ask again in a minute"),
    "not_yet": (409, "a game's analysis is not open yet: the game is being played, or its day or tournament is not "
                "over (`opens_at` says when)"),
    "nothing_to_undo": (409, "the game has no move to take back"),
    "not_shareable": (409, "only a finished daily game has a share line"),
    "not_ranked": (409, "a practice game is on no board: there is nothing to void"),
    "username_taken": (409, "the username is taken (whatever its case)"),
    "already_logged_in": (409, "you are logged in already: a guest account is for visitors"),
    "already_signed_up": (409, "the guest account has signed up already: log in with its username and password"),
    "sign_up_first": (409, "a guest account's token is its only key: it cannot be revoked until the guest signs up"),
    "club_name_taken": (409, "the club name is taken (whatever its case)"),
    "already_member": (409, "you are a member of this club already"),
    "already_joined": (409, "you have joined this tournament already"),
    "owner_must_hand_over": (409, "the owner hands the club over before leaving"),
    "club_archived": (409, "the club is archived: it keeps its tournaments' standings and takes no members, "
                      "tournaments or changes"),
    "already_void": (409, "the game or player is void already"),
    "already_lifted": (409, "the void was lifted already"),
    "already_reviewed": (409, "the flag was reviewed already"),
    "body_too_large": (413, "the body is over the limit"),
    "unsupported_media_type": (415, "the body is not JSON"),
    "illegal_move": (422, "the move breaks the rules (the message gives the engine's reason)"),
    "throttled": (429, "too many requests: wait `retry_after_seconds`"),
    "server_error": (500, "something went wrong on our side (`request_id` finds it in the log)"),
    "database_unavailable": (503, "the database is not answering: send the same request again (`Retry-After`)"),
}

# the codes alone, in the order above (the schema's enum of them)
ERROR_CODE_NAMES = list(ERROR_CODES)
