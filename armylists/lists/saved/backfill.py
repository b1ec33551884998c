"""The history entries of revisions saved before each revision kept its own (issue 39 item 4): what changed
since the one before and the verdict, worked out once and stored as a history page would on showing it, so
a long history's first reading reads no document (lists/saved/history.py reads the stored entry).

    backfill_verdicts([ListRevision][, chunk]) -> (stored, left)

Run by migration 0020 (once, on `migrate`) and by `manage.py backfill_revisions` (any time again: it is
idempotent, only revisions without a summary are read). Memory stays bounded whatever the number of
revisions: their ids are read a chunk at a time and each document is read, checked and let go in turn
(the one before it kept for the next of the same list); books are kept by the catalogue's LRU within its
budget. A revision that cannot be checked now (its book is not on the site) is left without a summary:
the history page says why when it is shown, and a later run stores it once the book is loaded.
"""
from __future__ import annotations

from collections.abc import Callable

from armylists.lists.saved.history import summarise_stored
from armylists.management.query_log import no_query_log

CHUNK = 200  # revisions whose ids are read at once; their documents are read one by one


def backfill_verdicts(revisions=None, chunk: int = CHUNK, said: Callable[[str], None] | None = None) -> tuple[int, int]:
    """Give every revision without a summary its history entry (what changed since the one before, its
    verdict), stored; returns (stored, left unchecked). `revisions`: the ListRevision model whose rows are
    listed (a migration passes its historical one)."""
    if revisions is None:
        from armylists.models import ListRevision as revisions
    pending = revisions.objects.filter(summary__isnull=True)
    stored = left = 0
    last, read, read_of = 0, {}, None
    with no_query_log():   # with DEBUG on, every query would be kept for the whole run
        while True:
            rows = list(pending.filter(pk__gt=last).order_by("pk").values_list("pk", "army_list_id", "revision")[:chunk])
            if not rows:
                break
            last = rows[-1][0]
            for pk, list_id, number in rows:
                if list_id != read_of:   # what was read is kept for the next revision of the same list only
                    read, read_of = {}, list_id
                entry = summarise_stored(list_id, pk, number, read)
                for kept in [n for n in read if n != number]:
                    del read[kept]
                if entry["verdict"] is None:
                    left += 1   # cannot be checked now (its book is not on the site): left for a later run
                    continue
                # Its verdict at least, where what changed could not be said (the one before it has no book
                # on the site): the page works that out when it shows it.
                revisions.objects.filter(pk=pk, summary__isnull=True).update(summary={"verdict": entry["verdict"]})
                stored += 1
            if said is not None:
                said(f"{stored} revisions given their entries, {left} not checkable now (up to revision id {last})")
    return stored, left
