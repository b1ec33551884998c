"""Commands keep no log of their queries, even under DEBUG (the README's default settings).

With DEBUG on, Django keeps the text of each connection's last 9,000 queries, parameters written in; an
import writing books of up to 8 MB of JSON a row held them all while it ran (import_battlescribe of the
Old World data: 406 MB with DEBUG on, 280 MB off; issue 39 item 3). A command that reads or writes many
large rows runs inside `no_query_log()`; the queries still run, only their text is not kept.
"""
from __future__ import annotations

from collections import deque
from contextlib import contextmanager
from typing import Iterator

from django.db import connections


@contextmanager
def no_query_log() -> Iterator[None]:
    saved = {}
    for connection in connections.all(initialized_only=False):
        saved[connection.alias] = connection.queries_log
        connection.queries_log = deque(maxlen=0)  # what is logged is dropped at once
    try:
        yield
    finally:
        for connection in connections.all(initialized_only=False):
            if connection.alias in saved:
                connection.queries_log = saved[connection.alias]
