"""Ranked play that resists scouting: a ranked game keeps a salted hash of its client address and the page's
device id; a second account that walks a deal's stock (or stops early) links, by either, to a better game of the
same deal, which is flagged and held off every board until an operator reviews it; a win faster than a person
can make its moves is flagged too."""

from __future__ import annotations

import datetime as dt
import hashlib

import pytest
from rest_framework.test import APIClient

import engine
from games import services as game_services
from games.models import Game
from games.tasks import close_expired_games
from leaderboards.boards.selectors.boards import daily_board
from leaderboards.boards.selectors.stats import period_board
from leaderboards.clubs.services import club_create, club_join
from leaderboards.fair_play import services
from leaderboards.fair_play.game_rules import game_rules_check
from leaderboards.fair_play.models import Flag, Void
from leaderboards.fair_play.recheck import ranked_day_recheck
from leaderboards.fair_play.scouting import scouting_of
from leaderboards.models import Entry, Result
from leaderboards.tournaments import services as leaderboard_services
from leaderboards.tournaments.services import tournament_join
from pyramid_site.client import address_hash, client_mark
from pyramid_site.clock import day_end, utc_today
from tests.leaderboards.test_tournaments import create, ready
from tests.support import PAR, WINNABLE_ONE_LOOK, UserFactory, at_once, clock_at, daily_game, during, make_daily, play

pytestmark = pytest.mark.django_db
HOME = "203.0.113.7"
ELSEWHERE = "198.51.100.20"
DEVICE = "a3f9c1d2e4b5a6978877665544332211"
OTHER_DEVICE = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"


def browser(*, address: str = HOME, device: str | None = DEVICE, user=None) -> APIClient:
    """A client at ``address`` whose page sends ``device`` (None: no header), logged in as ``user`` or, when
    None, as a fresh guest made over the API (one request, as a scout makes one)."""
    headers = {"REMOTE_ADDR": address} | ({"HTTP_X_DEVICE_ID": device} if device is not None else {})
    client = APIClient(**headers)
    if user is None:
        made = client.post("/api/accounts/guest/")
        assert made.status_code == 201
        client.credentials(HTTP_AUTHORIZATION=f"Token {made.json()['token']}")
    else:
        client.force_authenticate(user)
    return client


def start(client: APIClient, daily) -> int:
    answer = client.post("/api/games/", {"daily": daily.pk}, format="json")
    assert answer.status_code == 201, answer.json()
    return answer.json()["id"]


def moves(client: APIClient, game_id: int, line: list[str], first_ply: int = 1) -> None:
    for ply, move in enumerate(line, start=first_ply):
        answer = client.post(f"/api/games/{game_id}/moves/", {"ply": ply, "move": move}, format="json")
        assert answer.status_code == 201, answer.json()


def walk_the_stock(client: APIClient, daily) -> int:
    """A scout's game: draw until every stock card has been seen, pairing nothing (the 26 requests of the
    issue: a guest, a game, and its draws)."""
    game_id = start(client, daily)
    position = engine.Position.start(engine.deal_from_number(WINNABLE_ONE_LOOK), engine.preset(daily.preset))
    draws = 0
    while position.stock_count and position.pass_no == 1:
        position.apply(engine.parse_move("draw"))
        draws += 1
    moves(client, game_id, ["draw"] * draws)
    return game_id


def board_players(daily) -> list[int]:
    return [row.result.player_id for row in daily_board(daily=daily, use_cache=False).top]


def period_players(preset: str, monday: dt.date | None) -> list[int]:
    return [row["player_id"] for row in period_board(preset=preset, first=monday)[1]]


def flags_of(game_id: int) -> list[str]:
    return list(Flag.objects.filter(game_id=game_id).values_list("kind", flat=True))


def test_a_guest_that_walks_the_stock_links_to_the_main_accounts_par_win(
    winning_line, player, other_player, django_capture_on_commit_callbacks
):
    """The issue's scouting run: a guest draws through today's stock from the same browser, the main account
    then plays the solver's line at par with a person's pauses. The par win is flagged and held off the board
    (today: rank 1 and no flag, and nothing of the address or the device kept)."""
    daily = make_daily()
    honest = browser(address=ELSEWHERE, device=OTHER_DEVICE, user=other_player)
    honest_game = start(honest, daily)
    with django_capture_on_commit_callbacks(execute=True):
        moves(honest, honest_game, winning_line[:20])
        assert honest.post(f"/api/games/{honest_game}/resign/").status_code == 200
        scout = browser()  # a guest, same address, same browser
        scout_game = walk_the_stock(scout, daily)
        main = browser(user=player)
        main_game = start(main, daily)
        moves(main, main_game, winning_line)
    game = Game.objects.get(pk=main_game)
    assert game.status == Game.Status.WON and game.moves == PAR
    # what a ranked game keeps of its client: the address only as its salted hash
    assert game.client_hash == address_hash(HOME) != hashlib.sha256(HOME.encode()).hexdigest()
    assert HOME not in game.client_hash and game.device_id == DEVICE
    assert Game.objects.get(pk=scout_game).client_hash == game.client_hash
    assert Game.objects.get(pk=honest_game).client_hash == address_hash(ELSEWHERE)
    scouting = scouting_of(Game.objects.get(pk=scout_game))
    assert scouting.how == "walked the stock" and scouting.cards_left == 28  # every pyramid card still there
    flag = Flag.objects.get(kind=Flag.Kind.SCOUTED)
    assert flag.game_id == main_game
    assert f"game {scout_game} of player" in flag.detail and "same address and device" in flag.detail
    assert "walked the stock with 28 cards left" in flag.detail
    # held off the daily, weekly and all-time boards: the honest player is first
    assert board_players(daily) == [other_player.pk]
    monday = daily.date - dt.timedelta(days=daily.date.weekday())
    assert player.pk not in period_players(daily.preset, monday) + period_players(daily.preset, None)
    assert flags_of(scout_game) == [] and flags_of(honest_game) == []
    # the hash is the throttles' address: a forged X-Forwarded-For changes nothing without trusted proxies
    forged = browser(user=UserFactory())
    forged.defaults["HTTP_X_FORWARDED_FOR"] = ELSEWHERE
    assert Game.objects.get(pk=start(forged, daily)).client_hash == address_hash(HOME)


@pytest.mark.parametrize(
    "scout_at, main_at, linked_by",
    [
        ((HOME, DEVICE), (ELSEWHERE, DEVICE), "device"),
        ((HOME, DEVICE), (HOME, OTHER_DEVICE), "address"),
        ((HOME, None), (HOME, None), "address"),
        ((HOME, DEVICE), (ELSEWHERE, OTHER_DEVICE), None),
    ],
)
def test_either_the_address_or_the_device_links_the_games(
    winning_line, player, scout_at, main_at, linked_by, django_capture_on_commit_callbacks
):
    daily = make_daily()
    with django_capture_on_commit_callbacks(execute=True):
        walk_the_stock(browser(address=scout_at[0], device=scout_at[1]), daily)
        main = browser(address=main_at[0], device=main_at[1], user=player)
        main_game = start(main, daily)
        moves(main, main_game, winning_line)
    flags = Flag.objects.filter(game_id=main_game, kind=Flag.Kind.SCOUTED)
    if linked_by is None:
        assert not flags.exists() and board_players(daily) == [player.pk]
    else:
        assert f"(same {linked_by})" in flags.get().detail and board_players(daily) == []


def test_what_is_no_scouting(winning_line, player, django_capture_on_commit_callbacks):
    """A played game that lost (few cards left), a worse game after a scout, and a scout that looked only after
    the other game was over link to nothing."""
    daily = make_daily()
    with django_capture_on_commit_callbacks(execute=True):
        played = browser()  # a guest that plays properly and resigns late, with 4 cards left
        played_game = start(played, daily)
        moves(played, played_game, winning_line[:28])
        played.post(f"/api/games/{played_game}/resign/")
        main = browser(user=player)
        main_game = start(main, daily)
        moves(main, main_game, winning_line)
        late_scout = browser()  # walks the stock after the win: nothing it saw was used
        walk_the_stock(late_scout, daily)
        worse = browser(user=UserFactory())  # after the scout, but no better than it
        worse_game = start(worse, daily)
        moves(worse, worse_game, ["draw"])
        worse.post(f"/api/games/{worse_game}/resign/")
    assert Game.objects.get(pk=played_game).cards_left == 4 and scouting_of(Game.objects.get(pk=played_game)) is None
    assert not Flag.objects.exists()
    assert board_players(daily)[0] == player.pk


def test_a_scout_that_resigns_early_links_too(winning_line, player, django_capture_on_commit_callbacks):
    daily = make_daily()
    with django_capture_on_commit_callbacks(execute=True):
        quitter = browser()
        quitter_game = start(quitter, daily)
        moves(quitter, quitter_game, winning_line[:4])  # a pair, a few draws: 26 pyramid cards left
        assert quitter.post(f"/api/games/{quitter_game}/resign/").status_code == 200
        main = browser(user=player)
        main_game = start(main, daily)
        moves(main, main_game, winning_line)
    assert "resigned with 26 cards left" in Flag.objects.get(game_id=main_game, kind=Flag.Kind.SCOUTED).detail


def test_an_abandoned_scout_links_when_its_day_closes_it(winning_line, other_player):
    """A look, then the game left open: it is closed at the end of its day, and links then to the better game
    played meanwhile from its address (the daily re-check, or the job the closing queues)."""
    yesterday = make_daily(date=utc_today() - dt.timedelta(days=1))
    with clock_at(during(yesterday.date)):
        abandoned = game_services.ranked_game_start(
            player=UserFactory(), deal=yesterday.deal, daily=yesterday, closes_at=day_end(yesterday.date)
        )
        play(abandoned, ["draw"], resign=False)
    Game.objects.filter(pk=abandoned.pk).update(client_hash=address_hash(HOME))
    better = daily_game(other_player, yesterday, 12)
    Game.objects.filter(pk=better.pk).update(client_hash=address_hash(HOME))
    assert close_expired_games() == 1
    assert Game.objects.get(pk=abandoned.pk).status == Game.Status.CLOSED
    report = ranked_day_recheck(date=yesterday.date)
    assert flags_of(better.pk) == ["scouted"] and report.flags_new == 1
    assert "closed with 28 cards left" in Flag.objects.get(game_id=better.pk).detail
    assert ranked_day_recheck(date=yesterday.date).flags_new == 0  # safe to run twice


def test_the_rules_run_twice_write_once_and_a_lost_job_is_caught_by_the_recheck(winning_line, player):
    """Without the job queued at the game's end (a worker lost), the daily re-check finds the link."""
    daily = make_daily(date=utc_today() - dt.timedelta(days=1))
    scout = daily_game(UserFactory(), daily, 0)  # resigned at once: every card left
    main = daily_game(player, daily)
    Game.objects.filter(pk__in=[scout.pk, main.pk]).update(device_id=DEVICE)
    main.refresh_from_db()
    assert not Flag.objects.exists() and board_players(daily) == [player.pk, scout.player_id]
    report = ranked_day_recheck(date=daily.date)
    assert flags_of(main.pk) == ["scouted"] and report.flags_new == 1 and board_players(daily) == [scout.player_id]
    assert game_rules_check(game=Game.objects.get(pk=main.pk)) == []
    assert ranked_day_recheck(date=daily.date).flags_new == 0 and Flag.objects.count() == 1


def test_a_win_faster_than_a_person_can_move_is_flagged(
    winning_line, player, other_player, settings, django_capture_on_commit_callbacks
):
    settings.PYRAMID_FLAG_FASTEST_MOVE_MS = 300
    daily = make_daily()
    with django_capture_on_commit_callbacks(execute=True):
        fast = daily_game(player, daily)  # the whole line at machine speed
    flag = Flag.objects.get(game=fast)
    assert flag.kind == "too_fast" and f"won in {PAR} moves in" in flag.detail and "9.90 s" in flag.detail
    assert board_players(daily) == []
    # a person's pace, and a loss however quick, are not
    other_daily = make_daily(date=utc_today() - dt.timedelta(days=1))
    person = daily_game(other_player, other_daily, seconds=PAR * 0.3 + 1)
    quick_loss = daily_game(UserFactory(), other_daily, 12, seconds=1)
    assert game_rules_check(game=person) == [] and game_rules_check(game=quick_loss) == []
    assert not Flag.objects.exclude(game=fast).exists()


def test_a_flag_holds_the_result_off_every_board_until_reviewed(winning_line, users, settings):
    """Daily, weekly, all-time and club boards (tournaments below); a review that clears puts it back, one that voids
    keeps it off; the boards' counts add up all along (board_counts_check after the test)."""
    staff = UserFactory(is_staff=True)
    daily = make_daily()
    game = daily_game(users[0], daily)
    daily_game(users[1], daily, 10)
    monday = daily.date - dt.timedelta(days=daily.date.weekday())
    assert board_players(daily) == [users[0].pk, users[1].pk]
    club = club_create(user=users[0], name="Owls")
    club_join(user=users[1], invite_code=club.invite_code)
    club_board = [row.result.player_id for row in daily_board(daily=daily, club_id=club.pk, use_cache=False).top]
    assert club_board == [users[0].pk, users[1].pk]
    flag = services.flag_raise(game=game, kind=Flag.Kind.SCOUTED, detail="linked")
    assert services.flag_raise(game=game, kind=Flag.Kind.SCOUTED, detail="again") is None  # once a kind
    assert board_players(daily) == [users[1].pk]
    assert [row.result.player_id for row in daily_board(daily=daily, club_id=club.pk, use_cache=False).top] == [
        users[1].pk
    ]
    assert period_board(preset=daily.preset, first=monday, club_id=club.pk)[0] == 1
    assert users[0].pk not in period_players(daily.preset, monday) + period_players(daily.preset, None)
    assert daily_board(daily=daily, use_cache=False).top[0].rank == 1
    # a second open flag keeps it off when the first is reviewed
    second = services.flag_raise(game=game, kind=Flag.Kind.TOO_FAST, detail="fast")
    services.flag_review(flag_id=flag.pk, note="shared flat, not the same person", by=staff)
    assert board_players(daily) == [users[1].pk]
    services.flag_review(flag_id=second.pk, note="fine", by=staff)
    assert board_players(daily) == [users[0].pk, users[1].pk]
    assert users[0].pk in period_players(daily.preset, monday)
    # a review that voids keeps it off, over the API too
    other = daily_game(users[2], make_daily(date=utc_today() - dt.timedelta(days=1)), 8)
    third = services.flag_raise(game=other, kind=Flag.Kind.TOO_FAST, detail="fast")
    api = APIClient()
    api.force_authenticate(staff)
    answer = api.post(f"/api/fair-play/flags/{third.pk}/review/", {"note": "a bot", "void": True}, format="json")
    assert answer.status_code == 200 and answer.json()["reviewed_by"] == staff.pk
    assert Result.objects.get(game=other).voided and Void.objects.get(game=other).reason == "a bot"
    # lifting that void puts it back: no flag is open any more
    services.void_lift(void_id=Void.objects.get(game=other).pk, reason="appeal")
    assert not Result.objects.get(game=other).voided


def test_a_flag_holds_a_tournament_result_out_of_the_standings(winning_line, users):
    club = club_create(user=users[0], name="Owls")
    for user in users[1:3]:
        club_join(user=user, invite_code=club.invite_code)
    cup = ready(create(users[0], club), [WINNABLE_ONE_LOOK])
    games = {}
    for user, line in ((users[1], winning_line), (users[2], winning_line[:10])):
        tournament_join(user=user, tournament_id=cup.pk)
        started = leaderboard_services.tournament_game_start(user=user, tournament_id=cup.pk)
        games[user.pk] = play(started, line)
    assert Entry.objects.get(tournament=cup, player=users[1]).cleared == 1
    flag = services.flag_raise(game=games[users[1].pk], kind=Flag.Kind.SCOUTED, detail="linked")
    held = Entry.objects.get(tournament=cup, player=users[1])
    assert held.cleared == 0 and held.games == 0
    services.flag_review(flag_id=flag.pk, note="cleared")
    assert Entry.objects.get(tournament=cup, player=users[1]).cleared == 1


@pytest.mark.django_db(transaction=True)
def test_a_flag_and_the_games_result_landing_at_once_leave_it_held(winning_line):
    """The flag is raised while the game's finishing move commits: whichever comes first, the result is held."""
    player, daily = UserFactory(), make_daily()
    game = game_services.ranked_game_start(player=player, deal=daily.deal, daily=daily, closes_at=day_end(daily.date))
    play(game, winning_line[:5], resign=False)
    errors = at_once(
        lambda: game_services.game_resign(game_id=game.pk, player=player),
        lambda: services.flag_raise(game=game, kind=Flag.Kind.SCOUTED, detail="race"),
    )
    assert errors == []
    assert Result.objects.get(game=game).voided


@pytest.mark.parametrize("header", ["short", "x" * 65, "has space in it!!", "ünïcödé-ünïcödé-ü", "", "a" * 16 + "\x00"])
def test_a_bad_device_id_is_ignored_never_an_error(winning_line, player, header):
    daily = make_daily()
    client = APIClient(REMOTE_ADDR=HOME, HTTP_X_DEVICE_ID=header)
    client.force_authenticate(player)
    answer = client.post("/api/games/", {"daily": daily.pk}, format="json")
    assert answer.status_code == 201
    assert Game.objects.get(pk=answer.json()["id"]).device_id == ""


def test_practice_games_keep_nothing_of_the_client(player):
    client = browser(user=player)
    answer = client.post("/api/games/", {"number": 5}, format="json")
    game = Game.objects.get(pk=answer.json()["id"])
    assert answer.status_code == 201 and game.client_hash == "" and game.device_id == ""


def test_the_schema_declares_the_device_header():
    schema = APIClient().get("/api/schema/?format=json").json()
    for path in ("/api/games/", "/api/tournaments/{tournament_id}/games/"):
        parameters = schema["paths"][path]["post"].get("parameters", [])
        assert any(p["in"] == "header" and p["name"] == "X-Device-ID" for p in parameters), path


def test_the_salt_is_the_servers(settings):
    assert address_hash(HOME) == address_hash(HOME) and len(address_hash(HOME)) == 64
    before = address_hash(HOME)
    settings.PYRAMID_CLIENT_HASH_SALT = "another"
    assert address_hash(HOME) != before and address_hash("") == ""


def test_the_admin_clears_a_flag_through_the_service(winning_line, player, client):
    staff = UserFactory(is_staff=True, is_superuser=True)
    staff.save()  # the factory leaves the password set in memory alone; the session checks its hash
    daily = make_daily()
    game = daily_game(player, daily)
    flag = services.flag_raise(game=game, kind=Flag.Kind.TOO_FAST, detail="fast")
    assert board_players(daily) == []
    client.force_login(staff)
    answer = client.post("/admin/leaderboards/flag/", {"action": "clear", "_selected_action": [flag.pk]})
    assert answer.status_code == 302 and answer.url == "/admin/leaderboards/flag/"
    flag.refresh_from_db()
    assert flag.reviewed_by == staff and board_players(daily) == [player.pk]


def test_an_ipv6_client_is_one_address_across_its_block(rf):
    """A device rotating its private IPv6 addresses inside its /64 stays one address for the scouting rule."""

    def mark(address):
        return client_mark(rf.get("/", REMOTE_ADDR=address)).address_hash

    assert mark("2001:db8:1:2::1") == mark("2001:db8:1:2:ffff:ffff:ffff:fffe") != mark("2001:db8:1:3::1")
    assert mark("::ffff:192.0.2.7") == mark("192.0.2.7")
