"""Event jobs whose worker died (issue 25, item 4), uploads stored with their check or not at all, and the
muster PDF out of date once approvals change (issue 22). tests/web/test_event_job_crash.py kills real
worker processes; here the rows are set as a dead worker leaves them."""
from __future__ import annotations

import json
from datetime import date, timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from armylists.events import jobs, submitting
from armylists.events.submitting import store
from armylists.models import Event, EventJob, Submission
from armylists.rules import parse_roster

pytestmark = pytest.mark.django_db

DUMMY_TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}  # queued, never run


@pytest.fixture
def event(alice):
    return Event.objects.create(organiser=alice, name="Club GT", date=date.today() + timedelta(days=10),
                                system="t9a-0.11", books=["empire-of-sonnstahl"], points_limit=2400,
                                deadline=timezone.now() + timedelta(days=5))


@pytest.fixture
def queued_only(settings):
    settings.TASKS = DUMMY_TASKS
    from django_tasks.backends.dummy import DummyBackend
    from django_tasks import task_backends
    backend = task_backends["default"]
    assert isinstance(backend, DummyBackend)
    backend.clear()
    return backend


def job_row(client, event, kind: str) -> str:
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    start = page.index(f'id="job-{kind}"')
    return " ".join(page[start:page.index("</li>", start)].split())


def dead_job(event, kind=EventJob.MUSTER, attempt=1, seconds_ago=600) -> EventJob:
    """A job as a killed worker leaves it: running, half done, its heartbeat long past."""
    heard = timezone.now() - timedelta(seconds=seconds_ago)
    return EventJob.objects.create(event=event, kind=kind, state=EventJob.RUNNING, done=501, total=1002,
                                   attempt=attempt, started_at=heard, heartbeat_at=heard)


def heard_at(job) -> str:
    return f"{timezone.localtime(job.heartbeat_at):%Y-%m-%d %H:%M:%S}"


class TestAJobWhoseWorkerDied:
    def test_it_is_queued_again_from_the_start_when_the_page_is_read(self, client_alice, event, queued_only):
        job = dead_job(event)
        row = job_row(client_alice, event, "muster")
        fresh = EventJob.objects.get(pk=job.pk)
        assert (fresh.state, fresh.attempt, fresh.done, fresh.total, fresh.heartbeat_at) == ("queued", 2, 0, 0, None)
        assert fresh.message == f"Run again from the start: the worker running it stopped (last heard from at {heard_at(job)})."
        assert fresh.message in row and "queued, waiting for the task worker" in row
        [queued] = queued_only.results
        assert (queued.task.name, queued.args) == ("run_event_job", [job.pk, 2])

    def test_the_second_time_it_fails_and_the_organiser_can_run_it_again(self, client_alice, event, queued_only):
        job = dead_job(event, EventJob.RECHECK, attempt=2)
        row = job_row(client_alice, event, "recheck")
        fresh = EventJob.objects.get(pk=job.pk)
        message = (f"The worker running it stopped twice (last heard from at {heard_at(job)}); run it again, and if it "
                   f"stops again tell the site&#x27;s admins.")
        assert (fresh.state, fresh.message.replace("'", "&#x27;")) == ("failed", message)
        assert message in row and 'id="recheck-again"' in row and "Run it again" in row
        assert queued_only.results == []
        response = client_alice.post(reverse("event-recheck", args=[event.pk]))
        assert response.status_code == 302
        again = EventJob.objects.filter(kind="recheck").first()
        assert (again.pk != job.pk, again.state, again.attempt) == (True, "queued", 1)

    def test_a_failed_muster_offers_to_run_it_again(self, client_alice, event, queued_only):
        dead_job(event, EventJob.MUSTER, attempt=2)
        row = job_row(client_alice, event, "muster")
        assert "failed " in row and "Run it again: make the muster PDF</button>" in row

    def test_a_job_heard_from_recently_is_left_running(self, client_alice, event, queued_only, settings):
        settings.EVENT_JOB_STALE_SECONDS = 120
        job = dead_job(event, seconds_ago=60)
        assert "running, 501 of 1002 steps (50%)" in job_row(client_alice, event, "muster")
        assert EventJob.objects.get(pk=job.pk).state == "running" and queued_only.results == []

    def test_the_run_given_up_on_writes_nothing_and_the_new_one_runs(self, event, queued_only, legal_document):
        store(event, parse_roster({**legal_document, "player": "Bob"}), "Bob")
        job = dead_job(event, EventJob.RECHECK)
        jobs.recover_stale_jobs()
        # The first run was only slow, not dead: its progress and its end change nothing now.
        jobs.JobProgress(job)(1002, 1002)
        jobs._finish(job.pk, 1, EventJob.DONE, "stale")
        assert jobs.run_event_job.call(job.pk, 1).startswith("Nothing to do: attempt 1")
        fresh = EventJob.objects.get(pk=job.pk)
        assert (fresh.state, fresh.attempt, fresh.done) == ("queued", 2, 0)
        assert jobs.run_event_job.call(job.pk, 2) == "1 submission checked again."
        fresh.refresh_from_db()
        assert (fresh.state, fresh.done, fresh.total, fresh.message) == ("done", 1, 1, "1 submission checked again.")
        assert fresh.heartbeat_at is not None and Submission.objects.get().status == "legal"

    def test_the_worker_recovers_at_its_start_and_checks_lists_stored_without_a_check(self, event, queued_only,
                                                                                      legal_document):
        job = dead_job(event)
        store(event, parse_roster({**legal_document, "player": "Bob"}), "Bob")  # no check job asked for
        recovered = jobs.recover_stale_jobs()
        started = jobs.queue_unchecked_uploads()
        assert [(j.pk, j.state, j.attempt) for j in recovered] == [(job.pk, "queued", 2)]
        assert [(j.kind, j.state) for j in started] == [("recheck", "queued")]
        assert jobs.queue_unchecked_uploads() == []  # asked for once


class TestUploads:
    def test_a_worker_killed_mid_upload_stores_nothing(self, client_alice, event, legal_document, monkeypatch,
                                                       queued_only):
        stored = []
        real_store = submitting.store

        def killed_at_the_twelfth(*args, **kwargs):
            if len(stored) == 11:
                raise SystemExit("killed")  # what the web worker's death looks like to the transaction
            stored.append(real_store(*args, **kwargs))
            return stored[-1]
        monkeypatch.setattr(submitting, "store", killed_at_the_twelfth)
        files = [SimpleUploadedFile(f"p{i}.json", json.dumps({**legal_document, "player": f"P{i}"}).encode())
                 for i in range(100)]
        with pytest.raises(SystemExit):
            client_alice.post(reverse("event-upload", args=[event.pk]), {"files": files})
        assert len(stored) == 11
        assert (Submission.objects.count(), EventJob.objects.count(), queued_only.results) == (0, 0, [])

    def test_an_upload_is_stored_with_its_check_job(self, client_alice, event, legal_document, queued_only):
        files = [SimpleUploadedFile(f"p{i}.json", json.dumps({**legal_document, "player": f"P{i}"}).encode())
                 for i in range(3)]
        response = client_alice.post(reverse("event-upload", args=[event.pk]), {"files": files})
        assert response.status_code == 200
        job = EventJob.objects.get()
        assert (job.kind, job.state) == ("recheck", "queued")
        assert sorted(Submission.objects.values_list("player_name", "status")) == [
            ("P0", "submitted"), ("P1", "submitted"), ("P2", "submitted")]
        assert [r.args for r in queued_only.results] == [[job.pk, 1]]


class TestTheMusterOutOfDate:
    @pytest.fixture(autouse=True)
    def _at_once(self, tasks_at_once):
        pass

    def approve(self, client, sub, action="approve", note=""):
        return client.post(reverse("submission-review", args=[sub.event_id, sub.pk]), {"action": action, "note": note})

    def test_it_says_so_when_approvals_change_and_offers_a_new_one(self, client_alice, event, legal_document):
        subs = [store(event, parse_roster({**legal_document, "player": name}), name) for name in ("Bob", "Carl")]
        client_alice.post(reverse("event-recheck", args=[event.pk]))
        self.approve(client_alice, subs[0])
        client_alice.post(reverse("event-muster-start", args=[event.pk]))
        row = job_row(client_alice, event, "muster")
        assert 'id="muster-download"' in row and 'id="muster-out-of-date"' not in row
        assert "Make the muster PDF of the approved lists</button>" in row

        self.approve(client_alice, subs[1])  # a list approved after the PDF was made
        row = job_row(client_alice, event, "muster")
        assert ('<span class="notice" id="muster-out-of-date" role="status">Out of date: approvals changed since '
                'this PDF was made. Make a new one to print the lists approved now.</span>') in row
        assert "Make a new muster PDF</button>" in row and 'id="muster-download"' in row

        client_alice.post(reverse("event-muster-start", args=[event.pk]))
        row = job_row(client_alice, event, "muster")
        assert 'id="muster-out-of-date"' not in row
        assert EventJob.objects.filter(kind="muster", state="done").first().approved_key == jobs.approved_key(event)

        self.approve(client_alice, subs[0], "return", "Wrong version")  # an approval withdrawn
        assert 'id="muster-out-of-date"' in job_row(client_alice, event, "muster")
