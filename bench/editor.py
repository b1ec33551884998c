"""Time one change in the list editor, on the server: median of one htmx edit of a 20-unit list.

    python bench/editor.py [--repeat N]

One change is what the editor's script sends when a player sets a unit's size: a POST of that field
with the list's revision, which loads the list, applies the edit, validates it, saves it with the
revision check, and answers what changed: the unit's card, the category headings, the status line and
the report panel (htmx out-of-band swaps, editor/changes.py). It is timed in-process through
Django's test client (the whole request: middleware, session, the view, the templates), on a fresh
SQLite database in a temporary folder, with DEBUG off. Then the same work is timed piece by piece.
The list is the legal Empire of Sonnstahl example with five more units, 20 units at 3000 pts, built
here so the figure cannot drift with the examples. Prints figures only; docs/benchmarks.md records them.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from in_process import start_site  # noqa: E402
from twenty_units import bench_list  # noqa: E402


def figures(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[int(len(ordered) * 0.95) - 1]
    return f"median {statistics.median(samples):.1f} ms, p95 {p95:.1f} ms, min {ordered[0]:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=300)
    args = parser.parse_args()

    start_site("editor")
    from django.test import Client
    from django.test.client import RequestFactory
    from django.contrib.auth import get_user_model
    from django.template.loader import render_to_string

    from armylists.lists.library.catalogue import book_for
    from armylists.models import ArmyList
    from armylists.rules import parse_roster, validate
    from armylists.lists.saved.edits import set_size
    from armylists.editor.views import Loaded, editor_context
    from armylists.editor.changes import changed_units

    user = get_user_model().objects.create_user("bench", password="bench-password-1")
    roster = parse_roster(bench_list())
    army_list = ArmyList(owner=user)
    army_list.set_document(roster, validate(book_for(roster), roster))
    army_list.save()
    report = validate(book_for(roster), roster)
    print(f"list: {len(roster.units)} units, {report.total_points} pts of {report.points_limit} "
          f"({'legal' if report.valid else 'illegal'})")

    client = Client()
    client.force_login(user)
    url = f"/lists/{army_list.pk}/units/halberds/"

    sizes: list[int] = []
    cpu: list[float] = []

    def change(size: int) -> float:
        revision = ArmyList.objects.values_list("revision", flat=True).get(pk=army_list.pk)
        start, start_cpu = time.perf_counter(), time.process_time()
        response = client.post(url, {"only": "size", "size": size, "revision": revision}, HTTP_HX_REQUEST="true")
        elapsed = (time.perf_counter() - start) * 1000
        cpu.append((time.process_time() - start_cpu) * 1000)
        assert response.status_code == 200, response.status_code
        sizes.append(len(response.content))
        return elapsed

    for i in range(20):  # warm up: the rules, the templates, the connection
        change(30 + i % 2)
    samples = [change(30 + i % 2) for i in range(args.repeat)]
    print(f"one editor change, the whole request ({args.repeat} changes): {figures(samples)}; "
          f"answer {statistics.median(sizes) / 1024:.1f} kB of HTML; CPU time median {statistics.median(cpu):.1f} ms "
          "(what the request costs whatever else runs on the machine)")
    saved = ArmyList.objects.get(pk=army_list.pk)
    print(f"  (saved: revision {saved.revision}, {saved.total_points} pts)")

    # The same change, piece by piece.
    request = RequestFactory().post(url, HTTP_HX_REQUEST="true")
    request.user = user
    request.htmx = True
    parts: dict[str, list[float]] = {"read the list": [], "parse the document": [], "edit and validate": [],
                                     "save with the revision check": [], "what changed": [],
                                     "render the changed parts": []}
    for i in range(args.repeat):
        t0 = time.perf_counter()
        stored = ArmyList.objects.get(pk=army_list.pk)
        t1 = time.perf_counter()
        current = parse_roster(stored.document)
        book = book_for(current)
        t2 = time.perf_counter()
        edited = set_size(current, "halberds", 30 + i % 2)
        result = validate(book, edited)
        t3 = time.perf_counter()
        expected = stored.revision
        stored.set_document(edited, result)
        assert stored.save_if_revision(expected)
        t4 = time.perf_counter()
        changed = changed_units(current, validate(book, current), edited, result) | {"halberds"}
        t5 = time.perf_counter()
        context = editor_context(request, Loaded(stored, edited, book), result, focus="halberds", forms_for=changed)
        render_to_string("lists/editor_changes.html", {**context, "changed": changed}, request=request)
        t6 = time.perf_counter()
        for name, a, b in zip(parts, (t0, t1, t2, t3, t4, t5), (t1, t2, t3, t4, t5, t6)):
            parts[name].append((b - a) * 1000)
    print("where the time goes (median):")
    for name, samples in parts.items():
        print(f"  {name:<30} {statistics.median(samples):6.2f} ms")


if __name__ == "__main__":
    main()
