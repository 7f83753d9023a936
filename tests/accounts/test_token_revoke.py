"""A guest's token is its only key: revoking it would lose the account and its games for good, so it is refused
until the guest signs up; a named account revokes as before."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-pass-phrase"


def test_a_guest_cannot_revoke_its_only_key_until_it_signs_up():
    client = APIClient()
    guest = client.post("/api/accounts/guest/").json()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {guest['token']}")
    refused = client.delete("/api/accounts/token/")
    assert refused.status_code == 409 and refused.json()["code"] == "sign_up_first"
    assert Token.objects.filter(user_id=guest["id"], key=guest["token"]).exists()
    assert client.get("/api/accounts/me/").json()["id"] == guest["id"]  # the key still opens the account
    assert (
        client.post("/api/accounts/signup/", {"username": "kept", "password": PASSWORD}, format="json").status_code
        == 200
    )
    assert client.delete("/api/accounts/token/").status_code == 204  # with a password it may
    assert client.get("/api/accounts/me/").status_code == 401
    assert (
        APIClient().post("/api/accounts/login/", {"username": "kept", "password": PASSWORD}, format="json").json()["id"]
        == guest["id"]
    )
