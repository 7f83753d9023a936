"""The API answers in the request's language: `Accept-Language` picks the language of `message`, `code` never
changes, and every answer says `Content-Language`. Without `Accept-Language` the account's chosen language
is used (`PATCH /api/accounts/me/`)."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

import engine
from games.models import Game
from games.words import hint_words, refusal
from pyramid_site.accounts.models import LanguageChoice

pytestmark = pytest.mark.django_db

# ranks as each language's decks print them; suits and the other ranks are the same everywhere
RANKS = {"en": {}, "sv": {"A": "E", "J": "Kn", "Q": "D"}, "de": {"J": "B", "Q": "D"}}
COVERED = {
    "en": "{card} is covered by {left} and {right}",
    "sv": "{card} är täckt av {left} och {right}",
    "de": "{card} ist von {left} und {right} bedeckt",
}


def label(card: int, language: str) -> str:
    text = engine.card_pretty(card)
    return RANKS[language].get(text[:-1], text[:-1]) + text[-1]


def token_client(user, **headers) -> APIClient:
    client = APIClient(**headers)
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


def new_game(client) -> dict:
    response = client.post("/api/games/", {"number": 0, "rules": "one-look"}, format="json")
    assert response.status_code == 201
    return response.json()


@pytest.mark.parametrize(
    "language, header", [("en", "en-GB,en;q=0.9"), ("sv", "sv-SE,sv;q=0.9,en;q=0.5"), ("de", "de-DE,de;q=0.9")]
)
def test_an_illegal_move_is_refused_in_the_requests_language_with_the_same_code(player, language, header):
    client = token_client(player)
    game = new_game(client)
    response = client.post(
        f"/api/games/{game['id']}/moves/", {"ply": 1, "move": "0"}, format="json", HTTP_ACCEPT_LANGUAGE=header
    )
    assert response.status_code == 422
    assert response["Content-Language"] == language
    body = response.json()
    assert body["code"] == "illegal_move" and body["move"] == "0"
    apex, left, right = engine.deal_from_number(0).cards[:3]  # the apex lies under the second row's two
    english = engine.Position.start(engine.deal_from_number(0), engine.preset("one-look")).why_illegal(
        engine.parse_move("0")
    )
    assert english == COVERED["en"].format(card=label(apex, "en"), left=label(left, "en"), right=label(right, "en"))
    assert body["message"] == COVERED[language].format(
        card=label(apex, language), left=label(left, language), right=label(right, language)
    )


def test_every_engine_refusal_has_its_sentence():
    """Every kind of refusal the engine's golden table makes is translated (none falls back on English)."""
    from django.utils import translation

    from tests.engine.test_messages import GOLDEN

    kinds = set()
    for language in ("sv", "de"):
        with translation.override(language):
            for what, build, move, english in GOLDEN:
                reason = build().why_illegal(engine.parse_move(move))
                assert reason == english
                assert reason.kind, what
                kinds.add(reason.kind)
                said = refusal(reason.kind, reason.params, str(reason))
                assert said != english or not any(c.isalpha() for c in english), (language, what, said)
                assert "%(" not in said
    assert kinds == _kinds_said("position.py"), "a kind of refusal the golden table does not make"


def test_a_hint_is_explained_in_the_requests_language(player, settings):
    client = token_client(player)
    game = new_game(client)
    answers = {
        language: client.get(f"/api/games/{game['id']}/hint/", HTTP_ACCEPT_LANGUAGE=language)
        for language in ("en", "sv", "de")
    }
    for language, response in answers.items():
        assert response.status_code == 200 and response["Content-Language"] == language
    english, swedish, german = (answers[lang].json() for lang in ("en", "sv", "de"))
    assert english["move"] == swedish["move"] == german["move"] and english["locations"] == swedish["locations"]
    assert swedish["explanation"] != english["explanation"] != german["explanation"]
    if english["move"] == "draw":
        assert swedish["explanation"].startswith("Dra: ") and german["explanation"].startswith("Ziehen: ")
    assert any(word in swedish["explanation"] for word in ("ställning", "drag", "kort"))
    assert any(word in german["explanation"] for word in ("Stellung", "Zügen", "Karte"))


def _kinds_said(path: str) -> set[str]:
    """Every kind an engine module says (the second argument of each ``Said(...)``)."""
    import ast
    from pathlib import Path

    tree = ast.parse(Path(engine.__file__).parent.joinpath(path).read_text())
    return {
        node.args[1].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", None) == "Said"
        and len(node.args) > 1
        and isinstance(node.args[1], ast.Constant)
    }


def test_every_kind_of_hint_sentence_is_translated():
    """Each sentence kind the hints can say, built with sample cards, in both languages: none falls back on the
    engine's English, and every placeholder is filled."""
    from django.utils import translation

    from engine.words import PYRAMID, RESERVE, WASTE_PLACE, Said, Seen

    nine, four, king = Seen(PYRAMID, 35), Seen(WASTE_PLACE, 12), Seen(RESERVE, 51)  # 9♠... as sample cards
    reasons = {
        "frees": {"cards": [nine]},
        "pairs_with_covered": {"card": nine, "covered": four},
        "needs_pile": {"card": nine, "wanted_value": 4},
        "take_waste_now": {"card": four},
        "use_stock_now": {"card": four},
        "pair_inside_pyramid": {},
        "frees_most": {},
        "best_line": {},
    }
    sentences = {
        "won": {},
        "stuck": {},
        "no_better": {"cards_left": 3},
        "out_of_time": {},
        "winnable": {"moves": 20},
        "best_reachable": {"cards_left": 2, "moves": 30},
        "redeal": {"next_pass": 2},
        "king_frees": {"card": king, "frees": [nine, four]},
        "king_pyramid": {"card": king},
        "king_reserve": {"card": king},
        "king_pile": {"card": king},
        "pair": {
            "first": nine,
            "second": four,
            "reasons": [Said("english", kind, **params) for kind, params in reasons.items()],
        },
        "draw_pairs_wait": {},
        "draw_no_partner": {"cards": [four]},
        "draw_nothing_pairs": {},
    }
    assert _kinds_said("solver/hints.py") == set(sentences) | set(reasons)
    for language in ("sv", "de"):
        with translation.override(language):
            for kind, params in sentences.items():
                said = hint_words([Said("english", kind, **params)], "english")
                assert said != "english" and "%(" not in said and "english" not in said, (language, kind, said)


def test_every_kind_of_refusal_is_translated():
    assert _kinds_said("position.py") == {
        "already_won",
        "deal_over",
        "pyramid_card_gone",
        "covered",
        "covered_by_partner",
        "covered_partner_and_more",
        "no_reserve",
        "reserve_card_gone",
        "stock_top_hidden",
        "stock_empty",
        "waste_card_dead",
        "waste_dead",
        "waste_empty",
        "not_a_king",
        "not_thirteen",
        "draw_no_pass_left",
        "draw_nothing_left",
        "draw_stock_empty",
        "redeal_stock_left",
        "redeal_no_pass_left",
        "redeal_waste_empty",
    }


def test_not_found_and_validation_messages_follow_the_language_and_keep_their_codes(player):
    client = token_client(player)
    for language, words in (
        ("en", "there is no game"),
        ("sv", "det finns inget parti"),
        ("de", "es gibt keine Partie"),
    ):
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
    named = client.post(
        f"/api/games/{game['id']}/moves/", {"ply": 1, "move": "0"}, format="json", HTTP_ACCEPT_LANGUAGE="sv"
    )
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

    from leaderboards.boards.selectors.stats import share_line

    class Finished:
        won, cards_left, par_moves, moves, preset = False, 3, 30, 41, "classic"
        import datetime as _dt

        date = _dt.date(2025, 1, 12)

    with translation.override("sv"):
        assert share_line(Finished()) == "Pyramid #12 classic: 3 kort kvar, 41 drag (par 30)"
    with translation.override("de"):
        assert share_line(Finished()) == "Pyramid #12 classic: 3 Karten übrig, 41 Züge (Par 30)"
