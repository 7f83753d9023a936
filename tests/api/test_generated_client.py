"""The contract as a client developer meets it: a Python client generated from the live schema with
openapi-python-client (``manage.py spectacular`` to a file, then the generator), every module of it imported and
type-checked with ``mypy --strict``, and a whole practice game, a ranked daily game and the daily board played and
read through its typed models alone (no raw HTTP, no dict lookups), the service answering through the WSGI
application in-process; and a tournament's live stream followed on a real uvicorn process, each event parsed into
its generated model."""

from __future__ import annotations

import datetime as dt
import importlib
import json
import os
import pkgutil
import queue
import subprocess
import sys
import threading

import httpx
import pytest
import time_machine
from django.core.handlers.wsgi import WSGIHandler
from django.core.management import call_command
from django.core.signals import request_finished, request_started
from django.db import close_old_connections

from tests.support import PAR, WINNING_LINE, make_daily

pytest.importorskip("openapi_python_client", reason="openapi-python-client is a test dependency ([test] extras)")

PACKAGE = "pyramid_client"
CONFIG = f"""project_name_override: pyramid-client
package_name_override: {PACKAGE}
post_hooks: []
"""
# the generated package alone, type-checked as strictly as mypy can (no config of the project's applies)
MYPY_CONFIG = """[mypy]
strict = True
"""


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """The client package generated from the schema the service serves, importable for the module's tests."""
    folder = tmp_path_factory.mktemp("client")
    schema, config = folder / "schema.json", folder / "config.yaml"
    call_command("spectacular", "--file", str(schema), "--format", "openapi-json", "--validate", "--fail-on-warn")
    config.write_text(CONFIG)
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "openapi_python_client",
            "generate",
            "--path",
            str(schema),
            "--output-path",
            str(folder / PACKAGE),
            "--meta",
            "none",
            "--config",
            str(config),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    # the generator says so when it leaves a part of the schema out: nothing may be left out
    assert "Warning" not in run.stdout + run.stderr, run.stdout + run.stderr
    sys.path.insert(0, str(folder))
    yield folder / PACKAGE
    sys.path.remove(str(folder))
    for name in [name for name in sys.modules if name == PACKAGE or name.startswith(f"{PACKAGE}.")]:
        del sys.modules[name]


@pytest.fixture
def wsgi_app(db):
    """The service as a WSGI application built with the test's settings; the test's database connection
    stays open across its requests (as Django's test client keeps it)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield WSGIHandler()
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def test_every_generated_module_imports(generated):
    package = importlib.import_module(PACKAGE)
    names = [module.name for module in pkgutil.walk_packages(package.__path__, f"{PACKAGE}.")]
    for name in names:
        importlib.import_module(name)
    endpoints = [name for name in names if name.startswith(f"{PACKAGE}.api.") and name.count(".") == 3]
    assert len(endpoints) >= 49  # one module per operation of the schema


def test_the_generated_client_passes_mypy_strict(generated):
    folder = generated.parent
    config = folder / "mypy.ini"
    config.write_text(MYPY_CONFIG)
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(config),
            "--cache-dir",
            str(folder / ".mypy_cache"),
            "--no-error-summary",
            PACKAGE,
        ],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_a_generated_client_plays_a_practice_game_and_a_daily_game(generated, wsgi_app):
    from pyramid_client import AuthenticatedClient, Client
    from pyramid_client.api.accounts import accounts_me_retrieve, accounts_signup_create
    from pyramid_client.api.boards import boards_daily_retrieve
    from pyramid_client.api.daily import daily_retrieve
    from pyramid_client.api.deals import deals_retrieve
    from pyramid_client.api.games import (
        games_create,
        games_hint_retrieve,
        games_log_retrieve,
        games_moves_create,
        games_retrieve,
        games_share_retrieve,
        games_undo_create,
    )
    from pyramid_client.api.index import api_index
    from pyramid_client.models import (
        ApiIndex,
        DailyBoard,
        DailyDeal,
        DailyPage,
        Deal,
        DealStatusEnum,
        ErrorGameOver,
        ErrorWrongPly,
        Game,
        GameModeEnum,
        GameStartInput,
        GameStatusEnum,
        Hint,
        MoveInput,
        MoveLog,
        MoveOutcome,
        ShareLine,
        SignupInput,
        User,
        UserWithToken,
    )

    make_daily()  # today's one-look daily deal: WINNABLE_ONE_LOOK, won by WINNING_LINE in PAR moves
    transport = {"transport": httpx.WSGITransport(app=wsgi_app)}
    anonymous = Client(base_url="http://testserver", httpx_args=transport, raise_on_unexpected_status=True)

    assert isinstance(api_index.sync(client=anonymous), ApiIndex)
    signed_up = accounts_signup_create.sync_detailed(
        client=anonymous, body=SignupInput(username="generated", password="a-long-pass-phrase")
    )
    assert signed_up.status_code == 201 and isinstance(signed_up.parsed, UserWithToken)
    # the generated client authenticates as generators do: Authorization: Bearer KEY
    api = AuthenticatedClient(
        base_url="http://testserver",
        token=signed_up.parsed.token,
        httpx_args=transport,
        raise_on_unexpected_status=True,
    )
    me = accounts_me_retrieve.sync(client=api)
    assert isinstance(me, User) and me.username == "generated"

    # a whole practice game, by a deal number given as decimal text, every move one the answer calls legal
    game = games_create.sync(client=api, body=GameStartInput(number="7", rules="one-look"))
    assert isinstance(game, Game) and game.mode == GameModeEnum.PRACTICE
    assert game.deal.number == 7 and game.deal.number_text == "7" and game.next_ply == 1
    hint = games_hint_retrieve.sync(game.id, client=api)
    assert isinstance(hint, Hint) and (hint.move is None or hint.move in game.position.legal_moves)
    first = games_moves_create.sync(game.id, client=api, body=MoveInput(ply=1, move=game.position.legal_moves[0]))
    assert isinstance(first, MoveOutcome) and first.applied and first.moves == 1
    game = games_undo_create.sync(game.id, client=api)
    assert isinstance(game, Game) and game.moves == 0 and game.undo_count == 1
    played = []
    while game.status == GameStatusEnum.PLAYING:
        assert len(played) < 500, "the game does not end"
        legal = game.position.legal_moves
        move = next((m for m in legal if m not in ("draw", "redeal")), legal[0])
        outcome = games_moves_create.sync(game.id, client=api, body=MoveInput(ply=game.next_ply, move=move))
        assert isinstance(outcome, MoveOutcome) and outcome.applied
        played.append(move)
        game = outcome
    assert game.status in (GameStatusEnum.WON, GameStatusEnum.STUCK) and game.finished_at is not None
    assert game.position.legal_moves == [] and game.score.moves == len(played)
    log = games_log_retrieve.sync(game.id, client=api)
    assert isinstance(log, MoveLog) and [move.notation for move in log.moves] == played
    again = games_retrieve.sync(game.id, client=api)
    assert isinstance(again, Game) and again.version == game.version and again.status == game.status

    # errors are typed too, each code its own model with its own fields: a move after the end is a 409
    # `game_over` saying how the game ended, and a move out of turn a 409 `wrong_ply` with the ply expected
    refused = games_moves_create.sync_detailed(game.id, client=api, body=MoveInput(ply=game.next_ply, move="draw"))
    assert refused.status_code == 409 and isinstance(refused.parsed, ErrorGameOver)
    assert refused.parsed.code == "game_over" and refused.parsed.status == game.status.value
    out_of_turn = games_moves_create.sync_detailed(game.id, client=api, body=MoveInput(ply=1, move="redeal"))
    assert out_of_turn.status_code == 409 and isinstance(out_of_turn.parsed, ErrorWrongPly)
    expected_ply: int = out_of_turn.parsed.expected_ply  # required: no Unset to rule out
    assert expected_ply == game.next_ply

    # a deal nobody has played or asked to be solved, by the largest number there is: exact as text and integer
    deal = deals_retrieve.sync(str(2**64 - 1), client=anonymous, rules="one-look")
    assert isinstance(deal, Deal) and deal.status == DealStatusEnum.UNSOLVED
    assert deal.number == 2**64 - 1 and deal.number_text == "18446744073709551615"
    # a number past 2**53, sent as text and answered as text
    big = games_create.sync(client=api, body=GameStartInput(number="13489691998171882937", rules="one-look"))
    assert isinstance(big, Game) and big.deal.number_text == "13489691998171882937"

    # today's daily deal, ranked, won in par; then its board and the share line
    page = daily_retrieve.sync(client=api)
    assert isinstance(page, DailyPage) and page.count == 1 and isinstance(page.results[0], DailyDeal)
    daily = page.results[0]
    assert daily.form == "deal" and daily.my_game is None and daily.par_moves == PAR
    game = games_create.sync(client=api, body=GameStartInput(daily=daily.id))
    assert isinstance(game, Game) and game.mode == GameModeEnum.RANKED and game.daily.id == daily.id
    assert game.deal.number is None and game.closes_at is not None  # secret until the day is over
    for move in WINNING_LINE:
        assert move in game.position.legal_moves
        game = games_moves_create.sync(game.id, client=api, body=MoveInput(ply=game.next_ply, move=move))
        assert isinstance(game, MoveOutcome) and game.applied
    assert game.status == GameStatusEnum.WON and game.moves == PAR and game.cards_left == 0
    # the daily deal's preset is the type the board's path takes: passed on as it is
    board = boards_daily_retrieve.sync(daily.date, daily.preset, client=api)
    assert isinstance(board, DailyBoard) and board.total == 1 and board.daily.par_moves == PAR
    assert board.me is not None and board.me.rank == 1 and board.me.won and board.me.par_text == "par"
    assert board.top[0].player.username == "generated" and board.top[0].game == game.id
    share = games_share_retrieve.sync(game.id, client=api)
    assert isinstance(share, ShareLine) and share.share.startswith("Pyramid #")
    page = daily_retrieve.sync(client=api)
    assert isinstance(page, DailyPage) and isinstance(page.results[0], DailyDeal)
    assert page.results[0].my_game.id == game.id and page.results[0].my_game.status == GameStatusEnum.WON


def _signed_up(transport, name: str):
    from pyramid_client import AuthenticatedClient, Client
    from pyramid_client.api.accounts import accounts_signup_create
    from pyramid_client.models import SignupInput

    anonymous = Client(base_url="http://testserver", httpx_args=transport, raise_on_unexpected_status=True)
    signed_up = accounts_signup_create.sync(
        client=anonymous, body=SignupInput(username=name, password="a-long-pass-phrase")
    )
    return AuthenticatedClient(
        base_url="http://testserver", token=signed_up.token, httpx_args=transport, raise_on_unexpected_status=True
    )


def test_a_generated_client_paces_itself_by_the_rate_limit_headers(generated, wsgi_app, settings):
    """Twelve games started under a quota of three a minute (and five per address): the client reads `RateLimit`
    after each answer and, where a policy has nothing left, waits its `t` seconds (the clock moved, not slept)
    before the next; it never meets a 429."""
    import http_sf
    from pyramid_client.api.games import games_create
    from pyramid_client.models import Game, GameStartInput

    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] | {"game_start": "3/min", "game_start_address": "5/min"}
    settings.REST_FRAMEWORK = settings.REST_FRAMEWORK | {"DEFAULT_THROTTLE_RATES": rates}
    api = _signed_up({"transport": httpx.WSGITransport(app=wsgi_app)}, "pacer")
    waits, started = [], []
    with time_machine.travel(dt.datetime.now(dt.UTC), tick=False) as clock:
        for number in range(12):
            answer = games_create.sync_detailed(client=api, body=GameStartInput(number=str(number)))
            assert answer.status_code == 201 and isinstance(answer.parsed, Game), answer.content
            started.append(answer.parsed.id)
            policies = dict(http_sf.parse(answer.headers["RateLimit-Policy"].encode(), tltype="list"))
            assert policies == {"game_start": {"q": 3, "w": 60}, "game_start_address": {"q": 5, "w": 60}}
            spent = [
                params["t"]
                for _, params in http_sf.parse(answer.headers["RateLimit"].encode(), tltype="list")
                if params["r"] == 0
            ]
            if spent:
                waits.append(max(spent))
                clock.shift(max(spent))
    assert len(set(started)) == 12
    # the quota was met again and again: without the waits the fourth start would have been a 429
    assert len(waits) >= 3 and all(0 < wait <= 120 for wait in waits)


def test_a_generated_client_retries_a_start_with_its_idempotency_key(generated, wsgi_app):
    from pyramid_client.api.games import games_create
    from pyramid_client.models import Game, GameStartInput

    api = _signed_up({"transport": httpx.WSGITransport(app=wsgi_app)}, "retrier")
    body = GameStartInput(number="7", rules="one-look")
    first = games_create.sync_detailed(client=api, body=body, idempotency_key="start-7-once")
    again = games_create.sync_detailed(client=api, body=body, idempotency_key="start-7-once")
    assert first.status_code == again.status_code == 201
    assert isinstance(again.parsed, Game) and again.parsed.id == first.parsed.id
    assert again.headers["Idempotent-Replayed"] == "true" and again.headers["Location"] == first.headers["Location"]
    other = games_create.sync_detailed(client=api, body=GameStartInput(number="8"), idempotency_key="start-7-once")
    assert other.status_code == 422 and other.parsed.code == "idempotency_key_reused"


@pytest.fixture
def uvicorn_server(transactional_db):
    """The service under uvicorn as the README runs it (no Redis: its own bus, in-process jobs), on the test's
    database; stopped before the database is emptied."""
    from django.db import connection

    from tests.asgi_server import AsgiServer
    from tests.live.test_streams import PG

    if connection.vendor != "postgresql":
        pytest.skip("a second process on the test's database needs a database server")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYRAMID_", "CELERY_", "REDIS_"))}
    server = AsgiServer(
        env
        | {
            "DATABASE_URL": f"{PG}/{connection.settings_dict['NAME']}",
            "DJANGO_DEBUG": "false",
            "DJANGO_SECRET_KEY": "generated-stream",
            "PYRAMID_DAILY_SECRET": "generated-stream",
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "DJANGO_SETTINGS_MODULE": "pyramid_site.settings",
            "PYRAMID_LIVE_KEEPALIVE_SECONDS": "0.5",
        }
    )
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.mark.real_clock  # the server reads its own clock
def test_a_generated_client_follows_a_tournament_as_a_player_joins_and_finishes(generated, uvicorn_server):
    """The tournament's stream read with the generated client's own httpx client and token, each `data:` line
    parsed into the generated model its `event:` names; the events tell the join and the finished game as the
    standings then show them."""
    from pyramid_client import AuthenticatedClient, Client
    from pyramid_client.api.accounts import accounts_signup_create
    from pyramid_client.api.clubs import clubs_create, clubs_join_create, clubs_tournaments_create
    from pyramid_client.api.games import games_moves_create
    from pyramid_client.api.tournaments import (
        tournaments_events_retrieve,
        tournaments_games_create,
        tournaments_join_create,
        tournaments_standings_retrieve,
    )
    from pyramid_client.models import (
        Club,
        ClubInput,
        EndedEventOutput,
        Entry,
        Game,
        GameStatusEnum,
        JoinedEventOutput,
        JoinInput,
        LeftEventOutput,
        MoveInput,
        MoveOutcome,
        ResetEventOutput,
        SignupInput,
        SoonEventOutput,
        StandingEventOutput,
        StandingsPage,
        StartedEventOutput,
        Tournament,
        TournamentFormatEnum,
        TournamentInput,
        TournamentSourceEnum,
    )

    models = {
        "joined": JoinedEventOutput,
        "left": LeftEventOutput,
        "standing": StandingEventOutput,
        "soon": SoonEventOutput,
        "started": StartedEventOutput,
        "ended": EndedEventOutput,
        "reset": ResetEventOutput,
    }
    url = uvicorn_server.url
    anonymous = Client(base_url=url, raise_on_unexpected_status=True, timeout=httpx.Timeout(30.0))

    def account(name: str) -> AuthenticatedClient:
        signed_up = accounts_signup_create.sync(
            client=anonymous, body=SignupInput(username=name, password="a-long-pass-phrase")
        )
        return AuthenticatedClient(
            base_url=url, token=signed_up.token, raise_on_unexpected_status=True, timeout=httpx.Timeout(30.0)
        )

    owner, player = account("host"), account("racer")
    club = clubs_create.sync(client=owner, body=ClubInput(name="Followers"))
    assert isinstance(club, Club) and isinstance(club.invite_code, str)
    assert isinstance(clubs_join_create.sync(client=player, body=JoinInput(invite_code=club.invite_code)), Club)
    today = dt.datetime.now(dt.UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    cup = clubs_tournaments_create.sync(
        club.id,
        client=owner,
        body=TournamentInput(
            name="Followed Cup",
            format_=TournamentFormatEnum.MATCH,
            source=TournamentSourceEnum.DAILY,  # today's daily deal: ready at once
            starts_at=today,
            ends_at=today + dt.timedelta(days=1),
        ),
    )
    assert isinstance(cup, Tournament)

    # the generated operation's own request (its URL and headers), streamed on the generated client's httpx client
    request = tournaments_events_retrieve._get_kwargs(cup.id)
    request["headers"] |= {"Accept": "text/event-stream"}
    events: queue.Queue = queue.Queue()
    opened, stop = threading.Event(), threading.Event()

    def follow():
        kind = None
        with player.get_httpx_client().stream(**request, timeout=httpx.Timeout(30.0)) as stream:
            assert stream.status_code == 200 and stream.headers["content-type"].startswith("text/event-stream")
            for line in stream.iter_lines():
                if stop.is_set():
                    return
                if line.startswith("id: ") and not opened.is_set():
                    opened.set()  # where it starts: every event from here on arrives
                elif line.startswith("event: "):
                    kind = line.removeprefix("event: ")
                elif line.startswith("data: "):
                    events.put(models[kind].from_dict(json.loads(line.removeprefix("data: "))))

    reader = threading.Thread(target=follow, daemon=True)
    reader.start()
    assert opened.wait(20)

    def next_event():
        return events.get(timeout=20)

    assert isinstance(tournaments_join_create.sync(cup.id, client=player), Entry)
    joined = next_event()
    assert isinstance(joined, JoinedEventOutput) and joined.player.username == "racer" and joined.version == 1
    first = next_event()
    assert isinstance(first, StandingEventOutput) and first.games == 0

    game = tournaments_games_create.sync(cup.id, client=player)
    assert isinstance(game, Game)
    played = 0
    while game.status == GameStatusEnum.PLAYING:
        assert played < 500, "the game does not end"
        legal = game.position.legal_moves
        move = next((m for m in legal if m not in ("draw", "redeal")), legal[0])
        game = games_moves_create.sync(game.id, client=player, body=MoveInput(ply=game.next_ply, move=move))
        assert isinstance(game, MoveOutcome) and game.applied
        played += 1
    finished = next_event()
    assert isinstance(finished, StandingEventOutput) and finished.player.username == "racer"
    assert (finished.games, finished.moves, finished.cards_left) == (1, played, game.cards_left)
    standings = tournaments_standings_retrieve.sync(cup.id, client=player)
    assert isinstance(standings, StandingsPage)
    row = standings.results[0]
    assert (row.player.username, row.games, row.cards_left, row.moves) == ("racer", 1, game.cards_left, played)
    stop.set()
    reader.join(timeout=20)
