"""The compiled rules in the shared `books` cache, the warm-up before the first request, /healthz, and
gunicorn.conf.py's workers ready before their first request."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
from django.core.cache import caches
from django.db import DatabaseError
from django.urls import reverse

from armylists.lists.library import books_cache, catalogue
from armylists.ops import warmup

from tests.conftest import ROOT, RULES_DATA


@pytest.fixture
def books(settings):
    settings.CACHES = {**settings.CACHES, "books": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                                   "LOCATION": "books-test"}}
    caches["books"].clear()
    yield caches["books"]
    caches["books"].clear()


def test_a_library_built_once_is_read_from_the_cache(books, library, monkeypatch):
    built = books_cache.load_library(RULES_DATA)
    assert books.get(books_cache.library_key(RULES_DATA)) is not None
    monkeypatch.setattr(books_cache, "load_tree", lambda root: pytest.fail("built again"))
    again = books_cache.load_library(RULES_DATA)
    assert again is not built and sorted(again.books) == sorted(library.books)
    book = again.book("t9a-0.11", "empire-of-sonnstahl", "0.11.1")
    assert book == library.book("t9a-0.11", "empire-of-sonnstahl", "0.11.1")


def test_the_key_follows_the_rules_data(books, tree):
    before = books_cache.library_key(tree)
    assert before == books_cache.library_key(tree)  # the same files, the same key on any machine
    book = next((tree / "the-old-world" / "books").glob("*.yaml"))
    book.write_text(book.read_text() + "\n# changed\n")
    assert books_cache.library_key(tree) != before


def test_an_unreachable_cache_only_costs_the_build(books, monkeypatch):
    def down(*args, **kwargs):
        raise ConnectionError("redis is down")
    monkeypatch.setattr(books, "get", down)
    monkeypatch.setattr(books, "set", down)
    library = books_cache.load_library(RULES_DATA)
    assert ("t9a-0.11", "empire-of-sonnstahl", "0.11.1") in library.books


def test_a_broken_entry_is_rebuilt(books):
    books.set(books_cache.library_key(RULES_DATA), b"not a pickle", timeout=None)
    library = books_cache.load_library(RULES_DATA)
    assert ("t9a-0.11", "empire-of-sonnstahl", "0.11.1") in library.books
    assert books.get(books_cache.library_key(RULES_DATA)) != b"not a pickle"


def test_warming_loads_the_rules_urls_and_templates(monkeypatch):
    catalogue.disk_library.cache_clear()
    took = warmup.warm()
    assert catalogue.disk_library.cache_info().currsize == 1
    assert set(took) == {"rules", "first_check", "urls", "templates", "books"}
    assert took["books"] == len(catalogue.disk_library().books) > 0


@pytest.mark.django_db
def test_healthz_counts_in_the_shared_cache_and_says_when_the_database_is_down(client, books, monkeypatch):
    first = client.get(reverse("health")).json()
    second = client.get(reverse("health")).json()
    assert (first["status"], first["answered_by_all"], second["answered_by_all"]) == ("ok", 1, 2)
    assert first["caches"] == {"default": "DatabaseCache", "books": "LocMemCache"}  # rate limits: the database
    assert client.get(reverse("health"))["Cache-Control"].startswith("max-age=0")

    def refused():
        raise DatabaseError("connection refused")
    monkeypatch.setattr("armylists.ops.health.connection.ensure_connection", refused)
    down = client.get(reverse("health"))
    assert down.status_code == 503
    assert (down.json()["status"], down.json()["database"]) == ("error", "connection refused")


@pytest.mark.slow
def test_gunicorn_workers_have_the_rules_before_their_first_request(tmp_path):
    """gunicorn with the repository's gunicorn.conf.py: the very first request finds the rules in memory."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "DEBUG": "false", "SECRET_KEY": "test-key", "ALLOWED_HOSTS": "127.0.0.1",
           "DATABASE_URL": f"sqlite:///{tmp_path}/db.sqlite3", "GUNICORN_BIND": f"127.0.0.1:{port}",
           "WEB_CONCURRENCY": "1"}
    env.pop("REDIS_URL", None)
    server = subprocess.Popen([sys.executable, "-m", "gunicorn"], cwd=ROOT, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                answer = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=30))
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    pytest.fail("gunicorn did not start")
                time.sleep(0.1)
        assert (answer["rules_in_memory"], answer["answered_by_all"], answer["status"]) == (True, 1, "ok")
    finally:
        server.terminate()
        log = server.communicate(timeout=30)[0]
    assert "warmed before listening: rules" in log
