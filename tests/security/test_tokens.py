"""API tokens (django-rest-knox): a user lists, names, creates and revokes them on a page and through the
API; only a hash is stored; they may expire; a password change revokes them all."""
from __future__ import annotations

import hashlib
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from armylists.models import ApiToken

pytestmark = pytest.mark.django_db


def lists_with(client, token: str) -> int:
    return client.get("/api/v1/lists/", HTTP_AUTHORIZATION=f"Token {token}").status_code


class TestTheApi:
    def test_the_token_endpoint_makes_a_named_expiring_token_stored_only_as_a_hash(self, client, alice):
        response = client.post("/api/v1/auth/token/", {"username": "alice", "password": "alice-password-1",
                                                       "name": "my script"}, content_type="application/json")
        assert response.status_code == 201
        body = response.json()
        token = body["token"]
        stored = ApiToken.objects.get()
        assert (stored.user, stored.name, body["id"], body["name"]) == (alice, "my script", token[:15], "my script")
        assert stored.digest == hashlib.sha512(token.encode()).hexdigest() and token not in stored.digest
        assert timedelta(days=89, hours=23) < stored.expiry - timezone.now() <= timedelta(days=90)
        assert lists_with(client, token) == 200

    def test_a_user_lists_creates_and_revokes_their_tokens(self, client, alice, bob):
        first = ApiToken.objects.create(alice, expiry=None, name="laptop")[1]
        api = {"HTTP_AUTHORIZATION": f"Token {first}"}
        made = client.post("/api/v1/auth/tokens/", {"name": "club PC", "expires_in_days": 7},
                           content_type="application/json", **api)
        assert made.status_code == 201
        second = made.json()["token"]
        listed = client.get("/api/v1/auth/tokens/", **api).json()
        assert [(t["name"], t["id"]) for t in listed] == [("club PC", second[:15]), ("laptop", first[:15])]
        assert listed[1]["expiry"] is None and "token" not in listed[0]
        assert client.delete(f"/api/v1/auth/tokens/{second[:15]}/", **api).status_code == 204
        assert lists_with(client, second) == 401 and lists_with(client, first) == 200

    def test_nobody_revokes_or_sees_anothers_tokens(self, client, alice, bob):
        alices = ApiToken.objects.create(alice, expiry=None, name="laptop")[1]
        bobs = ApiToken.objects.create(bob, expiry=None, name="bob's")[1]
        api = {"HTTP_AUTHORIZATION": f"Token {bobs}"}
        assert [t["name"] for t in client.get("/api/v1/auth/tokens/", **api).json()] == ["bob's"]
        response = client.delete(f"/api/v1/auth/tokens/{alices[:15]}/", **api)
        assert response.status_code == 404 and response.json()["error"]["message"] == "No such token."
        assert lists_with(client, alices) == 200

    def test_an_expired_token_no_longer_works(self, client, alice):
        token = ApiToken.objects.create(alice, expiry=timedelta(days=1), name="short")[1]
        ApiToken.objects.update(expiry=timezone.now() - timedelta(seconds=1))
        assert lists_with(client, token) == 401

    @pytest.mark.parametrize("body, message", [
        ({"name": "x" * 81}, "name: Ensure this field has no more than 80 characters."),
        ({"name": "n", "expires_in_days": 0}, "expires_in_days: Ensure this value is greater than or equal to 1."),
        ({"name": "n", "expires_in_days": 3651}, "expires_in_days: Ensure this value is less than or equal to 3650."),
    ])
    def test_a_bad_request_says_why_and_makes_nothing(self, api_alice, body, message):
        response = api_alice.post("/api/v1/auth/tokens/", body, format="json")
        assert response.status_code == 400 and response.json()["error"]["message"] == message
        assert not ApiToken.objects.exists()

    def test_a_user_has_at_most_fifty_tokens(self, api_alice, alice):
        for i in range(50):
            ApiToken.objects.create(alice, expiry=None, name=f"t{i}")
        response = api_alice.post("/api/v1/auth/tokens/", {"name": "one more"}, format="json")
        assert response.status_code == 400
        assert response.json()["error"]["message"] == ("You have 50 tokens, the most allowed; revoke one you no "
                                                       "longer use.")
        assert ApiToken.objects.count() == 50

    def test_a_password_change_revokes_every_token(self, client, alice, bob):
        tokens = [ApiToken.objects.create(alice, expiry=None, name=n)[1] for n in ("a", "b")]
        bobs = ApiToken.objects.create(bob, expiry=None, name="bob's")[1]
        client.force_login(alice)
        response = client.post(reverse("password_change"), {"old_password": "alice-password-1",
                                                            "new_password1": "another-password-77",
                                                            "new_password2": "another-password-77"})
        assert response.status_code == 302
        assert [lists_with(client, t) for t in tokens] == [401, 401]
        assert lists_with(client, bobs) == 200
        assert list(ApiToken.objects.values_list("name", flat=True)) == ["bob's"]


class TestThePage:
    def test_it_makes_a_token_shows_it_once_and_revokes_it(self, client, alice):
        client.force_login(alice)
        response = client.post(reverse("tokens"), {"name": "spreadsheet", "expires": "30"})
        assert response.status_code == 200
        stored = ApiToken.objects.get()
        page = response.content.decode()
        token = page.split('id="new-token" aria-label="The new token" size="70"')[0].rsplit('value="', 1)[1][:-2]
        assert token.startswith(stored.token_key) and len(token) == 64
        assert hashlib.sha512(token.encode()).hexdigest() == stored.digest
        assert timedelta(days=29, hours=23) < stored.expiry - timezone.now() <= timedelta(days=30)
        listing = client.get(reverse("tokens")).content.decode()
        assert "spreadsheet" in listing and stored.token_key in listing and token not in listing
        client.post(reverse("token-revoke", args=[stored.token_key]))
        assert not ApiToken.objects.exists()
        assert lists_with(client, token) == 401

    def test_a_token_may_never_expire_and_a_bad_form_says_why(self, client, alice):
        client.force_login(alice)
        client.post(reverse("tokens"), {"name": "forever", "expires": "never"})
        assert ApiToken.objects.get().expiry is None
        response = client.post(reverse("tokens"), {"name": "", "expires": "30"})
        assert response.status_code == 400 and "This field is required." in response.content.decode()
        assert ApiToken.objects.count() == 1
