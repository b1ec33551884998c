"""A site holding every shared community data set against a bare one, built and timed in the same run
(issue 39's targets): is a real site as quick as a bare one?

    nice -n 10 python bench/real_site.py [--small] [--rounds N] [--revisions N] [--keep DIR]

Three SQLite databases in a temporary folder, each migrated and given our rules (`load_rules`):
- bare: our rules only;
- tree: our rules and New Recruit's Old World data (the-old-world-nr), the bare site of a roster tree;
- real: our rules and every shared data set: each BattleScribe folder of ../shared/external/battlescribe
  (`import_battlescribe`), Old World Builder's datasets (`import_owb`) and New Recruit's T9A data
  (`import_nr_t9a`, with `--all-versions`: every date of its history).
Each import command's CPU, wall time and peak memory are printed as it runs (wait4's rusage).

Then, on each site, in a process of its own driven over a pipe (so the rounds interleave between sites
and a change in the machine's load falls on all of them; medians):
1. the first request after a restart: gunicorn (gunicorn.conf.py, one worker) started, then the home page
   and a shared list's page (the native Empire list; the Orc and Goblin roster tree where the site has its
   data), seconds from the command's start;
2. a native edit's CPU (a unit's size set, htmx as the editor sends it) and a tree edit's CPU (a model
   count of the roster tree), through Django's test client;
3. `check_lists` of one roster tree (.ros): CPU and peak memory of the command;
4. the list's history page and `GET /api/v1/lists/{id}/revisions/` at N revisions of the tree (1,000;
   --small 100): the first page and an older one (`?before=` the middle), each twice (first and second
   read), seconds; then `backfill_revisions` (migration 0020's) of a tenth of them saved without a
   verdict, as before revisions kept theirs: CPU, peak memory and the history's older page read after;
5. the home page: seconds and size.
Ratios are real / bare (the tree figures: real / tree). Prints figures only; docs/benchmarks.md records
them. `--small` is a sample quick enough for CI (one BattleScribe folder besides the tree's, OWB's data,
New Recruit's T9A data at its newest date only, 100 revisions, few rounds): it exercises every path.
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SHARED = ROOT.parent / "shared" / "external"
PYTHON = sys.executable
TREE_DATA = SHARED / "battlescribe" / "the-old-world-nr"
TREE_ROS = ROOT / "docs" / "examples" / "battlescribe" / "the-old-world-nr" / "orc-and-goblin-tribes-legal.ros"
NATIVE_LIST = ROOT / "docs" / "examples" / "empire-of-man-legal.json"
MARK = "@@"  # a worker's answers are the lines starting with it (Django may print other lines)
FAILED: dict[str, str] = {}  # job -> why, for the jobs that failed on some site (the run exits 1)


# --- building the sites ----------------------------------------------------------------------

def site_env(db: Path) -> dict:
    return {**os.environ, "DATABASE_URL": f"sqlite:///{db}", "DEBUG": "false", "SECRET_KEY": "bench-real-site",
            "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver", "RATE_LIMITS": "off", "VALIDATE_RATE": "off",
            "DJANGO_SETTINGS_MODULE": "armylists.settings"}


def measured(command: list[str], env: dict, label: str) -> dict:
    """Run a command; its CPU (user + system), wall seconds and peak memory (MB), printed and returned."""
    start = time.perf_counter()
    child = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    output = child.stdout.read()
    _pid, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    figures = {"cpu": usage.ru_utime + usage.ru_stime, "wall": wall, "rss_mb": usage.ru_maxrss / 1024,
               "status": child.returncode}
    print(f"  {label}: {figures['cpu']:.1f} s CPU, {wall:.1f} s, peak {figures['rss_mb']:.0f} MB, "
          f"exit {child.returncode}", flush=True)
    if child.returncode not in (0, 1):  # check_lists answers 1 for an illegal list
        sys.stdout.write(output.decode(errors="replace")[-3000:])
        raise SystemExit(f"{label} failed")
    return figures


def manage(env: dict, label: str, *args: str) -> dict:
    return measured([PYTHON, "manage.py", *args], env, label)


def build(folder: Path, small: bool) -> dict[str, Path]:
    dbs = {name: folder / f"{name}.sqlite3" for name in ("bare", "tree", "real")}
    for name, db in dbs.items():
        print(f"site {name}:", flush=True)
        env = site_env(db)
        manage(env, "migrate", "migrate", "--verbosity", "0")
        manage(env, "load_rules", "load_rules", "--verbosity", "0")
        if name == "tree":   # with the README's settings (DEBUG on), as issue 39's target is set
            manage({**env, "DEBUG": "true"}, "import_battlescribe the-old-world-nr, DEBUG on (README's settings)",
                   "import_battlescribe", str(TREE_DATA), "--verbosity", "0")
        if name != "real":
            continue
        folders = sorted(p for p in (SHARED / "battlescribe").iterdir() if p.is_dir() and p.name != "schema")
        if small:
            folders = [TREE_DATA, SHARED / "battlescribe" / "mordheim"]
        for data in folders:
            manage(env, f"import_battlescribe {data.name}", "import_battlescribe", str(data), "--verbosity", "0")
        manage(env, "import_owb", "import_owb", str(SHARED / "old-world-builder"), "--verbosity", "0")
        history = [] if small else ["--all-versions"]
        manage(env, "import_nr_t9a " + (" ".join(history) or "(newest)"), "import_nr_t9a",
               str(SHARED / "new-recruit-t9a" / "nr-t9a.bundle"), *history, "--verbosity", "0")
    return dbs


# --- one site's process ----------------------------------------------------------------------

def serve(db: Path, revisions: int) -> None:
    """The worker: Django on `db`, answering the driver's commands (a JSON line each) with a JSON line."""
    os.environ.update(site_env(db))
    import django
    django.setup()
    from django.contrib.auth import get_user_model
    from django.test import Client

    from armylists.listfiles.importing import import_list
    from armylists.lists.library.catalogue import book_for, validate_roster
    from armylists.lists.saved.revision_words import revision_summary
    from armylists.lists.trees.tree_lists import evaluated
    from armylists.models import ArmyList, ListRevision
    from armylists.rules import parse_roster
    from armylists.rules.reading.roster import roster_to_dict

    get_user_model().objects.filter(username="bench").delete()  # a kept site's last run
    user = get_user_model().objects.create_user("bench", password="bench-password-1")
    client, anonymous = Client(), Client()
    client.force_login(user)

    def stored(roster, book) -> ArmyList:
        army_list = ArmyList(owner=user)
        army_list.set_document(roster, validate_roster(book, roster))
        army_list.save()
        army_list.share()
        return army_list

    native = parse_roster(json.loads(NATIVE_LIST.read_text()))
    native_list = stored(native, book_for(native))
    unit = next(u for u in native.units if (u.size or 0) > 1)
    answer = {"native": native_list.share_token}
    tree_list = None
    try:
        tree, tree_book, _format, _warnings = import_list(TREE_ROS.read_bytes(), TREE_ROS.name)
    except Exception:  # noqa: BLE001 -- the bare site has no such book: no tree figures there
        tree = None
    if tree is not None:
        tree_list = stored(tree, tree_book)
        tree_unit = next(u for f in evaluated(tree).all_forces() for u in f.selections
                         if [c.amount > 1 for c in u.children if c.option.entry.get("type") == "model"] == [True])
        model = next(c for c in tree_unit.children if c.option.entry.get("type") == "model")
        field = f"sel-{model.entry_id}"
        # The history's list: the roster tree grown to ten times its units (190 of the 200 a tree may have),
        # the size of the largest lists players keep; N revisions of it, each another document (its name),
        # written as saving them does (each with its entry: what changed since the one before, the verdict
        # of its save; lists/saved/stored.py save_edit).
        document = grown(roster_to_dict(tree), 10)
        big = parse_roster(document)
        history_list = stored(big, tree_book)
        verdict = history_list._saved_verdict()["verdict"]
        answer.update(tree=tree_list.share_token, system=tree.system, points=tree.points_limit,
                      tree_kb=round(len(json.dumps(document)) / 1024),
                      units=sum(len(f["selections"]) for f in document["forces"]))
        rows, before = [], None
        for n in range(1, revisions + 1):
            roster = replace(big, name=f"Orcs revision {n}")
            rows.append(ListRevision(army_list=history_list, revision=n, book_version=tree.book_version,
                                     document={**document, "name": roster.name},
                                     summary=revision_summary(before, tree_book, roster, tree_book, verdict)))
            before = roster
        ListRevision.objects.filter(army_list=history_list).delete()
        ListRevision.objects.bulk_create(rows, batch_size=50)
        ArmyList.objects.filter(pk=history_list.pk).update(revision=revisions)
    print(MARK + json.dumps(answer), flush=True)

    def edit(army_list: ArmyList, url: str, data: dict) -> int:
        revision = ArmyList.objects.values_list("revision", flat=True).get(pk=army_list.pk)
        response = client.post(url, {**data, "revision": revision}, HTTP_HX_REQUEST="true")
        assert response.status_code == 200, (response.status_code, response.content[:300])
        return len(response.content)

    counter = iter(range(1, 10 ** 9))

    def native_edit() -> int:
        return edit(native_list, f"/lists/{native_list.pk}/units/{unit.id}/",
             {"only": "size", "size": unit.size + next(counter) % 2})

    def tree_edit() -> int:
        return edit(tree_list, f"/lists/{tree_list.pk}/units/{tree_unit.uid}/",
             {"only": field, field: model.amount + next(counter) % 2})

    def unsummarised() -> int:
        """The oldest tenth of the history as revisions saved before each kept its verdict: no summary."""
        return ListRevision.objects.filter(army_list=history_list, revision__lte=revisions // 10).update(summary=None)

    def get(who, url: str) -> int:
        response = who.get(url)
        assert response.status_code == 200, (url, response.status_code, response.content[:300])
        return len(response.content)

    jobs = {"edit native": native_edit, "edit tree": tree_edit,
            "home": lambda: get(anonymous, "/"),
            "history page": lambda: get(client, f"/lists/{history_list.pk}/history/"),
            "history api": lambda: get(client, f"/api/v1/lists/{history_list.pk}/revisions/"),
            "history older page": lambda: get(client, f"/lists/{history_list.pk}/history/?before={revisions // 2}"),
            "history older api": lambda: get(client, f"/api/v1/lists/{history_list.pk}/revisions/?before={revisions // 2}"),
            "history unsummarised": unsummarised,
            "history oldest page": lambda: get(client, f"/lists/{history_list.pk}/history/?before={revisions // 10 + 1}")}
    for line in sys.stdin:
        name = json.loads(line)["job"]
        cpu, wall = time.process_time(), time.perf_counter()
        try:
            size = jobs[name]()
        except Exception as exc:  # noqa: BLE001 -- said as the job's figure; the other jobs still run
            import traceback
            traceback.print_exc()
            print(MARK + json.dumps({"error": f"{type(exc).__name__}: {str(exc)[:200]}"}), flush=True)
            continue
        print(MARK + json.dumps({"cpu": time.process_time() - cpu, "wall": time.perf_counter() - wall,
                                 "bytes": size}), flush=True)


def grown(document: dict, times: int) -> dict:
    """The roster tree with each force's units taken `times` over, each copy's selections given new ids."""
    def renamed(selection: dict, copy: int) -> dict:
        return {**selection, "id": f"{selection['id']}-copy{copy}",
                **({"selections": [renamed(c, copy) for c in selection["selections"]]} if "selections" in selection else {})}
    forces = [{**force, "selections": [renamed(s, copy) if copy else s for copy in range(times)
                                       for s in force["selections"]]} for force in document["forces"]]
    return {**document, "forces": forces}


class Worker:
    def __init__(self, db: Path, revisions: int):
        self.child = subprocess.Popen([PYTHON, __file__, "--serve", str(db), "--revisions", str(revisions)],
                                      cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.ready = self._answer()

    def _answer(self) -> dict:
        for line in self.child.stdout:
            if line.startswith(MARK):
                return json.loads(line[len(MARK):])
        raise SystemExit("a site's worker stopped")

    def run(self, job: str) -> dict | None:
        """The job's figures; None when it failed (said once per job, and the run ends with exit 1)."""
        self.child.stdin.write(json.dumps({"job": job}) + "\n")
        self.child.stdin.flush()
        answer = self._answer()
        if "error" in answer:
            if job not in FAILED:
                print(f"FAILED {job}: {answer['error']}", flush=True)
            FAILED.setdefault(job, answer["error"])
            return None
        return answer

    def close(self) -> None:
        self.child.stdin.close()
        self.child.wait(timeout=60)


# --- the first request after a restart -------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) of a process and its living children, from /proc: what a first request
    cost, whatever else the machine was doing (the wall time is printed too)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(stat.parent.name) == pid or int(fields[1]) == pid:   # fields[1]: the parent's pid
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def first_requests(db: Path, paths: list[str]) -> list[tuple[float, float]]:
    """Start gunicorn (the repository's settings, one worker) on `db`; for each of `paths` in turn, the
    seconds from the start until it answered and the CPU the server had spent by then."""
    port = free_port()
    env = {**site_env(db), "GUNICORN_BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": "1",
           "GUNICORN_TIMEOUT": "300"}  # a loaded machine must not kill a slow first request: it is timed
    start = time.perf_counter()
    server = subprocess.Popen([PYTHON, "-m", "gunicorn", "-c", str(ROOT / "gunicorn.conf.py"), "--log-level",
                               "warning"], cwd=ROOT, env=env)
    try:
        deadline = time.monotonic() + 300
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("gunicorn did not start")
                time.sleep(0.02)
        answered = []
        for path in paths:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=120) as response:
                assert response.status == 200
                response.read()
            answered.append((time.perf_counter() - start, tree_cpu(server.pid)))
        return answered
    finally:
        server.terminate()
        server.wait(timeout=30)


# --- the driver ------------------------------------------------------------------------------

def median(samples: list[float]) -> float:
    return statistics.median(samples)


def ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}" if b else "n/a"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--small", action="store_true", help="a sample quick enough for CI")
    parser.add_argument("--rounds", type=int, help="edit rounds (default 30; --small 3)")
    parser.add_argument("--restarts", type=int, help="gunicorn starts per site (default 3; --small 1)")
    parser.add_argument("--revisions", type=int, help="revisions of the history (default 1000; --small 100)")
    parser.add_argument("--keep", type=Path, help="build the databases in this folder and keep them (reused "
                                                  "when they are there)")
    parser.add_argument("--serve", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    revisions = args.revisions or (100 if args.small else 1000)
    if args.serve:
        serve(args.serve, revisions)
        return
    rounds = args.rounds or (3 if args.small else 30)
    restarts = args.restarts or (1 if args.small else 3)
    for needed in (TREE_DATA, SHARED / "old-world-builder", SHARED / "new-recruit-t9a" / "nr-t9a.bundle"):
        if not needed.exists():
            raise SystemExit(f"{needed} is missing: the real site is built from ../shared/external")
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="armylists-real-") as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        if args.keep and all((folder / f"{n}.sqlite3").exists() for n in ("bare", "tree", "real")):
            dbs = {n: folder / f"{n}.sqlite3" for n in ("bare", "tree", "real")}
            print(f"sites reused from {folder}")
            for name, db in dbs.items():  # the code may have new migrations since they were built
                manage(site_env(db), f"migrate {name}", "migrate", "--verbosity", "0")
        else:
            for old in folder.glob("*.sqlite3*"):
                old.unlink()
            dbs = build(folder, args.small)
        report(dbs, rounds, restarts, revisions)
    print(f"whole run: {time.perf_counter() - started:.0f} s")
    if FAILED:
        raise SystemExit(f"failed: {', '.join(FAILED)}")


def report(dbs: dict[str, Path], rounds: int, restarts: int, revisions: int) -> None:
    from django.db import connections  # noqa: F401 -- nothing of Django runs in the driver; only the workers

    workers = {name: Worker(db, revisions) for name, db in dbs.items()}
    try:
        tokens = {name: w.ready for name, w in workers.items()}
        print(f"the edited tree: {TREE_ROS.name}; the history's: it grown to {tokens['real']['units']} units, "
              f"{tokens['real']['tree_kb']} kB as a document, {revisions} revisions")

        # 1. the first request after a restart
        starts: dict[str, list[list[float]]] = {name: [] for name in dbs}
        for _ in range(restarts):
            for name, db in dbs.items():
                paths = ["/", f"/s/{tokens[name]['native']}/"]
                if "tree" in tokens[name]:
                    paths.append(f"/s/{tokens[name]['tree']}/")
                starts[name].append(first_requests(db, paths))
        for name, runs in starts.items():
            said = []
            for i, what in enumerate(("home", "the native list's page", "the tree's page")[:len(runs[0])]):
                wall, cpu = median([r[i][0] for r in runs]), median([r[i][1] for r in runs])
                said.append(f"{what} answered at {wall:.2f} s ({cpu:.2f} s CPU)")
            print(f"first requests after a restart, {name}: " + ", ".join(said))
        for i, what in ((0, "home"), (1, "native_page")):
            wall = {name: median([r[i][0] for r in runs]) for name, runs in starts.items()}
            cpu = {name: median([r[i][1] for r in runs]) for name, runs in starts.items()}
            print(f"ratio first_request_{what} real/bare: {ratio(wall['real'], wall['bare'])} wall, "
                  f"{ratio(cpu['real'], cpu['bare'])} CPU")

        # 2. edits, 5. the home page: interleaved rounds
        figures: dict[tuple[str, str], list[dict]] = {}
        plan = [("edit native", ("bare", "real")), ("edit tree", ("tree", "real")), ("home", ("bare", "real"))]
        for job, sites in plan:  # warm up: templates, caches, the connection
            for name in sites:
                workers[name].run(job), workers[name].run(job)
        for _ in range(rounds):
            for job, sites in plan:
                for name in sites:
                    if job not in FAILED:
                        figures.setdefault((job, name), []).append(workers[name].run(job))
        for job, sites in plan:
            key = "wall" if job == "home" else "cpu"
            if job in FAILED:
                print(f"{job}: failed ({FAILED[job]})")
                continue
            a, b = (median([f[key] for f in figures[(job, s)]]) * 1000 for s in sites)
            size = median([f["bytes"] for f in figures[(job, sites[1])]]) / 1024
            print(f"{job}: {sites[0]} {a:.1f} ms {'CPU' if key == 'cpu' else ''}, {sites[1]} {b:.1f} ms "
                  f"({size:.0f} kB); ratio {job.replace(' ', '_')} {sites[1]}/{sites[0]} {ratio(b, a)}")

        # 4. the history at N revisions
        for name in ("tree", "real"):
            for job in ("history page", "history api", "history older page", "history older api"):
                reads = [workers[name].run(job) for _ in range(2)]
                if None in reads:
                    continue
                print(f"{job} at {revisions} revisions, {name}: first read {reads[0]['wall']:.2f} s, "
                      f"second {reads[1]['wall']:.2f} s ({reads[1]['bytes'] / 1024:.0f} kB)")
        # ... and its oldest tenth backfilled, as migration 0020 does after an upgrade (a command of its own,
        # while the site's worker waits), then that page read
        cleared = (workers["real"].run("history unsummarised") or {"bytes": 0})["bytes"]
        backfill = manage(site_env(dbs["real"]), f"backfill_revisions of {cleared} revisions of the tree, real",
                          "backfill_revisions")
        print(f"backfill: {backfill['cpu'] / max(cleared, 1) * 1000:.0f} ms CPU a revision")
        reads = [workers["real"].run("history oldest page") for _ in range(2)]
        if None not in reads:
                print(f"history oldest page after the backfill, real: first read {reads[0]['wall']:.2f} s, "
                  f"second {reads[1]['wall']:.2f} s ({reads[1]['bytes'] / 1024:.0f} kB)")
    finally:
        for w in workers.values():
            w.close()

    # 3. check_lists of one roster tree
    for name in ("tree", "real"):
        system, points = tokens[name]["system"], str(tokens[name]["points"])
        manage(site_env(dbs[name]), f"check_lists of one roster tree, {name}", "check_lists", str(TREE_ROS),
               "--system", system, "--points", points, "--jobs", "1")


if __name__ == "__main__":
    main()
