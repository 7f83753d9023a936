"""The schema's types as a generated client reads them: daily presets typed as daily presets (the answers' and the
paths' one type), every union of objects a ``oneOf`` told apart by a discriminator, deal numbers answered as text
too (exact past 2**53, where JavaScript's numbers stop), and no component named like one of its properties."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest
from rest_framework.test import APIClient

import engine
from pyramid_site.clock import utc_today
from tests import conformance
from tests.support import make_daily

pytestmark = pytest.mark.django_db

# past 2**53: a JavaScript number holds it as 13489691998171883000
BIG = 13489691998171882937
DAILY_PRESET = {"$ref": "#/components/schemas/DailyPresetEnum"}


@pytest.fixture(scope="module")
def schema() -> dict:
    return json.loads(json.dumps(conformance.schema()))  # as served: plain JSON


def nodes(node):
    """Every object of the schema, depth first."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from nodes(value)
    elif isinstance(node, list):
        for value in node:
            yield from nodes(value)


def component(schema, reference: str) -> tuple[str, dict]:
    name = reference.removeprefix("#/components/schemas/")
    return name, schema["components"]["schemas"][name]


def plain(schema_node: dict) -> dict:
    """A property's schema without the ``allOf`` wrapper a description beside a reference gets."""
    wrapped = schema_node.get("allOf")
    return wrapped[0] if wrapped and len(wrapped) == 1 else schema_node


def test_daily_presets_are_one_type_without_custom(schema):
    components = schema["components"]["schemas"]
    assert components["DailyPresetEnum"]["enum"] == list(engine.PRESETS)
    # every preset of a daily deal, in an answer
    for name in (
        "DailyDeal",
        "DailyCommitment",
        "DailyVerify",
        "GameDaily",
        "BoardDaily",
        "HistoryRow",
        "CalendarDeal",
        "PeriodBoardPage",
    ):
        assert plain(components[name]["properties"]["preset"]) == DAILY_PRESET, name
    # and in the addresses that take one
    taken = {
        (path, parameter["in"]): parameter["schema"]
        for path, item in schema["paths"].items()
        for operation in item.values()
        for parameter in operation.get("parameters", [])
        if parameter["name"] == "preset"
    }
    assert taken == {
        ("/api/boards/daily/{date}/{preset}/", "path"): DAILY_PRESET,
        ("/api/boards/daily/{date}/{preset}/events/", "path"): DAILY_PRESET,
        ("/api/daily/{date}/{preset}/verify/", "path"): DAILY_PRESET,
        ("/api/boards/weekly/", "query"): DAILY_PRESET,
        ("/api/boards/all-time/", "query"): DAILY_PRESET,
    }
    # a game's deal, a practice deal or a tournament may be dealt under any rule set
    assert "custom" in components["PresetEnum"]["enum"]
    assert components["GameDeal"]["properties"]["preset"] == {"$ref": "#/components/schemas/PresetEnum"}


def test_every_union_of_objects_is_a_oneof_with_a_discriminator(schema):
    unions = 0
    for node in nodes(schema):
        assert "anyOf" not in node, node
        alternatives = node.get("oneOf", [])
        objects = [component(schema, a["$ref"]) for a in alternatives if "$ref" in a]
        objects = [(name, body) for name, body in objects if body.get("type") == "object"]
        if len(objects) < 2:
            continue  # a component or null; an integer or a word
        unions += 1
        discriminator = node["discriminator"]
        field = discriminator["propertyName"]
        values = {}
        for name, body in objects:
            assert field in body["required"], name
            # a constant: `const`, or an enum of one value (drf-spectacular's word for a one-choice field)
            told = body["properties"][field]
            if "$ref" in told:
                told = component(schema, told["$ref"])[1]
            assert "const" in told or len(told.get("enum", [])) == 1, (name, told)
            values[told.get("const", told.get("enum", [None])[0])] = f"#/components/schemas/{name}"
        assert discriminator["mapping"] == values
    assert unions >= 1  # the daily deals' two forms


def snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def test_no_component_has_a_property_named_like_itself(schema):
    # a generated Python model would name its instance and that property alike (mypy --strict refuses it)
    for name, body in schema["components"]["schemas"].items():
        assert snake(name) not in body.get("properties", {}), name


def test_every_deal_number_answered_is_deprecated_beside_its_text(schema):
    numbers = 0
    for name, body in schema["components"]["schemas"].items():
        for field, prop in body.get("properties", {}).items():
            if prop.get("format") == "uint64":
                numbers += 1
                assert prop["deprecated"] is True, f"{name}.{field}"
                text = body["properties"][f"{field}_text"]
                assert text["pattern"] == "^[0-9]{1,20}$" and "string" in text["type"], f"{name}.{field}_text"
                if field in body.get("required", []):
                    assert f"{field}_text" in body["required"], f"{name}.{field}_text"
    assert numbers >= 4  # Deal, GameDeal, DailyDealRevealed, DailyVerify


def test_a_deal_number_past_2_53_is_exact_as_text_in_every_answer_of_it(api):
    assert float(BIG) != BIG  # what a JavaScript client would make of the integer
    for sent in (str(BIG), BIG):
        started = api.post("/api/games/", {"number": sent, "rules": "one-look"}, format="json")
        assert started.status_code == 201, started.content
        assert f'"number_text":"{BIG}"'.encode() in started.content
        assert f'"number":{BIG}'.encode() in started.content  # the integer, as before, for one more major version
    game = started.json()
    assert game["deal"]["number_text"] == str(BIG) and game["deal"]["number"] == BIG
    move = api.post(
        f"/api/games/{game['id']}/moves/", {"ply": 1, "move": game["position"]["legal_moves"][0]}, format="json"
    )
    assert move.status_code == 201 and f'"number_text":"{BIG}"'.encode() in move.content  # the hand-built answer
    again = api.get(f"/api/games/{game['id']}/")
    assert f'"number_text":"{BIG}"'.encode() in again.content
    mine = api.get("/api/games/")
    assert mine.content.count(f'"number_text":"{BIG}"'.encode()) == 2
    deal = APIClient().get(f"/api/deals/{BIG}/", {"rules": "one-look"})
    assert deal.status_code == 200 and f'"number_text":"{BIG}"'.encode() in deal.content
    assert deal.json()["text"] == engine.deal_from_number(BIG).text


@pytest.mark.parametrize(
    "sent",
    [
        " 7",
        "7 ",
        "7.0",
        "+7",
        "-1",
        "0x10",
        "1e3",
        "",
        "١٢",
        "18446744073709551616",
        "123456789012345678901",
        2**64,
        -1,
        1.5,
        True,
        None,
        [7],
    ],
)
def test_a_deal_number_is_an_integer_or_a_string_of_digits_in_range(api, sent):
    refused = api.post("/api/games/", {"number": sent, "rules": "one-look"}, format="json")
    assert refused.status_code == 400, refused.content
    assert refused.json()["code"] == "invalid" and "number" in refused.json()["fields"]


@pytest.mark.parametrize("sent", ["+7", "7_000", "%20%207", "7.0", "%D9%A1%D9%A2", "18446744073709551616"])
def test_a_deal_number_in_an_address_is_a_string_of_digits_in_range(sent):
    refused = APIClient().get(f"/api/deals/{sent}/", {"rules": "one-look"})
    assert refused.status_code == 400 and refused.json()["code"] == "bad_deal_number", refused.content
    assert APIClient().get("/api/deals/0007/", {"rules": "one-look"}).json()["number_text"] == "7"


def test_daily_deals_say_which_form_they_are(api):
    make_daily()
    tomorrow = utc_today() + dt.timedelta(days=1)
    make_daily(date=tomorrow, preset="classic", number=7)
    today = api.get("/api/daily/").json()["results"]
    ahead = api.get(f"/api/daily/{tomorrow.isoformat()}/").json()["results"]
    assert [(item["form"], "id" in item) for item in today] == [("deal", True)]
    assert ahead == [
        {"form": "commitment", "date": tomorrow.isoformat(), "preset": "classic", "commitment": ahead[0]["commitment"]}
    ]
