"""Time an event's checking on the server: 1,000 submissions checked and saved, the table, the CSV.

    python bench/event_check.py [--lists 1000] [--repeat 5]

On a fresh SQLite database in a temporary folder (DEBUG off): an event at 2400 pts of The 9th Age with
three event rules (one of them a team rule, teams of two: one Empire and one Ogre Khans list), and 1,000 submissions, each a distinct
variant of the legal Empire of Sonnstahl or Ogre Khans example (unit sizes varied, some made illegal).
Then the muster PDF of 200 approved lists as the background worker makes it. Times `check_event` (parse every frozen copy, check it against the ruleset and the team rules, save
each report, verdict and status in one transaction), then the organiser's page with the whole table
and the CSV through Django's test client. Prints figures only; docs/benchmarks.md records them.

    python bench/event_check.py --site DB.sqlite3 [--lists 100] [--repeat 5]

The event's pages on a copy of a site's database (bench/real_site.py --keep DIR builds one with every shared
data set: DIR/real.sqlite3), in a fresh process as a restarted worker meets them (issue 39 item 5: at most
300 ms with 100 submissions): the events list, the new-event form, the organiser's page with the table, the
edit form, the CSV and a submission's page (and the new-list form and the API's systems and books, which also
list every book), each the first time and then the median of --repeat; and
`check_event` of the submissions. Also prints how many books were built from the database
(catalogue.get_book's `_stored_books`): an event's pages name books from columns and build only the books
its submissions name.
"""
from __future__ import annotations

import argparse
import copy
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from in_process import start_site  # noqa: E402

RULES = """format: event-rules/1
rules:
  - {id: three-of-each, type: each_entry_max, params: {max: 3}}
  - {id: wizard-levels, type: count, params: {label: Wizard levels, select: {}, what: wizard_levels, max: 6}}
  - {id: team-items, type: team_items_once, params: {item_categories: [weapon, armour, talisman, standard]}}
"""


def variants(count: int) -> list[dict]:
    """`count` distinct documents: the examples with one unit's size moved up or down."""
    bases = [json.loads((ROOT / "docs" / "examples" / name).read_text())
             for name in ("empire-2400-legal.json", "ogre-khans-2400-legal.json")]
    docs = []
    for i in range(count):
        doc = copy.deepcopy(bases[i % len(bases)])
        sized = [u for u in doc["units"] if u.get("size")]
        unit = sized[(i // len(bases)) % len(sized)]
        unit["size"] = max(1, unit["size"] + (i % 7) - 3)
        doc["player"] = f"Player {i:04d}"
        docs.append(doc)
    return docs


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lists", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--muster", type=int, default=200, help="approved lists in the muster PDF")
    parser.add_argument("--site", type=Path, default=None,
                        help="time the event pages on a copy of this SQLite database (a real site's)")
    args = parser.parse_args()
    if args.site is not None:
        return site_pages(args.site, args.lists, args.repeat)

    start_site("event")
    from datetime import date, timedelta

    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.utils import timezone

    from armylists.lists.library.catalogue import disk_library
    from armylists.events.checking import check_event, evaluate, ruleset_for
    from armylists.exports import checksum
    from armylists.models import Event, Submission, Team
    from armylists.rules import parse_roster, roster_to_dict

    organiser = get_user_model().objects.create_user("organiser", password="bench-password-1")
    event = Event.objects.create(organiser=organiser, name="Bench GT", date=date.today() + timedelta(days=30),
                                 system="t9a-0.11", points_limit=2400, rules_text=RULES,
                                 deadline=timezone.now() + timedelta(days=20))
    now = timezone.now()
    rows = []
    teams = Team.objects.bulk_create([Team(event=event, name=f"Team {t:03d}") for t in range((args.lists + 1) // 2)])
    for i, doc in enumerate(variants(args.lists)):
        roster = parse_roster(doc)
        rows.append(Submission(event=event, player_name=doc["player"], team=teams[i // 2],
                               document=roster_to_dict(roster), checksum=checksum(roster), list_name=roster.name,
                               book=roster.book, book_version=roster.book_version, submitted_at=now))
    Submission.objects.bulk_create(rows, batch_size=500)

    disk_library()  # the server reads the rules data once, at its first request
    samples = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        checked = check_event(event)
        samples.append(time.perf_counter() - start)
    legal = sum(s.valid for s in checked)
    print(f"check_event, {len(checked)} submissions ({legal} legal, {len(checked) - legal} illegal), "
          f"every report saved: median {ms(statistics.median(samples))}, min {ms(min(samples))} "
          f"(first run, units priced for the first time: {ms(samples[0])})")
    submissions = list(event.submissions.all())
    ruleset = ruleset_for(event)
    engine = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        evaluate(submissions, ruleset)
        engine.append(time.perf_counter() - start)
    print(f"  of which the checks alone (evaluate, no saving): median {ms(statistics.median(engine))}")

    client = Client()
    client.force_login(organiser)
    for name, url in (("organiser's page with the whole table", f"/events/{event.pk}/"),
                      ("CSV of the table", f"/events/{event.pk}/lists.csv")):
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            response = client.get(url)
            times.append(time.perf_counter() - start)
            assert response.status_code == 200, response.status_code
        print(f"{name}: median {ms(statistics.median(times))} ({len(response.content) // 1024} KiB)")

    # The muster PDF as the worker makes it (the job's task called directly: no queue in the timing).
    from armylists.events.jobs import run_event_job
    from armylists.models import EventJob

    legal_ids = list(event.submissions.filter(valid=True).values_list("pk", flat=True)[: args.muster])
    event.submissions.filter(pk__in=legal_ids).update(status=Submission.APPROVED)
    job = EventJob.objects.create(event=event, kind=EventJob.MUSTER)
    start = time.perf_counter()
    run_event_job.call(job.pk)
    took = time.perf_counter() - start
    job.refresh_from_db()
    print(f"muster PDF of {len(legal_ids)} approved lists, run as the worker runs it: {took:.1f} s, "
          f"{len(job.pdf) // 1024} KiB, progress at the end {job.done} of {job.total} steps ({job.state})")


def site_pages(database: Path, lists: int, repeat: int) -> None:
    """The event pages on a copy of `database`, the first request and then warm (see the module's doc)."""
    import os
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix="armylists-bench-site-")
    copy_path = Path(folder) / "site.sqlite3"
    shutil.copyfile(database, copy_path)
    os.environ.update(DATABASE_URL=f"sqlite:///{copy_path}", DEBUG="false", SECRET_KEY="bench-event-site",
                      ALLOWED_HOSTS="testserver", RATE_LIMITS="off")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armylists.settings")
    import django
    django.setup()
    from datetime import date, timedelta

    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.utils import timezone

    from armylists.events.checking import check_event
    from armylists.exports import checksum
    from armylists.lists.library import catalogue
    from armylists.models import Event, Submission, Team
    from armylists.rules import parse_roster, roster_to_dict

    try:
        organiser = get_user_model().objects.create_user("bench-organiser", password="bench-password-1")
        event = Event.objects.create(organiser=organiser, name="Bench GT", date=date.today() + timedelta(days=30),
                                     system="t9a-0.11", points_limit=2400, rules_text=RULES,
                                     deadline=timezone.now() + timedelta(days=20))
        now = timezone.now()
        teams = Team.objects.bulk_create([Team(event=event, name=f"Team {t:03d}") for t in range((lists + 1) // 2)])
        rows = []
        for i, doc in enumerate(variants(lists)):
            roster = parse_roster(doc)
            rows.append(Submission(event=event, player_name=doc["player"], team=teams[i // 2],
                                   document=roster_to_dict(roster), checksum=checksum(roster), list_name=roster.name,
                                   book=roster.book, book_version=roster.book_version, submitted_at=now))
        Submission.objects.bulk_create(rows, batch_size=500)
        first = Submission.objects.filter(event=event).order_by("pk").first()
        # Issue 39: the first muster job of a fresh worker for one list (under 5 s), before this process has
        # built or read anything else: the job's task called as the worker calls it, one list approved.
        from armylists.events.jobs import run_event_job
        from armylists.models import EventJob
        Submission.objects.filter(pk=first.pk).update(status=Submission.APPROVED)
        job = EventJob.objects.create(event=event, kind=EventJob.MUSTER)
        start, start_cpu = time.perf_counter(), time.process_time()
        run_event_job.call(job.pk)
        job.refresh_from_db()
        print(f"first muster job of this fresh process, one approved list: {ms(time.perf_counter() - start)} "
              f"({ms(time.process_time() - start_cpu)} CPU; {job.state}, {len(job.pdf or b'') // 1024} KiB)")
        Submission.objects.filter(pk=first.pk).update(status=first.status)
        client = Client()
        client.force_login(organiser)
        pages = (("events list", "/events/"), ("new-event form", "/events/new/"),
                 ("organiser's page with the table", f"/events/{event.pk}/"),
                 ("edit form", f"/events/{event.pk}/edit/"), ("CSV of the table", f"/events/{event.pk}/lists.csv"),
                 ("a submission's page", f"/events/{event.pk}/submissions/{first.pk}/"),
                 # the other pages that list every book (issue 39 item 2)
                 ("new-list form", "/lists/new/"), ("API: systems", "/api/v1/systems/"),
                 ("API: books", "/api/v1/books/"))
        start, start_cpu = time.perf_counter(), time.process_time()
        check_event(event)
        print(f"check_event of {lists} submissions, first in this process: {ms(time.perf_counter() - start)} "
              f"({ms(time.process_time() - start_cpu)} CPU)")
        for name, url in pages:
            times, cpu = [], []
            for _ in range(1 + repeat):
                start, start_cpu = time.perf_counter(), time.process_time()
                response = client.get(url)
                times.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
                assert response.status_code == 200, (url, response.status_code)
            print(f"{name}: first {ms(times[0])} ({ms(cpu[0])} CPU), then median {ms(statistics.median(times[1:]))} "
                  f"({ms(statistics.median(cpu[1:]))} CPU; {len(response.content) // 1024} KiB)")
        print(f"books built from the database: {len(catalogue._stored_books)} "
              f"(the site holds {len(catalogue.imported_book_keys())} imported books)")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
