"""The project against floors built in the same run: what the same work costs at least with the same stack.

    python bench/floors.py [--rounds 5] [--seconds 8] [--pdf-renders 40] [--only api|pdf]

API: the validation endpoint (`POST /api/v1/validate/`, the 20-unit list of bench/twenty_units.py)
against the barest DRF endpoint that reads the same document and sums its units (bench/floor_site.py),
both under gunicorn with 2 sync workers, driven by wrk (2 threads, 32 connections). The two servers run
side by side and are measured in turn, round after round, so a change in the machine's load falls on
both; each figure is the median of the rounds.

PDF: the full printed roster of the same list (render_pdf) against a plain reportlab roster of its
units: a title and one table (name, models, points, options and items, the characteristics as one
line of text), in the same embedded fonts. Renders alternate, project then floor; medians.

Prints `ratio api_vs_floor X` (requests/s, project / floor; at least 0.8 is the target) and
`ratio pdf_vs_floor X` (render time, project / floor; at most 1.5). Needs wrk for the API part.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent))

from api_load import wrk  # noqa: E402
from live_server import PYTHON, free_port, live_server  # noqa: E402
from twenty_units import bench_list  # noqa: E402

WORKERS = 2
CONNECTIONS = 32


@contextmanager
def floor_server():
    """The floor endpoint under gunicorn, as live_server runs the site: yield its URL."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    server = subprocess.Popen([PYTHON, "-m", "gunicorn", "floor_site:application", "--bind", f"127.0.0.1:{port}",
                               "--workers", str(WORKERS), "--log-level", "warning"], cwd=BENCH, env=env)
    try:
        body = json.dumps(bench_list()).encode()
        for _ in range(100):
            try:
                urllib.request.urlopen(urllib.request.Request(f"{url}/sum/", data=body, headers={
                    "Content-Type": "application/json"}), timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise RuntimeError("the floor's gunicorn did not start")
        yield url
    finally:
        server.terminate()
        server.wait(timeout=10)


def post_script(body: str) -> str:
    return f'wrk.method = "POST"\nwrk.body = {json.dumps(body)}\nwrk.headers["Content-Type"] = "application/json"\n'


def api(rounds: int, seconds: int) -> float:
    body = json.dumps(bench_list())
    with live_server(workers=WORKERS) as (site, _token), floor_server() as floor:
        check = urllib.request.urlopen(urllib.request.Request(
            f"{site}/api/v1/validate/", data=body.encode(), headers={"Content-Type": "application/json"}))
        report = json.load(check)
        print(f"API: the 20-unit list validates to {report['total_points']} pts, "
              f"{'legal' if report['valid'] else 'illegal'}; gunicorn {WORKERS} workers each, wrk {CONNECTIONS} "
              f"connections, {rounds} rounds of {seconds} s per server")
        targets = {"project": f"{site}/api/v1/validate/", "floor": f"{floor}/sum/"}
        for url in targets.values():  # warm both up (first requests load the rules in each worker)
            wrk(url, 2, CONNECTIONS, post_script(body))
        rates: dict[str, list[float]] = {"project": [], "floor": []}
        for n in range(rounds):
            for name, url in (targets.items() if n % 2 == 0 else reversed(targets.items())):
                result = wrk(url, seconds, CONNECTIONS, post_script(body))
                errors = int(result["non2xx"] + result["socket_errors"])
                rates[name].append(result["requests"] / result["seconds"])
                print(f"  round {n + 1} {name}: {rates[name][-1]:,.0f} requests/s, median {result['p50_us'] / 1000:.1f} ms"
                      + (f", {errors} ERRORS" if errors else ""))
    project, floor = statistics.median(rates["project"]), statistics.median(rates["floor"])
    print(f"API project (POST /api/v1/validate/): median {project:,.0f} requests/s")
    print(f"API floor (bare DRF endpoint): median {floor:,.0f} requests/s")
    ratio = project / floor
    print(f"ratio api_vs_floor {ratio:.2f}")
    return ratio


def floor_pdf(rows: list[list[str]], title: str) -> bytes:
    """A plain reportlab roster: a title and one table of the units, in the site's embedded fonts."""
    from reportlab.lib.pagesizes import A4
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Table

    from armylists.exports.pdf_style import Styles, table_style

    styles = Styles(9)
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(buffer, pagesize=A4, invariant=1, initialFontName="Vera")
    cells = [[name, models, points, Paragraph(details, styles.cell)] for name, models, points, details in rows]
    table = Table([["Unit", "Models", "Points", "Choices and profile"], *cells], repeatRows=1,
                  colWidths=[45 * 2.83, 14 * 2.83, 14 * 2.83, doc.width - 73 * 2.83])
    table.setStyle(table_style([("FONTSIZE", (0, 0), (-1, -1), 8), ("VALIGN", (0, 0), (-1, -1), "TOP")]))
    doc.build([Paragraph(title, styles.title), table])
    return buffer.getvalue()


def pdf(renders: int) -> float:
    from armylists.exports.pdf import render_pdf
    from armylists.exports.pdf_units import profiles_of
    from armylists.exports.text import describe_unit, unit_text
    from armylists.rules import load_tree, parse_roster, validate

    library = load_tree(BENCH.parent / "rules_data")
    roster = parse_roster(bench_list())
    book = library.book(roster.system, roster.book, roster.book_version)
    report = validate(book, roster)
    # The floor gets every string ready-made: it times reportlab alone.
    points = {line.id: line.points for line in report.units}
    rows = []
    for unit in roster.units:
        words = describe_unit(book, unit)
        profile = "; ".join(" ".join(f"{k} {v}" for k, v in p.items()) for p in profiles_of(book, words))
        rows.append([words.name, str(words.size or 1), str(points.get(unit.id, "")), f"{unit_text(words)}. {profile}"])
    print(f"PDF: the 20-unit list, the full roster against a plain table of its units; {renders} renders each")
    times: dict[str, list[float]] = {"project": [], "floor": []}
    jobs = {"project": lambda: render_pdf(book, roster, report, "full"), "floor": lambda: floor_pdf(rows, roster.name)}
    for job in jobs.values():  # warm up (fonts read once)
        job()
        job()
    for _ in range(renders):
        for name, job in jobs.items():
            start = time.perf_counter()
            job()
            times[name].append(time.perf_counter() - start)
    project, floor = statistics.median(times["project"]), statistics.median(times["floor"])
    print(f"PDF project (render_pdf, full): median {project * 1000:.1f} ms")
    print(f"PDF floor (plain reportlab table): median {floor * 1000:.1f} ms")
    ratio = project / floor
    print(f"ratio pdf_vs_floor {ratio:.2f}")
    return ratio


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--pdf-renders", type=int, default=40)
    parser.add_argument("--only", choices=("api", "pdf"))
    args = parser.parse_args()
    if args.only != "api":
        pdf(args.pdf_renders)
    if args.only != "pdf":
        if shutil.which("wrk") is None:
            sys.exit("wrk is not installed (Debian: apt-get install wrk)")
        api(args.rounds, args.seconds)


if __name__ == "__main__":
    main()
