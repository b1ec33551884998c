"""Game data kept current from where it is published (docs/game-data.md).

    python manage.py game_data add OWNER/NAME|URL [--kind K] [--maps-to SYSTEM] [--no-update]
    python manage.py game_data add --recommended [--no-update]
    python manage.py game_data update [SOURCE]
    python manage.py game_data hold SOURCE REF          (REF: a release tag or a commit sha; --release lifts it)
    python manage.py game_data list

`add` adds a source and, unless --no-update, imports its latest release (else its default branch's
head) at once. `update` checks one source, or every one. Exit status: 0 done, 1 an update failed,
2 a refusal (a bad address, an off-list host, an unknown source, kind or system, an update running).
"""
from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from armylists.gamedata.sources import KINDS, Refused, add_source, find_source, hold, recommended, release_hold
from armylists.gamedata.updating import Busy, current, update
from armylists.models import GameDataSource, GameDataVersion


class Command(BaseCommand):
    help = "Add sources of game data (GitHub repositories, https zips), import their latest versions, list them."

    def add_arguments(self, parser):
        actions = parser.add_subparsers(dest="action", required=True)
        add = actions.add_parser("add", help="add a source (and import it, unless --no-update)")
        add.add_argument("where", nargs="?", help="OWNER/NAME on GitHub, or an https URL of a zip")
        add.add_argument("--kind", default="", help=f"{', '.join(KINDS)} (default: guessed from the data)")
        add.add_argument("--maps-to", default="", dest="maps_to", help="our system of the same game")
        add.add_argument("--recommended", action="store_true", help="add the recommended sources")
        add.add_argument("--no-update", action="store_true", dest="no_update", help="add only; import nothing")
        upd = actions.add_parser("update", help="import the latest version of a source, or of every source")
        upd.add_argument("source", nargs="?", help="OWNER/NAME or URL; default: every source")
        held = actions.add_parser("hold", help="keep new lists on an imported version of a source")
        held.add_argument("source")
        held.add_argument("ref", nargs="?", help="a release tag or a commit sha (7 characters or more)")
        held.add_argument("--release", action="store_true", help="lift the hold: new lists get the newest version")
        actions.add_parser("list", help="every source with its versions")

    def handle(self, *args, action: str, **options):
        try:
            getattr(self, f"_{action}")(**options)
        except (Refused, Busy) as exc:
            raise CommandError(str(exc), returncode=2) from None

    def _add(self, where=None, kind="", maps_to="", no_update=False, **options):
        wanted = options.get("recommended")
        if wanted and (where or kind or maps_to):
            raise Refused("--recommended adds the recommended sources; name no source, kind or system with it")
        if not wanted and not where:
            raise Refused("Name a source (OWNER/NAME or an https URL), or use --recommended")
        added = []
        if wanted:
            for entry in recommended():
                if GameDataSource.objects.filter(repository=entry["repository"]).exists():
                    self.stdout.write(f"{entry['repository']} is already a source")
                    continue
                added.append(add_source(entry["repository"], entry["kind"], entry["maps_to"]))
        else:
            added.append(add_source(where, kind, maps_to))
        for source in added:
            self.stdout.write(f"added {source} ({source.kind or 'kind guessed from the data'}"
                              f"{', maps to ' + source.maps_to if source.maps_to else ''})")
        if not no_update:
            self._run(added)

    def _update(self, source=None, **options):
        self._run([find_source(source)] if source else list(GameDataSource.objects.all()))

    def _run(self, sources: list[GameDataSource]) -> None:
        failed = []
        for source in sources:
            update(source)
            source.refresh_from_db()
            self.stdout.write(f"{source}: {source.last_message}")
            if source.last_message.startswith("Failed"):
                failed.append(str(source))
        if failed:
            raise CommandError(f"{len(failed)} of {len(sources)} updates failed: {', '.join(failed)}", returncode=1)

    def _hold(self, source, ref=None, release=False, **options):
        found = find_source(source)
        if release:
            release_hold(found)
            self.stdout.write(f"{found}: new lists get the newest version")
            return
        if not ref:
            raise Refused("Name the version to hold (a release tag or a commit sha), or use --release")
        version = hold(found, ref)
        self.stdout.write(f"{found}: held at {version.ref_kind} {version.ref}")

    def _list(self, **options):
        sources = GameDataSource.objects.select_related("held").all()
        if not sources:
            self.stdout.write("No sources yet: manage.py game_data add --recommended")
        for source in sources:
            now = current(source)
            where = f" -> {source.maps_to}" if source.maps_to else ""
            at = f"{'held at' if source.held_id else 'current'} {now.ref if now else 'none'}"
            checked = (f"last checked {source.last_checked:%Y-%m-%d %H:%M} UTC: {source.last_message}"
                       if source.last_checked else "never checked")
            self.stdout.write(f"{source} [{source.kind or 'kind not known yet'}]{where}: {at}; {checked}")
            for version in source.versions.all():
                date = f" of {version.date:%Y-%m-%d}" if version.date else ""
                state = f"{len(version.books)} books" if version.status == GameDataVersion.OK else \
                    f"FAILED: {version.message}"
                self.stdout.write(f"    {version.ref_kind} {version.ref}{date}: {state}")
