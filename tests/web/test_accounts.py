"""Accounts: sign up, log in and out, change and reset the password (mail goes to the outbox)."""
from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

pytestmark = pytest.mark.django_db


class TestSignUp:
    def test_it_creates_the_account_logs_in_and_starts_a_list(self, client):
        response = client.post(reverse("signup"), {"username": "dora", "email": "dora@example.com",
                                                    "password1": "a-long-pass-phrase-9", "password2": "a-long-pass-phrase-9"})
        assert response["Location"] == reverse("list-new")
        user = get_user_model().objects.get(username="dora")
        assert user.email == "dora@example.com" and user.check_password("a-long-pass-phrase-9")
        assert client.get(reverse("my-lists")).status_code == 200  # logged in

    def test_it_goes_on_to_the_page_asked_for(self, client):
        response = client.post(reverse("signup") + "?next=/lists/", {
            "username": "dora", "password1": "a-long-pass-phrase-9", "password2": "a-long-pass-phrase-9",
            "next": "/lists/"})
        assert response["Location"] == "/lists/"

    def test_it_never_goes_on_to_another_site(self, client):
        response = client.post(reverse("signup"), {"username": "dora", "password1": "a-long-pass-phrase-9",
                                                    "password2": "a-long-pass-phrase-9", "next": "https://evil.example/"})
        assert response["Location"] == reverse("list-new")

    def test_errors_are_shown_next_to_their_field(self, client, alice):
        response = client.post(reverse("signup"), {"username": "alice", "password1": "a-long-pass-phrase-9",
                                                    "password2": "another-phrase-9"})
        assert response.status_code == 400
        errors = response.context["form"].errors
        assert errors["username"] == ["A user with that username already exists."]
        assert errors["password2"] == ["The two password fields didn’t match."]
        content = response.content.decode()
        assert content.index('for="id_password2"') < content.index("The two password fields didn’t match.")
        assert get_user_model().objects.count() == 1

    def test_a_logged_in_user_goes_to_their_lists(self, client_alice):
        assert client_alice.get(reverse("signup"))["Location"] == reverse("my-lists")


class TestLogInAndOut:
    def test_it_logs_in_and_goes_to_my_lists(self, client, alice):
        response = client.post(reverse("login"), {"username": "alice", "password": "alice-password-1"})
        assert response["Location"] == reverse("my-lists")

    def test_a_wrong_password_is_an_error(self, client, alice):
        response = client.post(reverse("login"), {"username": "alice", "password": "nope"})
        assert response.status_code == 200
        assert "Please enter a correct username and password." in response.content.decode()

    def test_log_out_is_a_post_and_goes_home(self, client_alice):
        response = client_alice.post(reverse("logout"))
        assert response["Location"] == reverse("home")
        assert client_alice.get(reverse("my-lists"))["Location"].startswith(reverse("login"))


class TestPasswords:
    def test_it_changes_the_password(self, client_alice, alice):
        response = client_alice.post(reverse("password_change"), {
            "old_password": "alice-password-1", "new_password1": "a-new-pass-phrase-7",
            "new_password2": "a-new-pass-phrase-7"})
        assert response["Location"] == reverse("password_change_done")
        alice.refresh_from_db()
        assert alice.check_password("a-new-pass-phrase-7")

    def test_it_mails_a_reset_link_that_sets_a_new_password(self, client, alice):
        response = client.post(reverse("password_reset"), {"email": "alice@example.com"})
        assert response["Location"] == reverse("password_reset_done")
        [message] = mail.outbox
        assert message.subject == "Reset your Army lists password"
        link = re.search(r"http://testserver(/accounts/reset/\S+/)", message.body).group(1)
        form = client.get(link, follow=True)
        assert form.context["validlink"] is True
        done = client.post(form.redirect_chain[-1][0], {"new_password1": "a-new-pass-phrase-7",
                                                        "new_password2": "a-new-pass-phrase-7"})
        assert done["Location"] == reverse("password_reset_complete")
        alice.refresh_from_db()
        assert alice.check_password("a-new-pass-phrase-7")

    def test_the_pages_render(self, client, client_alice):
        for name in ("password_change", "password_change_done"):
            assert client_alice.get(reverse(name)).status_code == 200
        client_alice.post(reverse("logout"))
        for name in ("login", "signup", "password_reset", "password_reset_done", "password_reset_complete"):
            assert client.get(reverse(name)).status_code == 200
