"""One name per look: usernames and club names are unique by their canonical key (NFKC, case fold, TR 39
confusable skeleton, invisible characters and stacked marks refused), in the database too, and log-in and its
throttle find an account by that same key. Each case is a spelling that used to pass as a new name."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from rest_framework.test import APIClient

from leaderboards.models import Club
from pyramid_site.accounts.models import AccountName
from pyramid_site.names import canonical_name
from tests.support import UserFactory, client_for

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-pass-phrase"
User = get_user_model()


def sign_up(username: str):
    return APIClient().post("/api/accounts/signup/", {"username": username, "password": PASSWORD}, format="json")


@pytest.mark.parametrize(
    "taken, look_alike",
    [
        ("alice", "\u0430lice"),  # Cyrillic а
        ("alice", "al\u0131ce"),  # dotless ı
        ("alice", "ALICE"),
        ("alice", "a1ice"),  # digit one for l
        ("bob", "b0b"),  # digit zero for o
        ("straße", "STRASSE"),  # ß case folds to ss
        ("victim", "\uff36ictim"),  # fullwidth V
    ],
)
def test_a_look_alike_of_a_taken_username_is_taken(taken, look_alike):
    assert sign_up(taken).status_code == 201
    refused = sign_up(look_alike)
    assert refused.status_code == 409 and refused.json()["code"] == "username_taken", look_alike
    assert User.objects.count() == 1


@pytest.mark.parametrize("name", ["gu\u0435st-k3f9x2ab", "GUEST-abc", "gue\u0455t-x", "\uff47uest-abc"])
def test_no_spelling_of_guest_dash_is_a_username(name):
    refused = sign_up(name)
    assert refused.status_code == 400 and "guest" in refused.json()["fields"]["username"][0]


@pytest.mark.parametrize("name", ["al\u115fice", "al\u3164ice", "\u2800\u2800\u2800", "bo\ufe0fb", "a\u034fbc"])
def test_names_with_characters_that_show_as_nothing_are_refused(name):
    refused = sign_up(name)
    assert refused.status_code == 400 and refused.json()["code"] == "invalid"
    club = client_for(UserFactory()).post("/api/clubs/", {"name": f"club {name}"}, format="json")
    assert club.status_code == 400 and club.json()["code"] == "bad_club_name"


def test_stacked_combining_marks_are_refused_and_ordinary_accents_kept():
    zalgo = "z\u0301\u0302\u0303\u0304alg"
    assert sign_up(zalgo).json()["code"] == "invalid"
    assert sign_up("e\u0301\u0301mma").json()["code"] == "invalid"  # one mark twice on a letter
    assert sign_up("vi\u1ec7t").status_code == 201  # ệ: a letter and two marks, as Vietnamese writes it


def test_the_database_refuses_a_look_alike_written_behind_the_services_back():
    UserFactory(username="alice")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user("\u0430lice")  # the admin or a shell: the key's unique column holds
    assert AccountName.objects.get(user__username="alice").key == canonical_name("alice") == "alice"


def test_a_guest_naming_itself_a_look_alike_is_refused_and_stays_a_guest():
    sign_up("alice")
    client = APIClient()
    guest = client.post("/api/accounts/guest/").json()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {guest['token']}")
    refused = client.post("/api/accounts/signup/", {"username": "\u0430lic\u0435", "password": PASSWORD}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "username_taken"
    assert User.objects.get(pk=guest["id"]).username == guest["username"]
    assert AccountName.objects.get(user_id=guest["id"]).key == canonical_name(guest["username"])


def test_log_in_finds_the_account_by_any_spelling_of_its_key():
    sign_up("alice")
    for spelling in ("alice", "ALICE", "al\u0131ce", "\u0430lice"):
        answer = APIClient().post("/api/accounts/login/", {"username": spelling, "password": PASSWORD}, format="json")
        assert answer.status_code == 200 and answer.json()["username"] == "alice", spelling


def test_a_look_alike_club_name_is_taken_in_the_database_too():
    api = client_for(UserFactory())
    assert api.post("/api/clubs/", {"name": "Straße Owls"}, format="json").status_code == 201
    for name in ("STRASSE OWLS", "Stra\u00dfe \u041ewls", "strasse owls"):
        refused = api.post("/api/clubs/", {"name": name}, format="json")
        assert refused.status_code == 409 and refused.json()["code"] == "club_name_taken", name
    with pytest.raises(IntegrityError), transaction.atomic():
        Club.objects.create(name="STRASSE \u041eWLS", invite_code="another-code")


def test_the_data_migrations_keep_colliding_names_and_key_the_later_ones_apart():
    from importlib import import_module

    from django.apps import apps

    fill_accounts = import_module("pyramid_site.accounts.migrations.0004_account_name_key").keys_fill
    first = User.objects.create_user("mallory", password=PASSWORD)
    second = User.objects.create_user("other", password=PASSWORD)
    AccountName.objects.all().delete()
    User.objects.filter(pk=second.pk).update(username="MALL\u041eRY")  # a name from before the rule
    fill_accounts(apps, None)
    keys = dict(AccountName.objects.values_list("user_id", "key"))
    assert keys == {first.pk: "rnallory", second.pk: f"rnallory#{second.pk}"}
    answer = APIClient().post("/api/accounts/login/", {"username": "MALL\u041eRY", "password": PASSWORD}, format="json")
    assert answer.json().get("id") == second.pk, answer.json()  # it logs in by its own spelling
    assert sign_up("Mallory").json()["code"] == "username_taken"
