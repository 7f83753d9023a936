"""Parts of the OpenAPI schema that every API module shares: links, the plain Django
answers, and the post-processing hooks that put the errors and headers of ``error_schema`` on every operation.

Which errors an operation declares (``shape_operations``): the codes its view names (``errors()``), plus those
that follow from the operation itself (``error_schema.generic_codes``), each status's body the union of its codes.
"""

from __future__ import annotations

from pyramid_site.errors import Code

from .error_schema import (
    ERROR,  # noqa: F401 (where views named every code of a status; LEGACY_OPERATIONS finds them)
    HEADERS,
    error_components,
    error_responses,
    generic_codes,
    named_codes,
    response_headers,
)
from .output import PRESET_CHOICES

# operations whose view still names its errors with the older ``ERROR`` (tests/api/test_errors_and_schema.py)
LEGACY_OPERATIONS: set[str] = set()


GAME_OPERATIONS = [
    "games_retrieve",
    "games_moves_create",
    "games_resign_create",
    "games_undo_create",
    "games_hint_retrieve",
    "games_log_retrieve",
    "games_share_retrieve",
]
CLUB_OPERATIONS = [
    "clubs_retrieve",
    "clubs_partial_update",
    "clubs_invite_create",
    "clubs_members_retrieve",
    "clubs_tournaments_retrieve",
    "clubs_tournaments_create",
    "clubs_leave_create",
]
TOURNAMENT_OPERATIONS = [
    "tournaments_retrieve",
    "tournaments_partial_update",
    "tournaments_join_create",
    "tournaments_games_create",
    "tournaments_standings_retrieve",
    "tournaments_destroy",
]
# (path, method, status) of an answer -> the path parameter its body fills in, and the operations that take it
LINKS = {
    ("/api/games/", "post", "201"): ("game_id", "$response.body#/id", GAME_OPERATIONS),
    ("/api/games/{game_id}/moves/", "post", "201"): ("game_id", "$response.body#/id", GAME_OPERATIONS),
    ("/api/tournaments/{tournament_id}/games/", "post", "201"): ("game_id", "$response.body#/id", GAME_OPERATIONS),
    ("/api/clubs/", "post", "201"): ("club_id", "$response.body#/id", CLUB_OPERATIONS),
    ("/api/clubs/join/", "post", "201"): ("club_id", "$response.body#/id", CLUB_OPERATIONS),
    ("/api/clubs/{club_id}/tournaments/", "post", "201"): (
        "tournament_id",
        "$response.body#/id",
        TOURNAMENT_OPERATIONS,
    ),
    ("/api/accounts/signup/", "post", "201"): (
        "username",
        "$response.body#/username",
        ["players_retrieve", "players_stats_retrieve", "players_calendar_retrieve"],
    ),
    ("/api/accounts/guest/", "post", "201"): (
        "username",
        "$response.body#/username",
        ["players_retrieve", "players_stats_retrieve", "players_calendar_retrieve"],
    ),
}


def add_links(result, generator, request, public):
    """drf-spectacular post-processing: OpenAPI links from what an answer makes to what takes it next (a new
    game's id to its moves, log and hint), so clients and stateful tests can follow them."""
    for (path, method, status), (parameter, value, operations) in LINKS.items():
        response = result["paths"].get(path, {}).get(method, {}).get("responses", {}).get(status)
        if response is None:
            continue
        response["links"] = {
            operation: {"operationId": operation, "parameters": {parameter: value}} for operation in operations
        }
    return result


# The answers outside DRF (plain Django views of the project's URLs), described here so clients see them too.
PLAIN_COMPONENTS = {
    "ApiIndex": {
        "type": "object",
        "description": "Where a client starts: the schema and the first addresses it needs.",
        "properties": {
            name: {"type": "string", "description": f"the address of {what}"}
            for name, what in (
                ("schema", "this schema"),
                ("docs", "the schema's Swagger UI"),
                ("daily", "today's daily deals"),
                ("games", "my games (POST starts one)"),
                ("guest", "a guest account: play without signing up"),
                ("signup", "sign-up"),
                ("login", "log-in"),
                ("boards", "the all-time board"),
                ("clubs", "clubs"),
            )
        },
        "required": ["schema", "docs", "daily", "games", "guest", "signup", "login", "boards", "clubs"],
    },
    "Health": {
        "type": "object",
        "description": "Whether the service can answer: `ok`, and the state of each part it "
        "needs (database, Redis, the solver) where it checks them.",
        "properties": {
            "ok": {"type": "boolean"},
            "parts": {
                "type": "object",
                "additionalProperties": {"type": "string"},
                "description": "each part's state: `ok`, `not configured`, or `down: ...`",
            },
        },
        "required": ["ok"],
    },
}


def _plain_operation(
    operation_id: str,
    tag: str,
    summary: str,
    description: str,
    component: str,
    *,
    down: bool = False,
    probe: bool = False,
) -> dict:
    """A plain Django answer's operation; ``probe``: a health probe, answered before the request's language is read
    (``pyramid_site.health.HealthProbeMiddleware``)."""
    body = {"content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{component}"}}}}
    responses = {"200": {"description": "", **body}}
    if down:
        responses["503"] = {"description": "a part the service needs is down (the same body, `ok` false)", **body}
    for status, response in responses.items():
        response_headers(response, int(status), error=False, words=not probe)
    responses.update(error_responses({Code.SERVER_ERROR}, words=not probe))
    return {
        "operationId": operation_id,
        "tags": [tag],
        "summary": summary,
        "description": description,
        "security": [],
        "responses": responses,
    }


PLAIN_PATHS = {
    "/api/": {
        "get": _plain_operation(
            "api_index",
            "index",
            "Where to start",
            "The addresses a client starts from, this schema's among them.",
            "ApiIndex",
        )
    },
    "/health/": {
        "get": _plain_operation(
            "health",
            "health",
            "Health of the service and its parts",
            "200 while the database (and Redis, where one is configured) answer, 503 otherwise; for load balancers.",
            "Health",
            down=True,
            probe=True,
        )
    },
    "/health/live/": {
        "get": _plain_operation(
            "health_live",
            "health",
            "The process answers",
            'Always `{"ok": true}` while the process runs.',
            "Health",
            probe=True,
        )
    },
}


# enums of parameters, as components (so a client has one type of each, not one per operation)
PARAMETER_ENUMS = {
    "DailyPresetEnum": {
        "type": "string",
        "enum": PRESET_CHOICES[:-1],
        "description": "a preset that daily deals may be dealt under",
    }
}


def _parameter_enums(operation: dict, used: set[str]) -> None:
    for parameter in operation.get("parameters", []):
        values = parameter.get("schema", {}).get("enum")
        for name, component in PARAMETER_ENUMS.items():
            if values is not None and sorted(values) == sorted(component["enum"]):
                parameter["schema"] = {"$ref": f"#/components/schemas/{name}"}
                used.add(name)


def _views_by_operation(generator) -> dict[tuple[str, str], type]:
    return {
        (path, method.lower()): getattr(callback, "cls", None)
        for path, _, method, callback in (generator.endpoints or [])
    }


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
    """drf-spectacular post-processing: every operation's errors (the codes it can answer, per status, each
    status's body their union) and every answer's headers, ``security: []`` on the operations that need no
    credentials, and the plain Django answers (API index, health) described beside the API's."""
    views = _views_by_operation(generator)
    enums_used = set()
    for path, item in result["paths"].items():
        for method, operation in item.items():
            _parameter_enums(operation, enums_used)
            if operation.get("security") is None or {} in operation["security"]:
                operation["security"] = []  # answers without credentials (some say more to a logged-in player)
            named, legacy = named_codes(operation)
            if legacy:
                LEGACY_OPERATIONS.add(operation["operationId"])
            codes = named | generic_codes(operation, views.get((path, method)), method)
            responses = {status: answer for status, answer in operation["responses"].items() if status[0] not in "45"}
            for status, answer in responses.items():
                response_headers(answer, int(status), error=False)
            operation["responses"] = dict(sorted({**responses, **error_responses(codes)}.items()))
    result["paths"] = {**PLAIN_PATHS, **result["paths"]}
    components = result.setdefault("components", {})
    components.setdefault("schemas", {}).update(PLAIN_COMPONENTS)
    components["schemas"].update({name: PARAMETER_ENUMS[name] for name in sorted(enums_used)})
    components["schemas"].update(error_components())
    components["schemas"] = dict(sorted(components["schemas"].items()))
    components.setdefault("headers", {}).update(HEADERS)
    components.pop("responses", None)
    null_schema = components["schemas"].pop("NullEnum", None)
    if null_schema is not None:
        _inline_null(result, null_schema)
    return result
