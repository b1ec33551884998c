"""The rate limits' counts, taken atomically: two requests racing on two workers never both take the last place.

    wait = hit("throttle_validate_203.0.113.9", limit=120, duration=60)   # None: let through and counted

A sliding window, as DRF's throttle keeps it (the times of the requests let through in the last
`duration` seconds; a refusal is not counted), but read and written in one step. DRF reads the list
from the cache and writes it back: 200 parallel requests let 140 to 198 through where 120 were
allowed. Django's database cache has no atomic increment (its `incr` is a get then a set), so:

- on Redis (`REDIS_URL`), a Lua script prunes, counts and adds in one command (Redis runs a script whole);
- on the database, `models.RateCount` holds the list and is read and written under the row's lock
  (`SELECT ... FOR UPDATE` on PostgreSQL; SQLite's transactions here begin IMMEDIATE, one writer at a time).

Either way exactly `limit` requests pass in any `duration` seconds, however many workers there are.
"""
from __future__ import annotations

import random
import time
import uuid

from django.conf import settings
from django.db import IntegrityError, transaction

# KEYS[1] the sorted set of hits (score: the time); ARGV now, duration, limit, a unique member.
# Returns -1 when let through, else the time of the oldest hit in the window (as text: Redis cuts numbers).
_SCRIPT = """
local now, duration, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - duration)
if redis.call('ZCARD', KEYS[1]) < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('EXPIRE', KEYS[1], math.ceil(duration))
  return '-1'
end
return redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]
"""
PURGE_EVERY = 100  # about one request in this many deletes the database's counts whose window has ended


def hit(key: str, limit: int, duration: float, now: float | None = None) -> float | None:
    """Count a request under `key` if fewer than `limit` were let through in the last `duration` seconds
    (None), else the seconds until one of those leaves the window (nothing counted)."""
    now = time.time() if now is None else now
    if settings.CACHES["default"]["BACKEND"].startswith("django_redis."):
        wait = _hit_redis(key, limit, duration, now)
    else:
        wait = _hit_database(key, limit, duration, now)
    # `now` is read before the lock: a request that read it, then waited while another (a moment later) took
    # the lock and was counted, may find that hit newer than its `now`, and its wait a hair over the window.
    return None if wait is None else min(wait, duration)


def _hit_redis(key: str, limit: int, duration: float, now: float) -> float | None:
    from django.core.cache import cache
    from django_redis import get_redis_connection

    oldest = float(get_redis_connection("default").eval(_SCRIPT, 1, cache.make_key(key), repr(now), repr(duration),
                                                        str(limit), f"{now!r}-{uuid.uuid4().hex}"))
    return None if oldest < 0 else max(0.0, oldest + duration - now)


def _hit_database(key: str, limit: int, duration: float, now: float) -> float | None:
    from armylists.models import RateCount

    with transaction.atomic():
        row = RateCount.objects.select_for_update().filter(key=key).first()
        if row is None:
            try:
                with transaction.atomic():  # two first requests: one creates, the other waits, then locks it
                    row = RateCount.objects.create(key=key, hits=[], expires=now + duration)
            except IntegrityError:
                row = RateCount.objects.select_for_update().get(key=key)
        hits = [t for t in row.hits if t > now - duration]
        if len(hits) >= limit:
            return max(0.0, hits[0] + duration - now)
        row.hits, row.expires = sorted(hits + [now]), max([now, *hits]) + duration  # `now` may be older (hit)
        row.save(update_fields=["hits", "expires"])
    if random.randrange(PURGE_EVERY) == 0:
        RateCount.objects.filter(expires__lt=now).delete()
    return None
