"""The verdicts of revisions saved before each revision kept its own (issue 39 item 4): worked out once and
stored, so a long history's first reading checks nothing (lists/saved/history.py reads a stored verdict).

    backfill_verdicts([ListRevision][, chunk]) -> (stored, left)

Run by migration 0020 (once, on `migrate`) and by `manage.py backfill_revisions` (any time again: it is
idempotent, only revisions without a summary are read). Memory stays bounded whatever the number of
revisions: their ids are read a chunk at a time and each document is read, checked and let go in turn;
books are kept by the catalogue's LRU within its budget. A revision that cannot be checked now (its book
is not on the site) is left without a summary: the history page says why when it is shown, and a later
run stores it once the book is loaded.
"""
from __future__ import annotations

from collections.abc import Callable

from django.db.models import TextField
from django.db.models.functions import Cast

from armylists.lists.saved.history import checked_text, verdict
from armylists.management.query_log import no_query_log

CHUNK = 200  # revisions whose ids are read at once; their documents are read one by one


def backfill_verdicts(revisions=None, chunk: int = CHUNK, said: Callable[[str], None] | None = None) -> tuple[int, int]:
    """Store the verdict of every revision without a summary; returns (stored, left unchecked).
    `revisions`: the ListRevision model (a migration passes its historical one)."""
    if revisions is None:
        from armylists.models import ListRevision as revisions
    pending = revisions.objects.filter(summary__isnull=True)
    stored = left = 0
    last = 0
    with no_query_log():   # with DEBUG on, every query would be kept for the whole run
        while True:
            ids = list(pending.filter(pk__gt=last).order_by("pk").values_list("pk", flat=True)[:chunk])
            if not ids:
                break
            last = ids[-1]
            for pk in ids:
                found = revisions.objects.filter(pk=pk, summary__isnull=True).annotate(
                    text=Cast("document", TextField())).values_list("army_list_id", "revision", "text").first()
                if found is None:   # stored meanwhile (its history was read): nothing to do
                    continue
                list_id, number, text = found
                result = verdict(checked_text(text, f"list {list_id} revision {number}"))
                if result is None:
                    left += 1
                    continue
                # Only if still without one: a history read meanwhile stored the full summary.
                stored += revisions.objects.filter(pk=pk, summary__isnull=True).update(summary={"verdict": result})
            if said is not None:
                said(f"{stored} verdicts stored, {left} revisions not checkable now (up to revision id {last})")
    return stored, left
