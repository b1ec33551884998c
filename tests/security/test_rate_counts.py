"""The rate limits' counts (armylists/accounts/rate_counts.py) are taken atomically: 200 requests at once,
from threads here and through two gunicorn workers in the slow test, let exactly the limit through,
on the database and on Redis (when `redis-server` is installed; CI installs it)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.db import connection
from django.test import override_settings

from armylists.accounts.rate_counts import hit
from armylists.models import RateCount

from ..conftest import ROOT
from .test_rate_limits import CACHES, _nothing, post_status, redis_server, two_workers

PARALLEL = 200


def at_once(count: int, call) -> list:
    with ThreadPoolExecutor(max_workers=50) as pool:
        return list(pool.map(lambda _: call(), range(count)))


THREADED = """
import django, json, sys
from concurrent.futures import ThreadPoolExecutor
django.setup()
from django.db import connection
from armylists.accounts.rate_counts import hit

def one(_):
    try:
        return hit("throttle_validate_203.0.113.9", 120, 60)
    finally:
        connection.close()

with ThreadPoolExecutor(max_workers=50) as pool:
    print(json.dumps(list(pool.map(one, range(int(sys.argv[1]))))))
"""


@pytest.mark.django_db(transaction=True)
def test_200_requests_at_once_let_exactly_the_limit_through_on_the_database(tmp_path):
    """On PostgreSQL (CI's postgres stage) threads here, each with its connection to the tests' database;
    on SQLite in a process of its own on a database file: the tests' SQLite database in memory cannot be
    shared by threads that write (its shared cache answers "table is locked" at once instead of waiting)."""
    if connection.vendor != "sqlite":
        def one():
            try:
                return hit("throttle_validate_203.0.113.9", 120, 60)
            finally:
                connection.close()
        waits = at_once(PARALLEL, one)
    else:
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "armylists.settings", "SECRET_KEY": "threads-test-key",
               "DATABASE_URL": f"sqlite:///{tmp_path}/counts.sqlite3"}
        subprocess.run([sys.executable, "manage.py", "migrate", "--verbosity", "0"], cwd=ROOT, env=env, check=True)
        waits = json.loads(subprocess.run([sys.executable, "-c", THREADED, str(PARALLEL)], cwd=ROOT, env=env,
                                          check=True, capture_output=True, text=True).stdout)
    assert waits.count(None) == 120
    assert all(0 < w <= 60 for w in waits if w is not None)


@pytest.mark.skipif("redis" not in CACHES, reason="redis-server is not installed")
def test_200_requests_at_once_let_exactly_the_limit_through_on_redis():
    from redis.exceptions import ConnectionError

    with redis_server() as url, override_settings(CACHES={"default": {"BACKEND": "django_redis.cache.RedisCache",
                                                                      "LOCATION": url}}):
        for _ in range(50):  # the server may still be starting
            try:
                hit("throttle_warm", 1, 60)
                break
            except ConnectionError:
                time.sleep(0.1)
        waits = at_once(PARALLEL, lambda: hit("throttle_validate_203.0.113.9", 120, 60))
    assert waits.count(None) == 120


@pytest.mark.django_db
def test_the_window_slides_and_a_refusal_is_not_counted():
    assert [hit("k", 2, 60, now=t) for t in (0.0, 10.0)] == [None, None]
    assert hit("k", 2, 60, now=30.0) == 30.0  # the hit at 0 leaves the window at 60
    assert hit("k", 2, 60, now=60.5) is None  # 0 has left: 10 and 60.5 counted, 30 never was
    assert hit("k", 2, 60, now=69.0) == 1.0
    assert RateCount.objects.get(key="k").hits == [10.0, 60.5]


@pytest.mark.slow
@pytest.mark.parametrize("cache", CACHES)
def test_200_parallel_requests_through_two_gunicorn_workers_let_exactly_the_limit_through(cache, legal_document):
    """The validator's real rate (120/minute), two processes, 200 requests in parallel alternating between them."""
    body = json.dumps(legal_document).encode()
    with tempfile.TemporaryDirectory(prefix="armylists-workers-") as tmp:
        with (redis_server() if cache == "redis" else _nothing()) as redis_url:
            env = {"VALIDATE_RATE": "120/minute", **({"REDIS_URL": redis_url} if redis_url else {})}
            with two_workers(Path(tmp), env) as urls:
                with ThreadPoolExecutor(max_workers=PARALLEL) as pool:
                    codes = list(pool.map(lambda i: post_status(urls[i % 2], body), range(PARALLEL)))
    assert (codes.count(200), codes.count(429)) == (120, 80)
