"""The API answers in the request's language: `Accept-Language` picks the language of `message`, `code` never
changes, and every answer says `Content-Language`. Without `Accept-Language` the account's chosen language
is used (`PATCH /api/accounts/me/`)."""

from __future__ import annotations

import engine
import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import Game
from games.words import hint_words, refusal
from pyramid_site.accounts.models import LanguageChoice

pytestmark = pytest.mark.django_db

# the apex of deal #0 under one-look is covered by the two cards of the second row
APEX_REFUSAL = {
    "en": "7♣ is covered by Q♦ and 2♠",
    "sv": "7♣ är täckt av D♦ och 2♠",
    "de": "7♣ ist von D♦ und 2♠ bedeckt",
}


def token_client(user, **headers) -> APIClient:
    client = APIClient(**headers)
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


def new_game(client) -> dict:
    response = client.post("/api/games/", {"number": 0, "rules": "one-look"}, format="json")
    assert response.status_code == 201
    return response.json()


def apex_cards() -> tuple[str, str, str]:
    deal = engine.deal_from_number(0)
    return tuple(engine.card_pretty(card) for card in deal.cards[:3])


@pytest.mark.parametrize("language, header", [("en", "en-GB,en;q=0.9"), ("sv", "sv-SE,sv;q=0.9,en;q=0.5"),
                                              ("de", "de-DE,de;q=0.9")])
def test_an_illegal_move_is_refused_in_the_requests_language_with_the_same_code(player, language, header):
    client = token_client(player)
    game = new_game(client)
    response = client.post(f"/api/games/{game['id']}/moves/", {"ply": 1, "move": "0"}, format="json",
                           HTTP_ACCEPT_LANGUAGE=header)
    assert response.status_code == 422
    assert response["Content-Language"] == language
    body = response.json()
    assert body["code"] == "illegal_move" and body["move"] == "0"
    apex, left, right = apex_cards()
    english = f"{apex} is covered by {left} and {right}"
    # the engine's own words in English; the same cards, with ranks as the language prints them, in sv and de
    assert engine.Position.start(engine.deal_from_number(0), engine.preset("one-look")).why_illegal(
        engine.parse_move("0")) == english
    if apex_cards() == ("7♣", "Q♦", "2♠"):
        assert body["message"] == APEX_REFUSAL[language]
    elif language == "en":
        assert body["message"] == english
    else:
        assert body["message"] != english


def test_every_engine_refusal_has_its_sentence(player):
    """Every kind of refusal the engine's golden table makes is translated (none falls back on English)."""
    from django.utils import translation

    from tests.engine.test_messages import GOLDEN

    for language in ("sv", "de"):
        with translation.override(language):
            for what, build, move, english in GOLDEN:
                reason = build().why_illegal(engine.parse_move(move))
                assert reason == english
                assert reason.kind, what
                said = refusal(reason.kind, reason.params, str(reason))
                assert said != english or not any(c.isalpha() for c in english), (language, what, said)
                assert "%(" not in said


def test_a_hint_is_explained_in_the_requests_language(player, settings):
    client = token_client(player)
    game = new_game(client)
    answers = {language: client.get(f"/api/games/{game['id']}/hint/", HTTP_ACCEPT_LANGUAGE=language)
               for language in ("en", "sv", "de")}
    for language, response in answers.items():
        assert response.status_code == 200 and response["Content-Language"] == language
    english, swedish, german = (answers[lang].json() for lang in ("en", "sv", "de"))
    assert english["move"] == swedish["move"] == german["move"] and english["locations"] == swedish["locations"]
    assert swedish["explanation"] != english["explanation"] != german["explanation"]
    if english["move"] == "draw":
        assert swedish["explanation"].startswith("Dra: ") and german["explanation"].startswith("Ziehen: ")
    assert any(word in swedish["explanation"] for word in ("ställning", "drag", "kort"))
    assert any(word in german["explanation"] for word in ("Stellung", "Zügen", "Karte"))


def test_hint_words_cover_every_hint_kind():
    """Each sentence kind the hints make, in both languages, with its placeholders filled."""
    from django.utils import translation

    from engine.solver.hints import hint
    from tests.solver.test_hint_words import GOLDEN as HINT_GOLDEN  # noqa: F401  (the positions' builders)

    position = engine.Position.start(engine.deal_from_number(7), engine.preset("relaxed"))
    advice = hint(position, budget_seconds=5)
    for language in ("sv", "de"):
        with translation.override(language):
            said = hint_words(advice.parts, advice.explanation)
            assert said and said != advice.explanation and "%(" not in said


def test_not_found_and_validation_messages_follow_the_language_and_keep_their_codes(player):
    client = token_client(player)
    for language, words in (("en", "there is no game"), ("sv", "det finns inget parti"),
                             ("de", "es gibt keine Partie")):
        response = client.get("/api/games/999999/", HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 404 and response["Content-Language"] == language
        assert response.json()["code"] == "game_not_found" and words in response.json()["message"]


def test_an_unknown_language_is_answered_in_english(player):
    response = token_client(player).get("/api/games/999999/", HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9")
    assert response["Content-Language"] == "en" and response.json()["message"].startswith("there is no game")


def test_the_account_language_is_used_when_the_request_names_none(player):
    client = token_client(player)
    assert client.get("/api/accounts/me/").json()["language"] is None
    response = client.patch("/api/accounts/me/", {"language": "de"}, format="json")
    assert response.status_code == 200 and response.json()["language"] == "de"
    assert response["Content-Language"] == "de"
    assert LanguageChoice.objects.get(user=player).language == "de"
    game = new_game(client)
    refused = client.post(f"/api/games/{game['id']}/moves/", {"ply": 1, "move": "0"}, format="json")
    assert refused["Content-Language"] == "de" and " ist von " in refused.json()["message"]
    # a language the request names wins over the account's
    named = client.post(f"/api/games/{game['id']}/moves/", {"ply": 1, "move": "0"}, format="json",
                        HTTP_ACCEPT_LANGUAGE="sv")
    assert named["Content-Language"] == "sv" and " är täckt av " in named.json()["message"]
    assert named.json()["code"] == refused.json()["code"] == "illegal_move"
    # no choice: back to English for a request that names none
    assert client.patch("/api/accounts/me/", {"language": None}, format="json").json()["language"] is None
    again = client.post(f"/api/games/{game['id']}/moves/", {"ply": 1, "move": "0"}, format="json")
    assert again["Content-Language"] == "en" and " is covered by " in again.json()["message"]
    assert Game.objects.get(pk=game["id"]).moves == 0


def test_only_the_three_languages_may_be_chosen(player):
    client = token_client(player)
    response = client.patch("/api/accounts/me/", {"language": "fr"}, format="json", HTTP_ACCEPT_LANGUAGE="sv")
    assert response.status_code == 400 and response.json()["code"] == "invalid"
    assert response["Content-Language"] == "sv"


def test_the_database_keeps_the_language_to_the_three(player):
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        LanguageChoice.objects.create(user=player, language="fr")


def test_the_share_line_is_in_the_requests_language():
    from django.utils import translation

    from leaderboards.selectors.stats import share_line

    class Finished:
        won, cards_left, par_moves, moves, preset = False, 3, 30, 41, "classic"
        import datetime as _dt
        date = _dt.date(2025, 1, 12)

    with translation.override("sv"):
        assert share_line(Finished()) == "Pyramid #12 classic: 3 kort kvar, 41 drag (par 30)"
    with translation.override("de"):
        assert share_line(Finished()) == "Pyramid #12 classic: 3 Karten übrig, 41 Züge (Par 30)"
