"""Rate limits (armylists/accounts/rate_limits.py) on validate, writes, imports, exports and login: per user when
signed in, per client address otherwise, the address from X-Forwarded-For only through TRUSTED_PROXIES;
one count in the cache every worker shares (two gunicorn processes below, on the database cache and on
Redis)."""
from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from datetime import date, timedelta
from pathlib import Path

import pytest
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone
from rest_framework.throttling import ScopedRateThrottle

from armylists.models import ArmyList, Event

from ..conftest import ROOT

pytestmark = pytest.mark.django_db


@pytest.fixture
def rates(monkeypatch):
    """rates(write="2/minute", ...): these limits for this test, the others off."""
    from django.core.cache import cache
    cache.clear()

    def set_rates(**given):
        monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {
            scope: given.get(scope) for scope in ("validate", "write", "import", "export", "login")})
    yield set_rates
    cache.clear()


def create(client, document, **headers):
    return client.post("/api/v1/lists/", json.dumps({"document": document}), content_type="application/json",
                       **headers)


class TestScopes:
    def test_writes_are_counted_per_user_across_the_api_and_the_site(self, rates, client, alice, bob, alice_list,
                                                                     legal_document):
        rates(write="3/minute")
        client.force_login(alice)
        assert [create(client, legal_document).status_code for _ in range(2)] == [201, 201]
        rename = client.post(reverse("list-rename", args=[alice_list.pk]), {"name": "Third write",
                                                                              "revision": alice_list.revision})
        assert rename.status_code == 302
        refused = create(client, legal_document)
        assert refused.status_code == 429 and 1 <= int(refused["Retry-After"]) <= 60
        assert refused.json()["error"]["code"] == "throttled"
        page = client.post(reverse("list-rename", args=[alice_list.pk]), {"name": "Fourth", "revision": 2})
        assert page.status_code == 429 and "Too many requests: try again in" in page.content.decode()
        assert ArmyList.objects.filter(owner=alice).count() == 3
        assert ArmyList.objects.get(pk=alice_list.pk).name == "Third write"
        client.force_login(bob)
        assert create(client, legal_document).status_code == 201  # bob has his own count

    def test_reads_are_not_limited_by_the_write_count(self, rates, api_alice, alice_list):
        rates(write="1/minute")
        assert [api_alice.get(f"/api/v1/lists/{alice_list.pk}/").status_code for _ in range(3)] == [200] * 3

    def test_validate_is_counted_per_address_when_anonymous(self, rates, api_anonymous, legal_document):
        rates(validate="2/minute")
        body = json.dumps(legal_document)

        def validate(address, forwarded=None):
            extra = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded else {}
            return api_anonymous.post("/api/v1/validate/", body, content_type="application/json",
                                      REMOTE_ADDR=address, **extra).status_code

        assert [validate("203.0.113.1") for _ in range(3)] == [200, 200, 429]
        # A made-up X-Forwarded-For changes nothing: no proxy is trusted by default.
        assert validate("203.0.113.1", forwarded="198.51.100.99") == 429
        assert validate("203.0.113.2") == 200

    @override_settings(TRUSTED_PROXIES=1)
    def test_behind_one_trusted_proxy_the_client_is_the_address_it_appended(self, rates, api_anonymous,
                                                                            legal_document):
        rates(validate="2/minute")
        body = json.dumps(legal_document)

        def validate(forwarded):
            return api_anonymous.post("/api/v1/validate/", body, content_type="application/json",
                                      REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=forwarded).status_code

        # The client's own made-up entries come first; the proxy appends the real address last.
        assert [validate(f"1.1.1.{i}, 198.51.100.4") for i in range(3)] == [200, 200, 429]
        assert validate("198.51.100.5") == 200
        assert validate("not-an-address") == 200  # a broken header falls back to the proxy's address...
        assert validate("also broken") == 200
        assert validate("nonsense") == 429  # ...which is counted like any client

    def test_imports_exports_and_logins_have_their_own_limits(self, rates, client, api_alice, alice, alice_list,
                                                              legal_document):
        rates(**{"import": "1/minute", "export": "1/minute", "login": "2/minute"})
        body = json.dumps(legal_document)
        codes = [api_alice.post("/api/v1/lists/import/", body, content_type="application/json").status_code
                 for _ in range(2)]
        assert codes == [201, 429]
        assert [api_alice.get(f"/api/v1/lists/{alice_list.pk}/export/?as=text").status_code
                for _ in range(2)] == [200, 429]
        client.force_login(alice)
        assert client.get(reverse("list-download", args=[alice_list.pk, "txt"])).status_code == 429
        client.logout()
        logins = [client.post(reverse("login"), {"username": "alice", "password": "wrong"}).status_code
                  for _ in range(3)]
        assert logins == [200, 200, 429]
        assert client.post("/api/v1/auth/token/", {"username": "alice", "password": "x"}).status_code == 429

    def test_the_site_import_is_counted_with_the_api_imports(self, rates, client, api_alice, alice, legal_document):
        rates(**{"import": "2/minute"})
        client.force_login(alice)
        pasted = {"text": json.dumps(legal_document)}
        first = client.post(reverse("list-import"), pasted)
        assert first.status_code == 302
        assert api_alice.post("/api/v1/lists/import/", json.dumps(legal_document),
                              content_type="application/json").status_code == 201
        refused = client.post(reverse("list-import"), pasted)
        assert refused.status_code == 429 and "Too many requests: try again in" in refused.content.decode()
        assert ArmyList.objects.filter(owner=alice).count() == 2
        assert client.get(reverse("list-import")).status_code == 200  # the form itself is not an import

    def test_revoking_tokens_exporting_players_and_reports_are_counted(self, rates, client, api_alice, alice,
                                                                       alice_list, legal_document):
        rates(write="1/minute", export="2/minute", validate="1/minute")
        client.force_login(alice)
        revokes = [client.post(reverse("token-revoke", args=[f"no-such-{i}"])).status_code for i in range(2)]
        assert revokes == [302, 429]
        event = Event.objects.create(organiser=alice, name="Club GT", date=date.today() + timedelta(days=10),
                                     system="t9a-0.11", points_limit=2400, deadline=timezone.now() + timedelta(days=5))
        assert client.get(reverse("event-players-csv", args=[event.pk])).status_code == 200
        assert client.post(reverse("event-muster-start", args=[event.pk])).status_code == 302
        assert client.get(reverse("event-players-csv", args=[event.pk])).status_code == 429
        reports = [api_alice.get(f"/api/v1/lists/{alice_list.pk}/report/").status_code for _ in range(2)]
        assert reports == [200, 429]


# --- one count shared by two worker processes ---------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def redis_server():
    port = free_port()
    server = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                               "--appendonly", "no"], stdout=subprocess.DEVNULL)
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        server.terminate()
        server.wait(timeout=10)


@contextmanager
def workers_database(tmp: Path):
    """The workers' own database: on the tests' database server when that is PostgreSQL (CI's postgres
    stage; a fresh database, dropped after), else a SQLite file in `tmp`. It was SQLite on every stage, so
    the postgres stage never saw these counts taken on PostgreSQL."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        yield f"sqlite:///{tmp}/shared.sqlite3"
        return
    import secrets
    from urllib.parse import urlsplit, urlunsplit

    import psycopg

    name = f"armylists_workers_{secrets.token_hex(6)}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield urlunsplit(urlsplit(url)._replace(path=f"/{name}"))
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def two_workers(tmp: Path, extra_env: dict[str, str]):
    """Two gunicorn processes (one worker each) on loopback, one database (`workers_database`): their URLs."""
    with workers_database(tmp) as database:
        with _two_workers(database, extra_env) as urls:
            yield urls


@contextmanager
def _two_workers(database: str, extra_env: dict[str, str]):
    env = {**os.environ, "DEBUG": "false", "SECRET_KEY": "two-workers-test-key", "ALLOWED_HOSTS": "127.0.0.1",
           "DATABASE_URL": database, "RATE_LIMITS": "on", "VALIDATE_RATE": "4/minute",
           **extra_env}
    subprocess.run([sys.executable, "manage.py", "migrate", "--verbosity", "0"], cwd=ROOT, env=env, check=True)
    ports = [free_port(), free_port()]
    servers = [subprocess.Popen([sys.executable, "-m", "gunicorn", "armylists.wsgi:application", "--bind",
                                 f"127.0.0.1:{port}", "--workers", "1", "--log-level", "warning"], cwd=ROOT, env=env)
               for port in ports]
    urls = [f"http://127.0.0.1:{port}" for port in ports]
    try:
        for url in urls:
            for _ in range(150):
                try:
                    urllib.request.urlopen(f"{url}/api/v1/systems/", timeout=1)
                    break
                except OSError:
                    time.sleep(0.1)
        yield urls
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=10)


def post_status(url: str, body: bytes) -> int:
    request = urllib.request.Request(f"{url}/api/v1/validate/", data=body, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


CACHES = ["database"] + (["redis"] if shutil.which("redis-server") else [])


@pytest.mark.slow
@pytest.mark.parametrize("cache", CACHES)
def test_two_workers_share_one_count(cache, legal_document):
    body = json.dumps(legal_document).encode()
    with tempfile.TemporaryDirectory(prefix="armylists-workers-") as tmp:
        with (redis_server() if cache == "redis" else _nothing()) as redis_url:
            with two_workers(Path(tmp), {"REDIS_URL": redis_url} if redis_url else {}) as (first, second):
                # Alternating: each process sees only half the requests; a count per process would
                # allow all eight (4/minute each), the shared one refuses from the fifth.
                codes = [post_status(url, body) for url in (first, second) * 4]
    assert codes == [200, 200, 200, 200, 429, 429, 429, 429]


@contextmanager
def _nothing():
    yield ""
