"""The one rule for secrecy (games/secrecy.py) at its two old holes: a tournament's end moved later left its
finished games readable from the old end on, and a sequence's candidate proved winnable but not settled yet was a
public practice deal, whose practice game kept showing it once it turned secret."""

import datetime as dt
import threading

import pytest
from django.db import connection
from django.utils import timezone

import engine
from games import services as game_services
from games.models import Deal, Game
from games.services import sequences
from games.services.sequences import sequence_step
from leaderboards.clubs import services as club_services
from leaderboards.models import TournamentDeal
from leaderboards.tournaments import services
from pyramid_site.clock import day_end, utc_today
from tests.support import WINNABLE_ONE_LOOK, UserFactory, client_for, clock_at, make_daily, play, winnable_deal

pytestmark = pytest.mark.django_db
HOUR = dt.timedelta(hours=1)
SECOND = dt.timedelta(seconds=1)
QUICK_LOSS = 1633359478595935829  # a one-look deal the solver proves unwinnable in milliseconds
CUSTOM = "one-look;passes=2"  # no preset: its proved pool holds only what the solver was asked about


@pytest.fixture
def candidates_at(monkeypatch):
    """Point a purpose's first candidates at chosen numbers (the real ones hang on ids and dates)."""
    real = sequences.candidate_number

    def point(wanted: str, numbers: list[int]) -> None:
        def candidate(*, secret: str, purpose: str, key: str, attempt: int) -> int:
            if purpose == wanted and attempt < len(numbers):
                return numbers[attempt]
            return real(secret=secret, purpose=purpose, key=key, attempt=attempt)

        monkeypatch.setattr(sequences, "candidate_number", candidate)

    return point


@pytest.fixture
def no_pool_filling(monkeypatch):
    """A request that finds the proved pool empty looks no further (the test is about what the pool holds)."""
    monkeypatch.setattr("games.services.play.practice_pool_fill", lambda **kwargs: 0)


def secret_shown(answer, deal: Deal, *, number_asked: bool = False) -> bool:
    """Whether an answer carries the deal's number (unless the request named it: a refusal may say which number it
    refuses), its text or its line."""
    body = answer.content.decode()
    return (
        (not number_asked and str(deal.number) in body)
        or deal.text in body
        or bool(deal.solution and deal.solution in body)
    )


def reads_of(api, game_id: int) -> dict:
    return {
        "game": api.get(f"/api/games/{game_id}/"),
        "log": api.get(f"/api/games/{game_id}/log/"),
        "analysis": api.get(f"/api/games/{game_id}/analysis/"),
        "best line": api.get(f"/api/games/{game_id}/replay/?best_from=0"),
    }


def test_a_running_tournament_extended_keeps_its_finished_games_closed_until_the_new_end(users, winning_line):
    """Old hole: extending a running tournament's end moved only the games still playing; a finished game kept
    the old end, and from then on anyone (not even a club member) read it whole, deal number, log, analysis and
    the best line, while the tournament and its deal were still live."""
    owner, entrant, outsider = users[0], users[1], users[7]
    club = club_services.club_create(user=owner, name="Window Club")
    club_services.club_join(user=entrant, invite_code=club.invite_code)
    now = timezone.now()
    cup = services.tournament_create(
        actor=owner,
        club_id=club.pk,
        name="Cup",
        rules="one-look",
        format="match",
        starts_at=now - HOUR,
        ends_at=now + HOUR,
        deal_count=1,
    )
    deal = winnable_deal()
    TournamentDeal.objects.create(tournament=cup, index=0, deal=deal)
    game_services.deal_keep_secret(deal_id=deal.pk, until=cup.ends_at)
    cup.status = "ready"
    cup.save(update_fields=["status"])
    services.tournament_join(user=entrant, tournament_id=cup.pk)
    won = play(services.tournament_game_start(user=entrant, tournament_id=cup.pk), winning_line)
    assert won.status == "won"
    first_end, new_end = cup.ends_at, cup.ends_at + 3 * HOUR
    moved = client_for(owner).patch(f"/api/tournaments/{cup.pk}/", {"ends_at": new_end.isoformat()}, format="json")
    assert moved.status_code == 200
    deal.refresh_from_db()
    with clock_at(first_end + SECOND):  # past the old end, the tournament still on
        for reader in (client_for(outsider), client_for(None), client_for(owner)):
            for name, answer in reads_of(reader, won.pk).items():
                assert answer.status_code in (401, 404), (name, answer.status_code)
                assert not secret_shown(answer, deal), name
        own = client_for(entrant)
        assert own.get(f"/api/games/{won.pk}/").json()["deal"]["number"] is None
        assert own.get(f"/api/games/{won.pk}/analysis/").json()["opens_at"] == new_end.isoformat()
    won.refresh_from_db()
    assert won.closes_at == new_end  # the window moved its finished game with it
    with clock_at(new_end + SECOND):  # over: anyone reads it
        shown = client_for(outsider).get(f"/api/games/{won.pk}/")
        assert shown.status_code == 200 and shown.json()["deal"]["number"] == WINNABLE_ONE_LOOK
        assert client_for(outsider).get(f"/api/games/{won.pk}/replay/?best_from=0").status_code == 200


def test_a_preparing_tournament_extended_keeps_its_candidates_secret_until_the_new_end(users, candidates_at):
    owner = users[0]
    club = club_services.club_create(user=owner, name="Slow Club")
    now = timezone.now()
    cup = services.tournament_create(
        actor=owner,
        club_id=club.pk,
        name="Cup",
        rules="one-look",
        format="match",
        starts_at=now + HOUR,
        ends_at=now + 2 * HOUR,
        deal_count=2,
    )
    candidate = sequence_step(purpose="tournament", key=str(cup.pk))
    assert candidate.secret_until == cup.ends_at
    later = now + 5 * HOUR
    services.tournament_update(actor=owner, tournament_id=cup.pk, ends_at=later)
    assert Deal.objects.get(pk=candidate.pk).secret_until == later


def settle_sequence_of(purpose: str, owner) -> tuple[str, object]:
    """A sequence of ``purpose`` on rules CUSTOM (a tournament's), or today's one-look daily deal."""
    if purpose == "daily":
        return f"{utc_today().isoformat()}|one-look", day_end(utc_today())
    club = club_services.club_create(user=owner, name="Custom Club")
    now = timezone.now()
    cup = services.tournament_create(
        actor=owner,
        club_id=club.pk,
        name="Custom Cup",
        rules=CUSTOM,
        format="match",
        starts_at=now - HOUR,
        ends_at=now + HOUR,
        deal_count=1,
    )
    return str(cup.pk), cup.ends_at


@pytest.mark.parametrize("purpose", ["tournament", "daily"])
def test_a_proved_candidate_waiting_to_be_settled_is_no_practice_deal(users, purpose, candidates_at, no_pool_filling):
    """Old hole: between a candidate's solve and its settling the candidate was a public winnable deal: under
    custom rules (a pool nearly empty) `POST /api/games/ {winnable: true}` drew a tournament's first deal for
    certain, and by number it was anyone's to read, solve and practise. Daily deals come by the same chain."""
    rules = CUSTOM if purpose == "tournament" else "one-look"
    candidates_at(purpose, [WINNABLE_ONE_LOOK])
    key, window_end = settle_sequence_of(purpose, users[0])
    candidate = sequence_step(purpose=purpose, key=key)
    assert candidate.number == WINNABLE_ONE_LOOK
    proved = game_services.deal_solve(deal_id=candidate.pk)
    assert proved.status == "winnable"  # proved, not settled yet: the hole's moment
    practice = client_for(users[3])
    for answer in (
        practice.post("/api/games/", {"winnable": True, "rules": rules}, format="json"),
        practice.post("/api/games/", {"difficulty": proved.difficulty, "rules": rules}, format="json"),
    ):
        assert (answer.status_code, answer.json().get("code")) == (409, "no_deal_ready"), answer.json()
        assert not secret_shown(answer, proved)
    for answer in (
        practice.post("/api/games/", {"number": str(WINNABLE_ONE_LOOK), "rules": rules}, format="json"),
        practice.get(f"/api/deals/{WINNABLE_ONE_LOOK}?rules={rules}"),
        practice.post(f"/api/deals/{WINNABLE_ONE_LOOK}/solve/?rules={rules}"),
    ):
        assert (answer.status_code, answer.json().get("code")) == (404, "deal_not_found"), answer.json()
        assert not secret_shown(answer, proved, number_asked=True)
    assert not Game.objects.filter(deal__number=WINNABLE_ONE_LOOK).exists()
    assert proved.secret_until == window_end  # secret since it became a candidate
    assert sequence_step(purpose=purpose, key=key) is None  # settled
    with clock_at(window_end + SECOND):  # every window of it over: a practice deal like any
        drawn = practice.post("/api/games/", {"winnable": True, "rules": rules}, format="json")
        assert drawn.status_code == 201 and drawn.json()["deal"]["number"] == WINNABLE_ONE_LOOK


@pytest.mark.parametrize("purpose", ["tournament", "daily"])
def test_a_practice_game_of_a_number_turned_secret_is_nobodys_until_its_windows_end(
    users, purpose, winning_line, candidates_at
):
    """Old hole: a practice game of a deal that then became a sequence's kept its number, hints and analysis
    (and undo, which walks the whole stock) while the deal was live. Now it answers 404, to its player too, and
    leaves their list, until every window of the number has ended; then it is back as it was."""
    # practised under other rules than the sequence's: the number alone gives the deal away
    rules = "one-look" if purpose == "tournament" else CUSTOM
    player = users[3]
    api = client_for(player)
    started = api.post("/api/games/", {"number": str(WINNABLE_ONE_LOOK), "rules": rules}, format="json").json()
    for ply, notation in enumerate(winning_line[:4], start=1):
        assert (
            api.post(f"/api/games/{started['id']}/moves/", {"ply": ply, "move": notation}, format="json").status_code
            == 201
        )
    assert api.get(f"/api/games/{started['id']}/hint/").status_code == 200
    candidates_at(purpose, [WINNABLE_ONE_LOOK])
    key, window_end = settle_sequence_of(purpose, users[0])
    candidate = sequence_step(purpose=purpose, key=key)
    game_services.deal_solve(deal_id=candidate.pk)
    assert sequence_step(purpose=purpose, key=key) is None
    secret = Deal.objects.get(number=WINNABLE_ONE_LOOK, rules=engine.Rules.parse(rules).to_text())
    gid = started["id"]
    answers = {
        "game": api.get(f"/api/games/{gid}/"),
        "log": api.get(f"/api/games/{gid}/log/"),
        "hint": api.get(f"/api/games/{gid}/hint/"),
        "verdict": api.get(f"/api/games/{gid}/verdict/"),
        "analysis": api.get(f"/api/games/{gid}/analysis/"),
        "replay": api.get(f"/api/games/{gid}/replay/?best_from=0"),
        "move": api.post(f"/api/games/{gid}/moves/", {"ply": 5, "move": winning_line[4]}, format="json"),
        "undo": api.post(f"/api/games/{gid}/undo/"),
        "resign": api.post(f"/api/games/{gid}/resign/"),
    }
    for name, answer in answers.items():
        assert (answer.status_code, answer.json().get("code")) == (404, "game_not_found"), name
        assert not secret_shown(answer, secret), name
    assert [g["id"] for g in api.get("/api/games/").json()["results"]] == []
    assert Game.objects.get(pk=gid).moves == 4  # nothing changed
    assert Deal.objects.get(pk=secret.pk).secret_until == window_end  # the practice row too: every row of the number
    with clock_at(window_end + SECOND):
        back = api.get(f"/api/games/{gid}/")
        assert back.status_code == 200 and back.json()["deal"]["number"] == WINNABLE_ONE_LOOK
        assert [g["id"] for g in api.get("/api/games/").json()["results"]] == [gid]


def test_a_number_gets_its_secrecy_on_every_rule_set_it_is_stored_under(users):
    """Every row of a number carries its secrecy, made before or after it turned secret, so one row tells."""
    before = game_services.deal_get_or_create(number=424242, rules=engine.preset("relaxed"))
    daily_rules = engine.preset("one-look")
    until = timezone.now() + HOUR
    candidate = game_services.deal_get_or_create(number=424242, rules=daily_rules, secret_until=until)
    after = Deal.objects.create(
        number=424242, rules=engine.preset("strict").to_text(), preset="strict", text=candidate.text
    )  # as a row made behind the services would be: then caught up
    assert Deal.objects.get(pk=before.pk).secret_until == until
    game_services.deal_keep_secret(deal_id=candidate.pk, until=until + HOUR)
    assert set(Deal.objects.filter(number=424242).values_list("secret_until", flat=True)) == {until + HOUR}
    assert Deal.objects.get(pk=after.pk).secret_until == until + HOUR
    made_later = game_services.deal_get_or_create(number=424242, rules=engine.preset("classic"))
    assert made_later.secret_until == until + HOUR


def test_a_past_day_shows_its_deal_only_once_no_window_uses_it_any_more(users):
    """The day is over, but its deal is live elsewhere (here today's deal too): the verify endpoint, the day's
    list and the refusal to start it keep the number, the text, the line and the salt back until it is not."""
    yesterday = make_daily(date=utc_today() - dt.timedelta(days=1))
    today = make_daily()  # the same deal
    api = client_for(users[1])
    answers = {
        "verify": api.get(f"/api/daily/{yesterday.date}/one-look/verify/"),
        "day": api.get(f"/api/daily/{yesterday.date}/"),
        "start": api.post("/api/games/", {"daily": yesterday.pk}, format="json"),
    }
    for name, answer in answers.items():
        assert not secret_shown(answer, yesterday.deal) and yesterday.salt not in answer.content.decode(), name
    assert answers["verify"].json()["revealed"] is False
    assert answers["start"].json()["code"] == "daily_over"
    with clock_at(day_end(today.date) + SECOND):
        verify = api.get(f"/api/daily/{yesterday.date}/one-look/verify/").json()
        assert verify["revealed"] is True and verify["number"] == WINNABLE_ONE_LOOK
        assert api.get(f"/api/daily/{yesterday.date}/").json()["results"][0]["salt"] == yesterday.salt


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_an_end_moved_while_games_start_and_finish_moves_every_one_of_them(settings, candidates_at, winning_line):
    """The move of the window and the games' own writes, at once: every game of the tournament, started or
    finished meanwhile, ends up closing at the new end (the start reads the end under the tournament's row lock,
    the move of the window takes that lock and moves every game in its transaction)."""
    settings.PYRAMID_DAILY_MAX_ATTEMPTS = 1
    candidates_at("tournament", [QUICK_LOSS])  # committed creation prepares at once: it fails fast, then fixed below
    owner = UserFactory()
    club = club_services.club_create(user=owner, name="Race Club")
    players = [UserFactory() for _ in range(6)]
    now = timezone.now()
    cup = services.tournament_create(
        actor=owner,
        club_id=club.pk,
        name="Race",
        rules="one-look",
        format="match",
        starts_at=now - HOUR,
        ends_at=now + HOUR,
        deal_count=1,
    )
    deal = winnable_deal()
    TournamentDeal.objects.create(tournament=cup, index=0, deal=deal)
    game_services.deal_keep_secret(deal_id=deal.pk, until=cup.ends_at)
    cup.status = "ready"
    cup.save(update_fields=["status"])
    playing = []
    for user in players:
        club_services.club_join(user=user, invite_code=club.invite_code)
        services.tournament_join(user=user, tournament_id=cup.pk)
    for user in players[:3]:
        playing.append(
            play(services.tournament_game_start(user=user, tournament_id=cup.pk), winning_line[:3], resign=False)
        )
    new_end = cup.ends_at + 2 * HOUR
    barrier = threading.Barrier(1 + len(players))
    errors = []

    def run(work):
        try:
            barrier.wait()
            work()
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)
        finally:
            connection.close()

    works = [lambda: services.tournament_update(actor=owner, tournament_id=cup.pk, ends_at=new_end)]
    works += [lambda game=game: game_services.game_resign(game_id=game.pk, player=game.player) for game in playing]
    works += [lambda user=user: services.tournament_game_start(user=user, tournament_id=cup.pk) for user in players[3:]]
    threads = [threading.Thread(target=run, args=(work,)) for work in works]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    games = Game.objects.filter(deal=deal, mode="ranked")
    assert games.count() == len(players)
    assert set(games.values_list("closes_at", flat=True)) == {new_end}
    assert Deal.objects.get(pk=deal.pk).secret_until == new_end
