"""Production settings from the environment: HTTPS=true turns on HSTS, secure cookies, the redirect and
the proxy header; `check --deploy` is clean; every page carries a Content-Security-Policy and holds no
inline script or style for it to refuse (the browser tests run with it on, tests/browser/)."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import date, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from armylists.models import Event

from ..conftest import ROOT

PRODUCTION = {"DEBUG": "false", "SECRET_KEY": "k7Qw9-zX2pL4mN8vB1cR6tY0uI3oP5aS7dF9gH2jK4lZ6xC8vB0nM", "ALLOWED_HOSTS":
              "lists.example.org", "HTTPS": "true"}


def run_django(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    # Not this run's settings, nor the browser tests' DJANGO_ALLOW_ASYNC_UNSAFE (a deploy check refuses it).
    clean = {k: v for k, v in os.environ.items()
             if k not in ("DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "HTTPS", "DJANGO_ALLOW_ASYNC_UNSAFE")}
    return subprocess.run([sys.executable, *args], cwd=ROOT, env={**clean, **env}, capture_output=True, text=True,
                          timeout=120)


SHOW_SETTINGS = ("import django, json; django.setup(); from django.conf import settings as s; print(json.dumps("
                 "[s.SECURE_SSL_REDIRECT, s.SECURE_PROXY_SSL_HEADER, s.SECURE_HSTS_SECONDS, "
                 "s.SECURE_HSTS_INCLUDE_SUBDOMAINS, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE]))")


class TestHttpsSettings:
    def test_https_true_turns_on_hsts_secure_cookies_the_redirect_and_the_proxy_header(self):
        done = run_django({**PRODUCTION, "DJANGO_SETTINGS_MODULE": "armylists.settings"}, "-c", SHOW_SETTINGS)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == [True, ["HTTP_X_FORWARDED_PROTO", "https"], 31_536_000, True, True, True]

    def test_without_https_they_stay_off_for_plain_http(self):
        done = run_django({"DJANGO_SETTINGS_MODULE": "armylists.settings"}, "-c", SHOW_SETTINGS)
        assert json.loads(done.stdout) == [False, None, 0, False, False, False]

    def test_check_deploy_reports_nothing_in_production(self):
        done = run_django(PRODUCTION, "manage.py", "check", "--deploy", "--fail-level", "WARNING")
        assert done.returncode == 0, done.stdout + done.stderr
        assert "System check identified no issues (0 silenced)." in done.stdout

    def test_check_deploy_names_what_is_missing_without_https(self):
        done = run_django({**PRODUCTION, "HTTPS": "false"}, "manage.py", "check", "--deploy", "--fail-level",
                          "WARNING")
        assert done.returncode == 1
        assert sorted(set(re.findall(r"security\.W0\d\d", done.stderr))) == [
            "security.W004", "security.W008", "security.W012", "security.W016"]

    def test_a_nonsense_https_value_is_refused(self):
        done = run_django({**PRODUCTION, "HTTPS": "maybe"}, "manage.py", "check")
        assert done.returncode == 1
        assert "HTTPS must be true or false, not 'maybe'" in done.stderr


# --- Content-Security-Policy -------------------------------------------------------------------

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>", re.I)
INLINE_STYLE = re.compile(r"<style\b|\sstyle=|\son[a-z]+=", re.I)


@pytest.fixture
def every_page(client, alice, alice_list, bob):
    """Every kind of page a visitor or a signed-in player sees, as (address, client)."""
    event = Event.objects.create(organiser=alice, name="Club GT", date=date.today() + timedelta(days=10),
                                 system="t9a-0.11", points_limit=2400, deadline=timezone.now() + timedelta(days=5))
    unit = alice_list.document["units"][0]["id"]
    anonymous = ["/", reverse("login"), reverse("signup"), reverse("password_reset"), "/api/docs/",
                 reverse("book-detail", args=["t9a-0.11", "empire-of-sonnstahl", "0.11.1"])]
    signed_in = [reverse("my-lists"), reverse("list-new"), reverse("list-detail", args=[alice_list.pk]),
                 reverse("list-edit", args=[alice_list.pk]), reverse("list-edit", args=[alice_list.pk]) + f"?unit={unit}",
                 reverse("list-rename", args=[alice_list.pk]), reverse("list-delete", args=[alice_list.pk]),
                 reverse("event-list"), reverse("event-new"), reverse("event-detail", args=[event.pk]),
                 reverse("event-upload", args=[event.pk]), reverse("password_change")]
    return anonymous, signed_in


@pytest.mark.django_db
def test_every_page_has_a_strict_csp_and_no_inline_script_or_style(client, alice, every_page):
    anonymous, signed_in = every_page
    for address in anonymous + ["login"] + signed_in:
        if address == "login":
            client.force_login(alice)
            continue
        response = client.get(address)
        assert response.status_code == 200, address
        policy = response["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "style-src 'self'" in policy
        assert "unsafe-inline" not in policy and "frame-ancestors 'none'" in policy
        page = response.content.decode()
        assert not INLINE_SCRIPT.findall(page), (address, INLINE_SCRIPT.findall(page))
        assert not INLINE_STYLE.findall(page), (address, INLINE_STYLE.findall(page))


def test_the_readme_lists_every_setting_read_from_the_environment():
    settings_source = (ROOT / "armylists" / "settings.py").read_text()
    read = set(re.findall(r'(?:getenv|envbool|envlist|envcount)\("([A-Z_]+)"', settings_source))
    readme = (ROOT / "README.md").read_text()
    table = set(re.findall(r"^\| `([A-Z_]+)` \|", readme, re.M))
    assert read >= {"HTTPS", "TRUSTED_PROXIES", "REDIS_URL", "RATE_LIMITS", "SECRET_KEY"}
    assert read - table == set()
