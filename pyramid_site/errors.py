"""Every error the service answers with: one ``Code`` per refusal, and the one registry of what each means.

A service refuses with ``DomainError(Code.X, message, **fields)``: it names what went wrong and knows nothing of
HTTP. Each member of ``Code`` carries its HTTP status, its description and the extra fields its answers carry (a
``Field`` each); the API's exception handler (``pyramid_site.api.exceptions``) answers with that status, the
OpenAPI schema describes each code's body from here (one component per code, ``pyramid_site.api.schema``), and the
table of error codes in docs/api.md is written from here (``tools/error_codes``).

Clients branch on the codes, so a code never changes once published.
"""

from __future__ import annotations

import dataclasses
import enum

from django.http import JsonResponse


@dataclasses.dataclass(frozen=True)
class Field:
    """An extra field of a code's answers, beside ``code`` and ``message``: its JSON type (``format`` and
    ``nullable`` refine it), what it says, and whether every answer of the code carries it (``required``: the
    schema makes it required, so a generated client reads it without a check)."""

    type: str
    description: str
    required: bool = True
    nullable: bool = False
    format: str | None = None


# the fields several codes share
_GAME = Field("integer", "the game in the way", nullable=True)
_CLOSED = Field(
    "string", "`closed` when the game asked about was closed as it stood (absent when no game was)", required=False
)


class Code(str, enum.Enum):  # noqa: UP042 (each member is made by __new__ from code, status and description)
    """One member per error code: ``Code.X.value`` is the code clients see, ``status`` its HTTP status,
    ``description`` what it means (the docs' table and the schema say this) and ``fields`` the extra fields its
    answers carry, by name (the schema's component of the code declares them)."""

    status: int
    description: str
    fields: dict[str, Field]

    def __new__(cls, code: str, status: int, description: str, fields: dict[str, Field] | None = None):
        member = str.__new__(cls, code)
        member._value_ = code
        member.status = status
        member.description = description
        member.fields = fields or {}
        return member

    def __str__(self) -> str:
        return self.value

    @classmethod
    def of(cls, code: Code | str) -> Code:
        """The member of a code, ``ValueError`` for one the registry does not know."""
        return cls(code)  # type: ignore[call-arg]  # a look-up by value, not the members' three-part __new__

    # the request itself
    INVALID = (
        "invalid",
        400,
        "a field is missing or wrong (`fields` says which)",
        {
            "fields": Field(
                "object",
                "what is wrong, by field name (`non_field_errors` for the body as a whole); each "
                "a list of messages, or the same shape for a nested object",
            )
        },
    )
    MALFORMED_BODY = ("malformed_body", 400, "the body is not a JSON object, not JSON at all, or nested too deep")
    BAD_REQUEST = (
        "bad_request",
        400,
        "the request could not be read (a bad Host header, or a NUL byte in the address, say)",
    )
    BAD_PARAMETER = (
        "bad_parameter",
        400,
        "a parameter such as `limit`, `offset` or `preset` is out of range, or a `cursor` this list did not give",
    )
    BAD_IDEMPOTENCY_KEY = (
        "bad_idempotency_key",
        400,
        "an `Idempotency-Key` header that is empty, over 255 characters or not printable ASCII",
    )
    BAD_DATE = ("bad_date", 400, "a date that is not YYYY-MM-DD, or out of range (0001-02-01 to 9998-12-31)")
    BAD_NOTATION = ("bad_notation", 400, "a move not written in the notation of docs/rules.md")
    BAD_RULES = ("bad_rules", 400, "a rule set that does not parse, or an option out of its bounds")
    BAD_DEAL_NUMBER = ("bad_deal_number", 400, "a deal number outside 0 to 2**64 - 1")
    BAD_CLUB_NAME = ("bad_club_name", 400, "an empty club name, or one with control or invisible characters")
    BAD_TOURNAMENT_NAME = (
        "bad_tournament_name",
        400,
        "an empty tournament name, or one with control or invisible characters",
    )
    BAD_WINDOW = (
        "bad_window",
        400,
        "a tournament window that ends before it starts, lasts over a year or has no time zone",
    )
    BAD_FORMAT = ("bad_format", 400, "a tournament format other than match, arena or race")
    BAD_SCORING = ("bad_scoring", 400, "a scoring other than plain or par, or par scoring for an arena")
    BAD_SOURCE = ("bad_source", 400, "a tournament source other than secret or daily")
    BAD_DEAL_COUNT = ("bad_deal_count", 400, "a tournament of fewer than 1 or more than 100 deals")
    BAD_INDEX = ("bad_index", 400, "a deal index given for an arena, whose deals come in order")
    BAD_ROLE = ("bad_role", 400, "a club role other than owner, admin or member")
    NO_DAILY_DEAL = ("no_daily_deal", 400, "a tournament on the daily deal of a day that has none")
    REASON_REQUIRED = ("reason_required", 400, "a void or its lifting without a reason")
    NOTE_REQUIRED = ("note_required", 400, "a flag review without a note")
    REMOVE_SELF = ("remove_self", 400, "a manager removing themselves (leave instead)")
    OWNER_ROLE_CHANGE = ("owner_role_change", 400, "the owner changing their own role (hand the club over instead)")
    # who is asking
    NOT_AUTHENTICATED = ("not_authenticated", 401, "no credentials: log in, or send `Authorization: Bearer KEY`")
    AUTHENTICATION_FAILED = ("authentication_failed", 401, "the token is unknown or revoked")
    BAD_CREDENTIALS = ("bad_credentials", 401, "the username or password is wrong")
    FORBIDDEN = ("forbidden", 403, "not allowed (staff only, say), or a session write without its CSRF token")
    CSRF_FAILED = ("csrf_failed", 403, "a session write whose CSRF check failed")
    RANKED_NO_UNDO = ("ranked_no_undo", 403, "undo is for practice games only")
    RANKED_NO_HINT = ("ranked_no_hint", 403, "hints are for practice games only")
    RANKED_NO_VERDICT = (
        "ranked_no_verdict",
        403,
        "whether a position can still be won is shown in practice games only",
    )
    NOT_MEMBER = ("not_member", 403, "only the club's members may do this")
    NOT_CLUB_MANAGER = ("not_club_manager", 403, "only the club's owner (and admins) may do this")
    RANK_TOO_LOW = ("rank_too_low", 403, "an admin cannot remove the owner or another admin")
    GUEST_NOT_ALLOWED = (
        "guest_not_allowed",
        403,
        "a guest account cannot do this (create a club or a tournament): sign up first, which keeps its games",
    )
    # what it names
    NOT_FOUND = ("not_found", 404, "nothing at this address")
    GAME_NOT_FOUND = ("game_not_found", 404, "no game of this id that you may see")
    DEAL_NOT_FOUND = (
        "deal_not_found",
        404,
        "no practice deal of this number (a daily or tournament deal stays secret)",
    )
    DAILY_NOT_FOUND = ("daily_not_found", 404, "no daily deal of this id, or of this day and preset")
    PLAYER_NOT_FOUND = ("player_not_found", 404, "no player of this name or id")
    CLUB_NOT_FOUND = ("club_not_found", 404, "no club of this id that you can see")
    MEMBER_NOT_FOUND = ("member_not_found", 404, "this user is not a member of the club")
    TOURNAMENT_NOT_FOUND = ("tournament_not_found", 404, "no tournament of this id that you can see")
    VOID_NOT_FOUND = ("void_not_found", 404, "no void of this id")
    FLAG_NOT_FOUND = ("flag_not_found", 404, "no flag of this id")
    TASK_FAILURE_NOT_FOUND = (
        "task_failure_not_found",
        404,
        "no recorded task failure of this id (they are kept a limited time)",
    )
    BAD_INVITE_CODE = ("bad_invite_code", 404, "no club has this invite code (it may have been renewed)")
    METHOD_NOT_ALLOWED = ("method_not_allowed", 405, "this address does not take this method")
    NOT_ACCEPTABLE = ("not_acceptable", 406, "the answer cannot be given in the media type asked for")
    # the state of things
    CONFLICT = ("conflict", 409, "the request conflicts with the state of things")
    WRONG_PLY = (
        "wrong_ply",
        409,
        "the move is not the next one (`expected_ply` says which is)",
        {"expected_ply": Field("integer", "the ply the game expects next")},
    )
    GAME_OVER = (
        "game_over",
        409,
        "the game is over (`status` says how it ended)",
        {"status": Field("string", "how the game ended: its status")},
    )
    ALREADY_PLAYED = (
        "already_played",
        409,
        "you have played this deal already (`game` is your game; null when every deal of a tournament is played)",
        {"game": _GAME},
    )
    DAILY_OVER = (
        "daily_over",
        409,
        "the daily deal's day is over (its game was closed as it stood)",
        {"status": _CLOSED},
    )
    TOURNAMENT_OVER = (
        "tournament_over",
        409,
        "the tournament is over (its game was closed as it stood)",
        {"status": _CLOSED},
    )
    TOURNAMENT_STARTED = (
        "tournament_started",
        409,
        "the tournament has started: its start is fixed and its end only moves later",
    )
    DAILY_WINDOW_FIXED = ("daily_window_fixed", 409, "a tournament on the daily deal keeps its day")
    NOT_STARTED = ("not_started", 409, "the tournament has not started yet")
    RACE_STARTED = ("race_started", 409, "the race has started: its entrants were set at its start")
    NOT_READY = ("not_ready", 409, "the tournament's deals are still being prepared")
    NOT_JOINED = ("not_joined", 409, "join the tournament first")
    GAME_IN_PROGRESS = (
        "game_in_progress",
        409,
        "finish your current arena game first (`game` is that game)",
        {"game": Field("integer", "the arena game being played")},
    )
    NO_DEAL_READY = (
        "no_deal_ready",
        409,
        "no practice deal of the asked difficulty is proved yet: ask again in a minute",
    )
    NOT_YET = (
        "not_yet",
        409,
        "a game's analysis is not open yet: the game is being played, or its day or "
        "tournament is not over (`opens_at` says when)",
        {
            "opens_at": Field(
                "string", "when the analysis opens (null: when the game ends)", nullable=True, format="date-time"
            )
        },
    )
    NOTHING_TO_UNDO = ("nothing_to_undo", 409, "the game has no move to take back")
    NOT_SHAREABLE = ("not_shareable", 409, "only a finished daily game has a share line")
    NOT_RANKED = ("not_ranked", 409, "a practice game is on no board: there is nothing to void")
    USERNAME_TAKEN = ("username_taken", 409, "the username is taken (whatever its case)")
    ALREADY_LOGGED_IN = ("already_logged_in", 409, "you are logged in already: a guest account is for visitors")
    ALREADY_SIGNED_UP = (
        "already_signed_up",
        409,
        "the guest account has signed up already: log in with its username and password",
    )
    SIGN_UP_FIRST = (
        "sign_up_first",
        409,
        "a guest account's token is its only key: it cannot be revoked until the guest signs up",
    )
    CLUB_NAME_TAKEN = ("club_name_taken", 409, "the club name is taken (whatever its case)")
    ALREADY_MEMBER = ("already_member", 409, "you are a member of this club already")
    ALREADY_JOINED = ("already_joined", 409, "you have joined this tournament already")
    OWNER_MUST_HAND_OVER = ("owner_must_hand_over", 409, "the owner hands the club over before leaving")
    CLUB_ARCHIVED = (
        "club_archived",
        409,
        "the club is archived: it keeps its tournaments' standings and takes no members, tournaments or changes",
    )
    ALREADY_VOID = ("already_void", 409, "the game or player is void already")
    ALREADY_LIFTED = ("already_lifted", 409, "the void was lifted already")
    ALREADY_REVIEWED = ("already_reviewed", 409, "the flag was reviewed already")
    IDEMPOTENCY_KEY_IN_FLIGHT = (
        "idempotency_key_in_flight",
        409,
        "a request with this `Idempotency-Key` is "
        "still being answered: send it again after "
        "`retry_after_seconds` (also `Retry-After`)",
        {"retry_after_seconds": Field("integer", "wait this long (also the `Retry-After` header)")},
    )
    BODY_TOO_LARGE = ("body_too_large", 413, "the body is over the limit")
    UNSUPPORTED_MEDIA_TYPE = ("unsupported_media_type", 415, "the body is not JSON")
    ILLEGAL_MOVE = (
        "illegal_move",
        422,
        "the move breaks the rules (the message gives the engine's reason)",
        {"move": Field("string", "the move refused, as sent")},
    )
    IDEMPOTENCY_KEY_REUSED = (
        "idempotency_key_reused",
        422,
        "this `Idempotency-Key` came before with another "
        "request (method, address or body): a new request "
        "takes a new key",
    )
    THROTTLED = (
        "throttled",
        429,
        "too many requests: wait `retry_after_seconds`",
        {"retry_after_seconds": Field("integer", "wait this long (also the `Retry-After` header)")},
    )
    TOO_MANY_STREAMS = (
        "too_many_streams",
        429,
        "too many live streams open at once for the account or the address: close one first",
    )
    SERVER_ERROR = (
        "server_error",
        500,
        "something went wrong on our side (`request_id` finds it in the log)",
        {"request_id": Field("string", "the id the log has it under (also the `X-Request-ID` header)")},
    )
    DATABASE_UNAVAILABLE = (
        "database_unavailable",
        503,
        "the database is not answering: send the same request again (`Retry-After`)",
    )
    LIVE_UNAVAILABLE = (
        "live_unavailable",
        503,
        "live streams are not served by this server (only its ASGI process serves them): poll the resource instead",
    )


# the codes alone, in the registry's order (the schema's enum of them)
CODE_NAMES = [code.value for code in Code]


class DomainError(Exception):
    """A refusal: its ``code`` (a ``Code``), a ``message`` for people, and the extra ``fields`` some codes carry
    (``expected_ply``, ``game``, ``retry_after_seconds`` ...), answered as ``{"code", "message", **fields}``.

    A code that is not in the registry is refused here, when the error is made."""

    def __init__(self, code: Code | str, message: str, /, **fields):
        super().__init__(message)
        self.code = Code.of(code)  # ValueError for a code the registry does not know
        self.message = message
        self.fields = fields

    @property
    def status(self) -> int:
        return self.code.status

    def __repr__(self) -> str:
        return f"DomainError({self.code.value!r}, {self.message!r})"

    def __reduce__(self):  # pickled as a plain DomainError (a task's failure crosses the broker so)
        return _domain_error, (self.code.value, self.message, self.fields)


def _domain_error(code: str, message: str, fields: dict) -> DomainError:
    return DomainError(code, message, **fields)


def error_body(code: Code | str, /, **fields) -> dict:
    """The body of an error answer: ``{"code": ..., **fields}``, the fields in the order given (``message``
    among them)."""
    return {"code": Code.of(code).value, **fields}


def error_json(code: Code | str, /, *, headers: dict | None = None, **fields) -> JsonResponse:
    """An error answered outside DRF (plain Django views and middleware), with the status of its code."""
    code = Code.of(code)
    return JsonResponse(error_body(code, **fields), status=code.status, headers=headers)


# The table of error codes in docs/api.md is written from the registry between these two lines
# (tools/error_codes writes it; tests/api/test_error_codes.py fails when the committed table differs).
DOCS_TABLE_BEGIN = "<!-- the error codes: written by tools/error_codes from pyramid_site/errors.py, not by hand -->"
DOCS_TABLE_END = "<!-- end of the error codes -->"


def _docs_fields(code: Code) -> str:
    return ", ".join(f"`{name}`" + ("" if field.required else " (optional)") for name, field in code.fields.items())


def docs_table() -> str:
    """The registry as the Markdown table of docs/api.md: code, status, what it means, the extra fields its answers
    carry, in the registry's order."""
    rows = [f"| `{code.value}` | {code.status} | {code.description} | {_docs_fields(code)} |" for code in Code]
    return "\n".join(["| code | status | what | fields |", "|---|---|---|---|", *rows])


def docs_with_table(text: str) -> str:
    """``text`` (docs/api.md) with the table between its markers written afresh from the registry."""
    head, begin, rest = text.partition(DOCS_TABLE_BEGIN)
    _, end, tail = rest.partition(DOCS_TABLE_END)
    if not begin or not end:
        raise ValueError(f"the markers {DOCS_TABLE_BEGIN!r} and {DOCS_TABLE_END!r} are missing")
    return f"{head}{DOCS_TABLE_BEGIN}\n{docs_table()}\n{DOCS_TABLE_END}{tail}"
