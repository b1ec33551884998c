"""The books built from the database shared between processes through the books cache when it is one
that other processes read (Redis with REDIS_URL; issue 39 item 2, docs/deploy.md "Memory"): built by the
first process that needs one, unpickled by every other; built again when what it is built from changes;
never copied into a cache of the process's own memory. A real Redis (redis-server on 127.0.0.1) where
the machine has one, CI's redis stage installs it; else that test skips."""
from __future__ import annotations

import io
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from django.core.cache import caches
from django.core.management import call_command

from armylists.lists.library import books_cache, catalogue
from armylists.models import RulesFile

from tests.conftest import FIXTURES, ROOT, SYSTEM

pytestmark = pytest.mark.django_db
BOOK_FILE = FIXTURES / "rules" / SYSTEM / "books" / "test-book.yaml"
KEY = (SYSTEM, "test-book", "1")   # on no disk of the site's rules: only in the database


@pytest.fixture
def stored_book():
    """Our rules stored (load_rules), and the tests' book stored beside them as a book the disk lacks."""
    call_command("load_rules", stdout=io.StringIO())
    return RulesFile.objects.create(kind="book", system=SYSTEM, slug="test-book", version="1", name="Test Book",
                                    content_hash="test-book-1", data=yaml.safe_load(BOOK_FILE.read_text()))


@pytest.fixture
def builds(monkeypatch):
    """Each build of a book from the database, counted (the real build still runs)."""
    made = []
    real = catalogue.build_from_stored

    def counted(*args, **kwargs):
        made.append(args[-1])
        return real(*args, **kwargs)
    monkeypatch.setattr(catalogue, "build_from_stored", counted)
    return made


def books_cache_as(settings, backend: dict):
    settings.CACHES = {**settings.CACHES, "books": backend}
    caches["books"].clear()
    return caches["books"]


def a_new_process():
    """What a process that never built the book has: nothing in its own BuiltBooks."""
    catalogue._stored_books.clear()


def test_a_book_one_process_built_is_read_by_the_next_without_building(settings, tmp_path, stored_book, builds):
    # A file cache: outside the process's memory, as Redis is.
    shared = books_cache_as(settings, {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
                                       "LOCATION": str(tmp_path / "books")})
    catalogue.disk_library()   # the rules on disk: in the cache already on a running site
    entries = len(list((tmp_path / "books").glob("*.djcache")))
    first = catalogue.get_book(*KEY)
    assert builds == ["stored test-book 1"] and first.name == "Test Book"
    assert len(list((tmp_path / "books").glob("*.djcache"))) == entries + 1
    a_new_process()
    again = catalogue.get_book(*KEY)
    assert builds == ["stored test-book 1"]                 # unpickled, not built
    assert again is not first and again == first
    assert catalogue._stored_books.get(KEY) is again        # and kept in this process's LRU as before
    shared.clear()


def test_other_content_under_the_same_names_is_built_again(settings, tmp_path, stored_book, builds):
    books_cache_as(settings, {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
                              "LOCATION": str(tmp_path / "books")})
    catalogue.get_book(*KEY)
    # Another database (or this one emptied and imported again) holding other content under those names:
    data = {**stored_book.data, "name": "Test Book, reprinted"}
    RulesFile.objects.filter(pk=stored_book.pk).update(data=data, content_hash="test-book-1-reprinted")
    a_new_process()
    assert catalogue.get_book(*KEY).name == "Test Book, reprinted"
    assert builds == ["stored test-book 1", "stored test-book 1"]


def test_the_key_follows_the_engine_source(monkeypatch):
    before = books_cache.stored_book_key(["a", "b"])
    assert before == books_cache.stored_book_key(["a", "b"]) != books_cache.stored_book_key(["a", "c"])
    monkeypatch.setattr(books_cache, "engine_fingerprint", lambda: "another release of the engine")
    assert books_cache.stored_book_key(["a", "b"]) != before


def test_a_cache_in_the_process_memory_is_not_given_the_books(settings, stored_book, builds):
    local = books_cache_as(settings, {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                      "LOCATION": "books-shared-test"})
    assert not books_cache.shares_books()
    catalogue.get_book(*KEY)
    assert builds == ["stored test-book 1"] and local._cache == {}   # kept once: in BuiltBooks only
    a_new_process()
    catalogue.get_book(*KEY)
    assert len(builds) == 2


def test_an_unreachable_cache_or_a_broken_entry_only_costs_the_build(settings, tmp_path, stored_book, builds,
                                                                     monkeypatch):
    shared = books_cache_as(settings, {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
                                       "LOCATION": str(tmp_path / "books")})
    catalogue.disk_library()
    entries = set(shared._list_cache_files())
    catalogue.get_book(*KEY)
    (entry,) = set(shared._list_cache_files()) - entries
    Path(entry).write_bytes(b"not a cache entry")
    a_new_process()
    assert catalogue.get_book(*KEY).name == "Test Book" and len(builds) == 2

    def down(*args, **kwargs):
        raise ConnectionError("redis is down")
    for name in ("get", "set", "touch"):
        monkeypatch.setattr(shared, name, down)
    a_new_process()
    assert catalogue.get_book(*KEY).name == "Test Book" and len(builds) == 3


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def redis_url():
    if not shutil.which("redis-server"):
        pytest.skip("no redis-server on this machine (CI's stages install it: .ci/run start_redis)")
    port = free_port()
    server = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                               "--appendonly", "no"], stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("redis-server did not start")
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_redis_shares_a_book_built_once(settings, redis_url, stored_book, builds):
    # The books cache as settings.py makes it when REDIS_URL is set.
    shared = books_cache_as(settings, {"BACKEND": "django_redis.cache.RedisCache", "LOCATION": redis_url,
                                       "KEY_PREFIX": "armylists-books"})
    assert books_cache.shares_books()
    first = catalogue.get_book(*KEY)
    keys = shared.keys("book:*")
    assert len(keys) == 1 and 0 < shared.ttl(keys[0]) <= books_cache.SHARED_BOOK_SECONDS
    a_new_process()
    assert catalogue.get_book(*KEY) == first and builds == ["stored test-book 1"]


PROCESS = """
import json, django
django.setup()
from armylists.lists.library import catalogue
made, real = [], catalogue.build_from_stored
def counted(*args):
    made.append(args[-1])
    return real(*args)
catalogue.build_from_stored = counted
book = catalogue.get_book(%r, %r, %r)
print("@@" + json.dumps({"built": made, "name": book.name}))
"""


@pytest.mark.slow
def test_two_processes_on_one_redis_build_a_book_once(redis_url, tmp_path):
    """Two processes of the site as settings.py makes it with REDIS_URL (no setting overridden): the
    second reads the book the first built."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path}/site.sqlite3", "REDIS_URL": redis_url,
           "DEBUG": "false", "SECRET_KEY": "test-key", "ALLOWED_HOSTS": "127.0.0.1", "RATE_LIMITS": "off"}

    def run(*args: str) -> str:
        done = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout

    run("manage.py", "migrate", "--verbosity", "0")
    run("manage.py", "load_rules", "--verbosity", "0")
    run("manage.py", "shell", "-c", "from armylists.models import RulesFile; import yaml, pathlib; "
        f"RulesFile.objects.create(kind='book', system={SYSTEM!r}, slug='test-book', version='1', name='Test Book', "
        f"content_hash='test-book-1', data=yaml.safe_load(pathlib.Path({str(BOOK_FILE)!r}).read_text()))")
    answers = []
    for _ in range(2):
        out = run("-c", PROCESS % KEY)
        answers.append(json.loads(next(line for line in out.splitlines() if line.startswith("@@"))[2:]))
    assert answers == [{"built": ["stored test-book 1"], "name": "Test Book"}, {"built": [], "name": "Test Book"}]
