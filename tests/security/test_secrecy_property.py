"""Property: no answer reveals a daily or tournament deal before every window that uses it has ended.

Each example drives one proven deal sequence step by step (a candidate made, solved, the next looked at, settled),
then a ranked game of its deal (some moves, then resigned, won or abandoned; a tournament's end perhaps moved
later), and at every step reads everything there is to read as other people: another player, an anonymous
visitor, a club member who did not join, and a practice player who draws proved deals, asks for the candidates by
number under several rule sets, asks for solves, and may hold a practice game of the very number from before it
became a candidate. No answer may carry a candidate's number, nor the deal's text or line (``games.secrecy``).
Once every window has ended, the same reads show the deal: the property cannot hold by refusing everything."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.db import transaction
from django.test import override_settings
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from games import services as game_services
from games.models import DailyDeal, Deal, Game
from games.services import sequences
from games.services.sequences import sequence_step
from leaderboards.clubs import services
from leaderboards.tournaments import services as tournament_services
from pyramid_site.clock import day_end, utc_today
from tests.support import WINNABLE_ONE_LOOK, WINNING_LINE, UserFactory, client_for, clock_at, during

pytestmark = pytest.mark.django_db
HOUR = dt.timedelta(hours=1)
SECOND = dt.timedelta(seconds=1)
MINUTES_LEFT = dt.timedelta(minutes=5)
QUICK_LOSS = 1633359478595935829  # a one-look deal the solver proves unwinnable in milliseconds
RULE_SETS = ["one-look", "one-look;passes=2", "relaxed", "classic"]


class Rolled(Exception):
    """Leaves an example's atomic block, rolling back everything it wrote."""


def digits(number: int) -> re.Pattern:
    return re.compile(rf"(?<!\d){number}(?!\d)")


class Readers:
    """Everyone who reads, and the secrets none of them may see in an answer."""

    def __init__(self):
        self.candidates: list[int] = []  # the sequence's candidates made so far
        self.entrant, self.other, self.practiser, self.member = (UserFactory() for _ in range(4))
        self.cup = None
        self.ranked: int | None = None  # the entrant's ranked game
        self.practice: int | None = None  # the practiser's game of the winning number, made before it was a candidate
        self.checked = 0

    def secrets(self, answer, deals: list[Deal]) -> list[str]:
        """What of the secret an answer shows (the candidates' numbers, the deal's text and line)."""
        body = answer.content.decode()
        shown = [f"#{n}" for n in self.candidates if digits(n).search(body)]
        for deal in deals:
            shown += [f"text of #{deal.number}"] if deal.text in body else []
            shown += [f"line of #{deal.number}"] if deal.solution and deal.solution in body else []
        return shown

    def reads(self) -> list[tuple[str, object, bool]]:
        """(what, answer, whether the request named a candidate's number itself) for every read there is."""
        answers = []
        other, anonymous, practiser, member = (
            client_for(user) for user in (self.other, None, self.practiser, self.member)
        )
        entrant = client_for(self.entrant)
        if self.ranked:
            game = f"/api/games/{self.ranked}/"
            answers += [
                (f"{who} GET {game}{path}", api.get(f"{game}{path}"), False)
                for who, api in (("other", other), ("member", member))
                for path in ("", "log/", "analysis/", "replay/?best_from=0")
            ]
            answers += [
                (f"practiser GET {game}{path}", practiser.get(f"{game}{path}"), False)
                for path in ("", "hint/", "verdict/", "share/")
            ]
            answers.append((f"anonymous GET {game}", anonymous.get(game), False))
            answers += [
                (f"entrant GET own game {path}", entrant.get(f"{game}{path}"), False)
                for path in ("", "log/", "analysis/", "replay/?best_from=0", "share/")
            ]
        if self.practice:
            answers += [
                (f"practiser GET own practice game {path}", practiser.get(f"/api/games/{self.practice}/{path}"), False)
                for path in ("", "log/", "hint/", "verdict/", "analysis/", "replay/?best_from=0")
            ]
        answers.append(("practiser GET my games", practiser.get("/api/games/"), False))
        answers += [
            (f"practiser POST game {body}", practiser.post("/api/games/", body, format="json"), False)
            for body in ({"winnable": True, "rules": "one-look"}, {"difficulty": 1, "rules": "one-look"})
        ]
        for number in self.candidates:
            for rules in RULE_SETS[::2]:
                answers += [
                    (f"GET deal #{number} {rules}", practiser.get(f"/api/deals/{number}?rules={rules}"), True),
                    (
                        f"POST game #{number} {rules}",
                        practiser.post("/api/games/", {"number": str(number), "rules": rules}, format="json"),
                        True,
                    ),
                ]
            answers.append(
                (f"POST solve #{number}", practiser.post(f"/api/deals/{number}/solve/?rules=one-look"), True)
            )
        today, name = utc_today(), self.entrant.username
        answers += [
            (f"anonymous GET {path}", anonymous.get(path), False)
            for path in ("/api/daily/", f"/api/daily/{today}/one-look/verify/")
        ]
        answers += [
            (f"other GET {path}", other.get(path), False)
            for path in (
                f"/api/boards/daily/{today}/one-look/",
                f"/api/players/{name}/",
                f"/api/players/{name}/calendar/?months=1",
            )
        ]
        if self.cup is not None:
            answers += [
                (f"member GET tournament {path}", member.get(f"/api/tournaments/{self.cup.pk}/{path}"), False)
                for path in ("", "standings/")
            ]
        return answers

    def check(self, step: str) -> None:
        """Nothing secret in any answer while the deal's windows last."""
        deals = list(Deal.objects.filter(number__in=self.candidates))
        for what, answer, named in self.reads():
            assert answer.status_code < 500, (step, what, answer.status_code)
            if named:  # asking by the number: refused as if there were no such deal
                assert (answer.status_code, answer.json().get("code")) == (404, "deal_not_found"), (step, what)
            shown = self.secrets(answer, deals)
            if named:  # a refusal may name the number it refuses
                shown = [s for s in shown if not s.startswith("#")]
            if what.startswith("entrant GET own game "):  # the entrant's own moves may be the line
                shown = [s for s in shown if not s.startswith("line")]
            assert shown == [], (step, what, answer.status_code, shown)
            self.checked += 1


def sequence_of(purpose: str, owner, members) -> tuple[str, object, dt.datetime]:
    if purpose == "daily":
        return f"{utc_today().isoformat()}|one-look", None, day_end(utc_today())
    club = services.club_create(user=owner, name=f"Club {owner.pk}")
    for member in members:
        services.club_join(user=member, invite_code=club.invite_code)
    now = timezone.now()
    cup = tournament_services.tournament_create(
        actor=owner,
        club_id=club.pk,
        name="Cup",
        rules="one-look",
        format="match",
        starts_at=now - HOUR,
        ends_at=now + HOUR,
        deal_count=1,
    )
    return str(cup.pk), cup, cup.ends_at


@pytest.fixture
def candidates_at(monkeypatch):
    """The sequences' first candidates, per example (the real numbers hang on ids and dates)."""
    wanted: list[int] = []
    real = sequences.candidate_number

    def candidate(*, secret: str, purpose: str, key: str, attempt: int) -> int:
        return (
            wanted[attempt] if attempt < len(wanted) else real(secret=secret, purpose=purpose, key=key, attempt=attempt)
        )

    monkeypatch.setattr(sequences, "candidate_number", candidate)
    monkeypatch.setattr("games.services.play.practice_pool_fill", lambda **kwargs: 0)  # draws from the pool alone
    return wanted


# Each step starts games by number under several rule sets, for every candidate: a long sequence goes past the
# per-player start throttle (60 a minute), which is not what this test is about.
UNTHROTTLED_STARTS = {
    **django_settings.REST_FRAMEWORK,
    "DEFAULT_THROTTLE_RATES": {
        **django_settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
        "game_start": None,
        "game_start_address": None,
    },
}


@override_settings(REST_FRAMEWORK=UNTHROTTLED_STARTS)
@settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(
    purpose=st.sampled_from(["daily", "tournament"]),
    losses=st.integers(0, 1),
    practised=st.sampled_from([None, *RULE_SETS]),
    moves=st.integers(0, len(WINNING_LINE)),
    resign=st.booleans(),
    extend=st.booleans(),
)
def test_no_answer_reveals_a_deal_before_its_windows_end(
    db, candidates_at, purpose, losses, practised, moves, resign, extend
):
    cache.clear()  # throttles and queued-solve marks, per example
    candidates_at[:] = [QUICK_LOSS] * losses + [WINNABLE_ONE_LOOK]
    try:
        with clock_at(during(utc_today())), transaction.atomic():
            drive(purpose, list(candidates_at), practised, moves, resign, extend)
            raise Rolled
    except Rolled:
        pass


def drive(purpose, candidates, practised, moves, resign, extend):
    owner = UserFactory()
    readers = Readers()
    key, readers.cup, window_end = sequence_of(purpose, owner, [readers.member, readers.entrant])
    if practised:  # a practice game of the number, started while it was nobody's secret
        started = client_for(readers.practiser).post(
            "/api/games/", {"number": str(WINNABLE_ONE_LOOK), "rules": practised}, format="json"
        )
        assert started.status_code == 201
        readers.practice = started.json()["id"]
    # a practice game's deal is solved as it starts: under the sequence's own rules that candidate is settled then,
    # with no step of the chain of its own
    solved = set(
        Deal.objects.filter(rules=engine.preset("one-look").to_text())
        .exclude(status=Deal.Status.PENDING)
        .values_list("number", flat=True)
    )
    # the chain, step by step: a candidate made, solved, looked at again ... settled
    step = 0
    while (candidate := sequence_step(purpose=purpose, key=key)) is not None:
        readers.candidates.append(candidate.number)  # secret from now on
        readers.check(f"candidate {step} made")
        game_services.deal_solve(deal_id=candidate.pk)
        readers.check(f"candidate {step} solved")
        step += 1
    assert readers.candidates == [number for number in candidates if number not in solved]
    readers.check("settled")
    # a ranked game of it
    entrant = client_for(readers.entrant)
    if readers.cup is not None:
        readers.cup.refresh_from_db()
        assert readers.cup.status == "ready"
        assert entrant.post(f"/api/tournaments/{readers.cup.pk}/join/").status_code == 201
        started = entrant.post(f"/api/tournaments/{readers.cup.pk}/games/")
    else:
        daily = DailyDeal.objects.get(date=utc_today(), preset="one-look")
        started = entrant.post("/api/games/", {"daily": daily.pk}, format="json")
    assert started.status_code == 201, started.json()
    readers.ranked = started.json()["id"]
    readers.check("ranked game started")
    for ply, notation in enumerate(WINNING_LINE[:moves], start=1):
        assert (
            entrant.post(
                f"/api/games/{readers.ranked}/moves/", {"ply": ply, "move": notation}, format="json"
            ).status_code
            == 201
        )
    readers.check(f"{moves} moves played")
    if resign and moves < len(WINNING_LINE):
        assert entrant.post(f"/api/games/{readers.ranked}/resign/").status_code == 200
        readers.check("resigned")
    if extend and readers.cup is not None:
        first_end, window_end = window_end, window_end + 2 * HOUR
        moved = client_for(owner).patch(
            f"/api/tournaments/{readers.cup.pk}/", {"ends_at": window_end.isoformat()}, format="json"
        )
        assert moved.status_code == 200
        readers.check("end moved later")
        with clock_at(first_end + SECOND):
            readers.check("past the first end")
    with clock_at(window_end - MINUTES_LEFT):  # the clock runs on while the reads are made
        readers.check("minutes before the end")
    with clock_at(window_end + SECOND):  # every window over: the deal is anyone's
        shown = client_for(readers.other).get(f"/api/games/{readers.ranked}/")
        assert shown.status_code == 200 and shown.json()["deal"]["number"] == WINNABLE_ONE_LOOK
        deal = client_for(readers.other).get(f"/api/deals/{WINNABLE_ONE_LOOK}?rules=one-look")
        assert (
            deal.status_code == 200
            and deal.json()["text"] == Deal.objects.filter(number=WINNABLE_ONE_LOOK).first().text
        )
        if readers.practice:
            assert client_for(readers.practiser).get(f"/api/games/{readers.practice}/").status_code == 200
    assert readers.checked > 50 and Game.objects.filter(pk=readers.ranked).exists()
