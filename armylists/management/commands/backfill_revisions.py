"""Store the history entry (what changed, the verdict) of every saved revision that has none (revisions
saved before each kept its own; lists/saved/backfill.py). Migration 0020 runs it once on `migrate`; run it again after loading the books
a list's old revisions need (it reads only the revisions still without one, so a second run is cheap)."""
from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from armylists.lists.saved.backfill import CHUNK, backfill_verdicts


class Command(BaseCommand):
    help = "Store the verdicts of saved revisions that have none (idempotent; bounded memory)."

    def add_arguments(self, parser):
        parser.add_argument("--chunk", type=int, default=CHUNK, help=f"revision ids read at once (default {CHUNK})")

    def handle(self, *args, chunk: int = CHUNK, **options):
        if chunk < 1:
            raise CommandError("--chunk must be at least 1")
        say = self.stdout.write if options["verbosity"] > 1 else None
        stored, left = backfill_verdicts(chunk=chunk, said=say)
        self.stdout.write(f"{stored} revision verdicts stored; {left} revisions cannot be checked now "
                          f"(their book is not on this site)." if left else f"{stored} revision verdicts stored.")
