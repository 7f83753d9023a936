"""Parts of the OpenAPI schema that every API module shares: the one ``Error`` component, the shared error
responses, the authentication scheme, and the post-processing hooks that put them on every operation.

Which errors an operation declares follows from the operation itself (``shape_operations``): the errors its
view names, plus 401 where it needs credentials, 403 where it is for staff, 400, 413 and 415 where it takes a
body, 400 where it takes query parameters, 429 where it is throttled, and 500 and 503 everywhere.
"""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers
from rest_framework.permissions import IsAdminUser

from pyramid_site.errors import CODE_NAMES, Code

from .output import PRESET_CHOICES


class ErrorOutput(serializers.Serializer):
    """Every error the API answers: a stable ``code`` to branch on, a ``message`` for people, and the extra
    fields some codes carry."""

    code = serializers.ChoiceField(choices=CODE_NAMES, help_text="stable: clients branch on it "
                                                                         "(docs/api.md, \"Errors\")")
    message = serializers.CharField(help_text="for people; may change")
    expected_ply = serializers.IntegerField(required=False, help_text="`wrong_ply`: the ply the game expects next")
    game = serializers.IntegerField(required=False, allow_null=True,
                                    help_text="`already_played`, `game_in_progress`: the game in the way")
    status = serializers.CharField(required=False, help_text="`game_over`: how the game ended")
    retry_after_seconds = serializers.IntegerField(required=False, help_text="`throttled`: wait this long")
    opens_at = serializers.DateTimeField(required=False, allow_null=True,
                                         help_text="`not_yet`: when the analysis opens (null: when the game ends)")
    request_id = serializers.CharField(required=False, help_text="`server_error`: the id the log has it under "
                                                                 "(also the `X-Request-ID` header)")

    class Meta:
        ref_name = "Error"

    def get_fields(self):
        # "fields" is a serializer's own attribute: this field is added here, not declared on the class
        fields = super().get_fields()
        fields["fields"] = serializers.DictField(
            required=False, help_text="`invalid`: what is wrong, by field name (`non_field_errors` for the body "
                                      "as a whole); each a list of messages, or the same shape for a nested object")
        return fields


# the response a view names for an error (replaced by a reference to the shared response of its status)
ERROR = OpenApiResponse(ErrorOutput, description="an error (see the Error component)")

# status -> (shared response, what it means); each lists the codes of its status from the registry
ERROR_RESPONSES = {
    400: ("BadRequest", "The request is wrong: a field, a parameter, a date, a deal number or the body itself."),
    401: ("Unauthorized", "No credentials, or a token that is unknown or revoked: send `Authorization: Bearer KEY` "
                          "(or `Token KEY`) with the token of sign-up or log-in."),
    403: ("Forbidden", "Not allowed to you (staff only, members only, practice only), or a session write without "
                       "its CSRF token."),
    404: ("NotFound", "Nothing of this id or name that you may see."),
    409: ("Conflict", "The request conflicts with the state of things (the game is over, a move is not the next "
                      "one, a name is taken ...)."),
    413: ("ContentTooLarge", "The body is over the limit (`PYRAMID_API_MAX_BODY_BYTES`, 64 KiB by default)."),
    415: ("UnsupportedMediaType", "The body is not JSON: send `Content-Type: application/json`."),
    422: ("UnprocessableContent", "The move breaks the rules (the message gives the engine's reason), or an "
                                  "`Idempotency-Key` came before with another request. Nothing changed."),
    429: ("TooManyRequests", "Too many requests: wait `retry_after_seconds` (also the `Retry-After` header)."),
    500: ("ServerError", "Something went wrong on our side; `request_id` finds it in the log."),
    503: ("ServiceUnavailable", "The database is not answering: send the same request again after `Retry-After` "
                                "seconds (every write is safe to send twice)."),
}
_HEADERS = {
    401: {"WWW-Authenticate": {"schema": {"type": "string"}, "description": "the scheme to authenticate with"}},
    429: {"Retry-After": {"schema": {"type": "integer"}, "description": "seconds to wait"}},
    503: {"Retry-After": {"schema": {"type": "integer"}, "description": "seconds to wait"}},
}


def error_response(status: int) -> dict:
    _name, what = ERROR_RESPONSES[status]
    codes = ", ".join(f"`{code.value}`" for code in Code if code.status == status)
    response = {"description": f"{what} Codes: {codes}.",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    if status in _HEADERS:
        response["headers"] = _HEADERS[status]
    return response


class BearerTokenScheme(OpenApiAuthenticationExtension):
    """The API token, as a generator understands it: HTTP bearer (``Token KEY`` is taken as well)."""

    target_class = "pyramid_site.api.authentication.CachedTokenAuthentication"
    name = "bearerAuth"
    priority = 1

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer",
                "description": "the token that sign-up and log-in answer: `Authorization: Bearer KEY` (the older "
                               "`Authorization: Token KEY` works too)"}


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
    ("/api/accounts/signup/", "post", "201"): ("username", "$response.body#/username",
                                               ["players_retrieve", "players_stats_retrieve",
                                                "players_calendar_retrieve"]),
    ("/api/accounts/guest/", "post", "201"): ("username", "$response.body#/username",
                                              ["players_retrieve", "players_stats_retrieve",
                                               "players_calendar_retrieve"]),
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


# The answers outside DRF (plain Django views of the project's URLs), described here so clients see them too.
PLAIN_COMPONENTS = {
    "ApiIndex": {
        "type": "object", "description": "Where a client starts: the schema and the first addresses it needs.",
        "properties": {name: {"type": "string", "description": f"the address of {what}"} for name, what in (
            ("schema", "this schema"), ("docs", "the schema's Swagger UI"), ("daily", "today's daily deals"),
            ("games", "my games (POST starts one)"), ("guest", "a guest account: play without signing up"),
            ("signup", "sign-up"), ("login", "log-in"), ("boards", "the all-time board"), ("clubs", "clubs"))},
        "required": ["schema", "docs", "daily", "games", "guest", "signup", "login", "boards", "clubs"],
    },
    "Health": {
        "type": "object", "description": "Whether the service can answer: `ok`, and the state of each part it "
                                         "needs (database, Redis, the solver) where it checks them.",
        "properties": {"ok": {"type": "boolean"},
                       "parts": {"type": "object", "additionalProperties": {"type": "string"},
                                 "description": "each part's state: `ok`, `not configured`, or `down: ...`"}},
        "required": ["ok"],
    },
}


def _plain_operation(operation_id: str, tag: str, summary: str, description: str, component: str,
                     *, down: bool = False) -> dict:
    body = {"content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{component}"}}}}
    responses = {"200": {"description": "", **body},
                 "500": {"$ref": f"#/components/responses/{ERROR_RESPONSES[500][0]}"}}
    if down:
        responses["503"] = {"description": "a part the service needs is down (the same body, `ok` false)", **body}
    return {"operationId": operation_id, "tags": [tag], "summary": summary, "description": description,
            "security": [], "responses": responses}


PLAIN_PATHS = {
    "/api/": {"get": _plain_operation(
        "api_index", "index", "Where to start", "The addresses a client starts from, this schema's among them.",
        "ApiIndex")},
    "/health/": {"get": _plain_operation(
        "health", "health", "Health of the service and its parts",
        "200 while the database (and Redis, where one is configured) answer, 503 otherwise; for load balancers.",
        "Health", down=True)},
    "/health/live/": {"get": _plain_operation(
        "health_live", "health", "The process answers", "Always `{\"ok\": true}` while the process runs.",
        "Health")},
}


# enums of parameters, as components (so a client has one type of each, not one per operation)
PARAMETER_ENUMS = {"DailyPresetEnum": {"type": "string", "enum": PRESET_CHOICES[:-1],
                                       "description": "a preset that daily deals may be dealt under"}}


def _parameter_enums(operation: dict, used: set[str]) -> None:
    for parameter in operation.get("parameters", []):
        values = parameter.get("schema", {}).get("enum")
        for name, component in PARAMETER_ENUMS.items():
            if values is not None and sorted(values) == sorted(component["enum"]):
                parameter["schema"] = {"$ref": f"#/components/schemas/{name}"}
                used.add(name)


def _views_by_operation(generator) -> dict[tuple[str, str], type]:
    return {(path, method.lower()): getattr(callback, "cls", None)
            for path, _, method, callback in (generator.endpoints or [])}


def _error_statuses(operation: dict, view, method: str = "") -> set[int]:
    statuses = {int(code) for code in operation["responses"] if code[0] in "45"}
    statuses |= {500, 503}
    # credentials needed, or taken if sent (an unknown token is a 401 even where none is needed)
    if operation.get("security") or (view is not None and getattr(view, "authentication_classes", None)):
        statuses.add(401)
    if "requestBody" in operation:
        statuses |= {400, 413, 415}
    if any(parameter.get("in") == "query" for parameter in operation.get("parameters", [])):
        statuses.add(400)
    if view is not None:
        # a view may count some of its methods only (a visitor's reads: `visitors.VisitorReadable`)
        if getattr(view, "throttle_classes", None) and method in getattr(view, "throttled_methods", {method}):
            statuses.add(429)
        if any(issubclass(permission, IsAdminUser) for permission in getattr(view, "permission_classes", [])):
            statuses.add(403)
    return statuses


NULL_ENUM = {"$ref": "#/components/schemas/NullEnum"}


def _inline_null(node, null_schema) -> None:
    """The ``NullEnum`` component drf-spectacular makes for a nullable choice, written where it is used:
    ``oneOf: [{$ref: XEnum}, {type: null}]``."""
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else []
    for key, value in list(children):
        if value == NULL_ENUM:
            node[key] = dict(null_schema)
        else:
            _inline_null(value, null_schema)


def shape_operations(result, generator, request, public):
    """drf-spectacular post-processing: every operation's errors as references to the shared responses,
    ``security: []`` on the operations that need no credentials, the plain Django answers (API index, health)
    described beside the API's, and the daily deals' two forms as alternatives."""
    views = _views_by_operation(generator)
    statuses_used, enums_used = set(), set()
    for path, item in result["paths"].items():
        for method, operation in item.items():
            _parameter_enums(operation, enums_used)
            if operation.get("security") is None or {} in operation["security"]:
                operation["security"] = []  # answers without credentials (some say more to a logged-in player)
            statuses = _error_statuses(operation, views.get((path, method)), method)
            unknown = statuses - set(ERROR_RESPONSES)
            assert not unknown, f"{method} {path}: no shared response for {sorted(unknown)}"
            responses = {code: answer for code, answer in operation["responses"].items() if code[0] not in "45"}
            for status in statuses:
                responses[str(status)] = {"$ref": f"#/components/responses/{ERROR_RESPONSES[status][0]}"}
            operation["responses"] = dict(sorted(responses.items()))
            statuses_used |= statuses
    result["paths"] = {**PLAIN_PATHS, **result["paths"]}
    components = result.setdefault("components", {})
    components.setdefault("schemas", {}).update(PLAIN_COMPONENTS)
    components["schemas"].update({name: PARAMETER_ENUMS[name] for name in sorted(enums_used)})
    components["responses"] = {ERROR_RESPONSES[status][0]: error_response(status)
                               for status in sorted(statuses_used)}
    null_schema = components["schemas"].pop("NullEnum", None)
    if null_schema is not None:
        _inline_null(result, null_schema)
    return result
