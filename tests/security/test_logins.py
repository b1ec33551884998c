"""Brute-force protection (django-axes) on the login form and the token endpoint: five failures for one
account, or from one address, lock log-ins for 15 minutes with a clear message; the password reset
ends the lockout at once (settings.AXES_*; armylists/accounts/login_lockout.py)."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from armylists.models import ApiToken

pytestmark = pytest.mark.django_db

LOCKED = ("Too many failed log-ins for this account or from your address: logging in is locked for 15 minutes. "
          "Wait, or reset your password to unlock it at once.")


def log_in(client, username, password, address="203.0.113.7"):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address)


def get_token(client, username, password, address="203.0.113.7"):
    return client.post("/api/v1/auth/token/", {"username": username, "password": password}, REMOTE_ADDR=address)


class TestLoginForm:
    def test_the_fifth_failure_for_an_account_locks_it_even_with_the_right_password(self, client, alice):
        codes = [log_in(client, "alice", "wrong", f"203.0.113.{i}").status_code for i in range(4)]
        assert codes == [200] * 4  # the form again, with its error
        locked = log_in(client, "alice", "wrong", "203.0.113.50")
        assert locked.status_code == 429
        assert LOCKED in locked.content.decode()
        assert reverse("password_reset") in locked.content.decode()
        # Locked: even the right password, from another address, does not log in.
        right = log_in(client, "alice", "alice-password-1", "198.51.100.1")
        assert right.status_code == 429 and "_auth_user_id" not in client.session

    def test_four_failures_then_the_right_password_logs_in_and_clears_the_count(self, client, alice):
        for _ in range(4):
            log_in(client, "alice", "wrong")
        assert log_in(client, "alice", "alice-password-1").status_code == 302
        client.logout()
        for _ in range(4):
            assert log_in(client, "alice", "wrong").status_code == 200

    def test_five_failures_from_one_address_lock_that_address_for_every_account(self, client, alice, bob):
        for name in ("carol", "dave", "erin", "frank", "gina"):
            log_in(client, name, "guess", "192.0.2.9")
        assert log_in(client, "bob", "bob-password-1", "192.0.2.9").status_code == 429
        assert log_in(client, "bob", "bob-password-1", "192.0.2.10").status_code == 302

    def test_the_lockout_ends_after_the_cooloff(self, client, alice):
        from axes.models import AccessAttempt

        for _ in range(5):
            log_in(client, "alice", "wrong")
        AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
        assert log_in(client, "alice", "alice-password-1").status_code == 302

    def test_a_password_reset_unlocks_the_account(self, client, alice):
        for i in range(5):
            log_in(client, "alice", "wrong", f"203.0.113.{i}")
        client.post(reverse("password_reset"), {"email": "alice@example.com"})
        link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
        form_url = client.get(link).url
        done = client.post(form_url, {"new_password1": "a-brand-new-password-9", "new_password2": "a-brand-new-password-9"})
        assert done.status_code == 302
        assert log_in(client, "alice", "a-brand-new-password-9", "198.51.100.1").status_code == 302


class TestTokenEndpoint:
    def test_it_is_locked_the_same_way_with_the_apis_error_shape(self, client, alice):
        for i in range(4):
            response = get_token(client, "alice", "wrong", f"203.0.113.{i}")
            assert response.status_code == 400
            assert response.json()["error"]["message"] == "Unable to log in with that username and password."
        locked = get_token(client, "alice", "wrong")
        assert locked.status_code == 429
        assert locked.json()["error"] == {"status": 429, "code": "locked_out", "message": LOCKED, "fields": []}
        assert get_token(client, "alice", "alice-password-1", "198.51.100.1").status_code == 429
        assert not ApiToken.objects.exists()

    def test_failures_on_the_form_and_the_endpoint_count_together(self, client, alice):
        for _ in range(3):
            log_in(client, "alice", "wrong")
        for _ in range(2):
            get_token(client, "alice", "wrong")
        assert log_in(client, "alice", "alice-password-1", "198.51.100.1").status_code == 429
