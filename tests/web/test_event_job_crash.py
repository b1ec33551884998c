"""A real `manage.py db_worker` killed (SIGKILL) in the middle of an event job (issue 25, item 4): the job's
heartbeat stops, the next worker to start notices it and runs it again from the start; killed again, the
job is failed with the message the organiser sees. Real processes on a SQLite file in tmp_path, with jobs
slowed down by tests/web/slow_job_settings.py; the assertions read the file with sqlite3."""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from armylists.events.jobs import WORKER_DIED

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
LISTS = 40
STALE = 1  # seconds: EVENT_JOB_STALE_SECONDS for every process here

SETUP = """
import json
from datetime import date, timedelta
from django.contrib.auth.models import User
from django.utils import timezone
from armylists.events.jobs import start_job
from armylists.events.submitting import store
from armylists.models import Event, Submission
from armylists.rules import parse_roster

document = json.load(open("docs/examples/empire-2400-legal.json"))
alice = User.objects.create_user("alice")
event = Event.objects.create(organiser=alice, name="Crash GT", date=date.today() + timedelta(days=9), system="t9a-0.11",
                             points_limit=2400, deadline=timezone.now() + timedelta(days=5))
for i in range({lists}):
    store(event, parse_roster({{**document, "player": f"P{{i:02}}"}}), f"P{{i:02}}")
Submission.objects.filter(player_name__in=["P00", "P01", "P02", "P03"]).update(status="approved", valid=True)
recheck, _ = start_job(event, "recheck")
print(json.dumps({{"event": event.pk, "recheck": recheck.pk}}))
"""


@pytest.fixture
def site(tmp_path):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "EVENT_JOB_STALE_SECONDS": str(STALE),
           "DJANGO_SETTINGS_MODULE": "tests.web.slow_job_settings", "TASKS_BACKEND": "django_tasks_db.DatabaseBackend"}
    env.pop("REDIS_URL", None)
    run = {"env": env, "cwd": ROOT, "capture_output": True, "text": True, "timeout": 60}
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], check=True, **run)
    made = subprocess.run([sys.executable, "manage.py", "shell", "-v0", "-c", SETUP.format(lists=LISTS)], check=True, **run)
    started = []

    def worker(*extra: str) -> subprocess.Popen:
        process = subprocess.Popen([sys.executable, "manage.py", "db_worker", "--no-reload", "--no-startup-delay",
                                    "--interval", "0.1", *extra], env=env, cwd=ROOT, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True)
        started.append(process)
        return process

    def shell(code: str) -> str:
        return subprocess.run([sys.executable, "manage.py", "shell", "-v0", "-c", code], check=True, **run).stdout

    db = sqlite3.connect(tmp_path / "db.sqlite3", timeout=20)
    try:
        yield json.loads(made.stdout.strip().splitlines()[-1]), worker, shell, db
    finally:
        db.close()
        for process in started:
            if process.poll() is None:
                process.kill()
            process.wait(10)


def job(db, pk: int) -> dict:
    row = db.execute("SELECT state, done, total, attempt, message, heartbeat_at FROM armylists_eventjob WHERE id = ?",
                     (pk,)).fetchone()
    return dict(zip(("state", "done", "total", "attempt", "message", "heartbeat_at"), row))


def wait_for(what, timeout: float = 20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = what()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"not within {timeout} s")


def kill_half_way(db, process: subprocess.Popen, pk: int, attempt: int) -> dict:
    """SIGKILL the worker once job `pk`'s attempt has written some progress; the row as the kill leaves it."""
    wait_for(lambda: (row := job(db, pk))["state"] == "running" and row["attempt"] == attempt and 0 < row["done"] < row["total"])
    process.send_signal(signal.SIGKILL)
    process.wait(10)
    row = job(db, pk)
    assert (row["state"], row["attempt"]) == ("running", attempt) and 0 < row["done"] < row["total"]
    time.sleep(STALE + 0.6)  # the heartbeat it will never write again grows stale
    return row


def test_a_killed_worker_s_job_is_run_again_from_the_start_then_failed(site):
    ids, worker, shell, db = site
    recheck = ids["recheck"]

    killed = kill_half_way(db, worker(), recheck, attempt=1)
    assert killed["done"] < LISTS
    # The next worker to start notices the job, runs it again from the start, and finishes it.
    restarted = worker("--batch")
    out, _ = restarted.communicate(timeout=60)
    assert restarted.returncode == 0
    assert f"Event job {recheck} (recheck of event {ids['event']}) lost its worker: queued. Run again from the start" in out
    done = job(db, recheck)
    assert (done["state"], done["done"], done["total"], done["attempt"], done["message"]) == (
        "done", LISTS, LISTS, 2, f"{LISTS} submissions checked again.")
    statuses = dict(db.execute("SELECT status, COUNT(*) FROM armylists_submission GROUP BY status").fetchall())
    assert statuses == {"legal": LISTS - 4, "approved": 4}

    # The muster PDF: killed on its first run and on the run again; the second time it is failed.
    muster = int(shell("from armylists.events.jobs import start_job; from armylists.models import Event; "
                       f"print(start_job(Event.objects.get(pk={ids['event']}), 'muster')[0].pk)").strip())
    kill_half_way(db, worker(), muster, attempt=1)
    second = worker()  # recovers it at its start, then runs attempt 2
    last = kill_half_way(db, second, muster, attempt=2)
    third = worker("--batch")
    out, _ = third.communicate(timeout=60)
    failed = job(db, muster)
    heard = shell(f"from django.utils import timezone; from armylists.models import EventJob; "
                  f"print(f'{{timezone.localtime(EventJob.objects.get(pk={muster}).heartbeat_at):%Y-%m-%d %H:%M:%S}}')").strip()
    assert (failed["state"], failed["attempt"], failed["done"]) == ("failed", 2, last["done"])
    assert failed["message"] == WORKER_DIED.format(at=heard)
    assert f"Event job {muster} (muster of event {ids['event']}) lost its worker: failed." in out
