"""Organisers' bulk work as background tasks (events.jobs): queued by a request, run by the worker,
its progress, result and errors shown on the event page; the muster PDF downloaded when it is done."""
from __future__ import annotations

import io
import json
from datetime import date, timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from armylists.events import jobs
from armylists.events.checking import check_event
from armylists.events.submitting import store
from armylists.models import Event, EventJob, Submission
from armylists.rules import parse_roster

from ..conftest import EXAMPLES

ILLEGAL = json.loads((EXAMPLES / "empire-2400-illegal.json").read_text())


@pytest.fixture
def event(alice):
    return Event.objects.create(organiser=alice, name="Club GT", date=date.today() + timedelta(days=10),
                                system="t9a-0.11", books=["empire-of-sonnstahl"], points_limit=2400,
                                deadline=timezone.now() + timedelta(days=5))


@pytest.fixture
def three_stored(event, legal_document):
    """Three uploaded lists, not checked yet (status "submitted"); Dave's is approved."""
    subs = {name: store(event, parse_roster({**legal_document, "player": name}), name) for name in ("Bob", "Carl")}
    subs["Dave"] = store(event, parse_roster({**legal_document, "player": "Dave"}), "Dave")
    Submission.objects.filter(pk=subs["Dave"].pk).update(status=Submission.APPROVED, valid=True)
    return subs


def page_of(client, event) -> str:
    return client.get(reverse("event-detail", args=[event.pk])).content.decode()


def job_row(page: str, kind: str) -> str:
    start = page.index(f'id="job-{kind}"')
    return " ".join(page[start:page.index("</li>", start)].split())


# --- through the real database worker ----------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
class TestTheDatabaseWorker:
    def run_worker(self):
        call_command("db_worker", batch=True, startup_delay=False, interval=0, verbosity=0)

    def test_it_checks_every_submission_after_the_request_and_shows_it(self, client_alice, event, three_stored):
        response = client_alice.post(reverse("event-recheck", args=[event.pk]))
        assert response.status_code == 302
        job = EventJob.objects.get()
        assert (job.kind, job.state, job.done) == ("recheck", "queued", 0)
        # nothing was checked inside the request
        assert set(Submission.objects.values_list("status", flat=True)) == {"submitted", "approved"}
        page = page_of(client_alice, event)
        assert "Every submission is being checked again; the progress is below." in page
        assert ("queued, waiting for the task worker (<code>python manage.py db_worker</code>) to start it."
                in job_row(page, "recheck"))
        assert 'hx-trigger="every 1s"' in page  # the page polls while the job is to finish

        self.run_worker()

        job.refresh_from_db()
        assert (job.state, job.done, job.total, job.message) == ("done", 3, 3, "3 submissions checked again.")
        statuses = dict(Submission.objects.values_list("player_name", "status"))
        assert statuses == {"Bob": "legal", "Carl": "legal", "Dave": "approved"}
        page = page_of(client_alice, event)
        assert "done " in job_row(page, "recheck") and "3 submissions checked again." in job_row(page, "recheck")
        assert 'hx-trigger="every 1s"' not in page

    def test_it_makes_the_muster_pdf_to_download_when_done(self, client_alice, event, three_stored):
        url = reverse("event-muster", args=[event.pk])
        response = client_alice.get(url)  # nothing made yet: back to the event, saying so
        assert response.status_code == 302 and response["Location"] == reverse("event-detail", args=[event.pk])
        assert "No muster PDF is ready yet: make one first." in page_of(client_alice, event)
        client_alice.post(reverse("event-muster-start", args=[event.pk]))
        assert 'id="muster-download"' not in page_of(client_alice, event)

        self.run_worker()

        job = EventJob.objects.get(kind="muster")
        assert (job.state, job.done, job.total) == ("done", 2, 2)  # one approved list: checked, then laid out
        # The fixture stored the lists without a check job: the worker found them at its start and checked them.
        assert EventJob.objects.get(kind="recheck").state == "done"
        page = page_of(client_alice, event)
        assert f'id="muster-download" href="{url}"' in page
        response = client_alice.get(url)
        assert response["Content-Type"] == "application/pdf"
        assert response["Content-Disposition"] == 'attachment; filename="Club-GT-approved-lists.pdf"'
        reader = PdfReader(io.BytesIO(response.content))
        cover = reader.pages[0].extract_text()
        assert "1 approved list" in cover and "Dave" in cover and "Bob" not in cover


# --- run at once (test backend) ------------------------------------------------------------------------

@pytest.mark.django_db
class TestJobs:
    @pytest.fixture(autouse=True)
    def _at_once(self, tasks_at_once):
        pass

    def test_it_shows_the_progress_of_a_running_job_and_reloads_when_it_ends(self, client_alice, event):
        job = EventJob.objects.create(event=event, kind=EventJob.RECHECK, state=EventJob.RUNNING, done=1, total=3)
        url = reverse("event-jobs", args=[event.pk])
        fragment = client_alice.get(url, {"polling": "1"})
        row = job_row(fragment.content.decode(), "recheck")
        assert "running, 1 of 3 steps (33%)" in row and '<progress max="3" value="1">' in row
        assert "HX-Refresh" not in fragment
        EventJob.objects.filter(pk=job.pk).update(state=EventJob.DONE, done=3, message="3 submissions checked again.")
        finished = client_alice.get(url, {"polling": "1"})
        assert finished["HX-Refresh"] == "true"  # the table below is stale: the page reloads
        assert "3 submissions checked again." in finished.content.decode()

    def test_it_writes_progress_as_it_goes_and_the_end(self, event, three_stored, monkeypatch):
        job = EventJob.objects.create(event=event, kind=EventJob.RECHECK)
        seen = []
        monkeypatch.setattr(jobs, "PROGRESS_EVERY", 0)  # every step, so each write is seen
        progress = jobs.JobProgress(job)
        check_event(event, progress=lambda done, total: (progress(done, total),
                                                          seen.append(EventJob.objects.get(pk=job.pk).done)))
        assert seen == [0, 1, 2]

    def test_a_second_request_reuses_the_queued_job(self, event, settings):
        settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}  # queued, never run
        first, new = jobs.start_job(event, EventJob.RECHECK)
        again, new_again = jobs.start_job(event, EventJob.RECHECK)
        muster, _ = jobs.start_job(event, EventJob.MUSTER)
        assert (new, new_again, again.pk) == (True, False, first.pk) and muster.pk != first.pk
        EventJob.objects.filter(pk=first.pk).update(state=EventJob.RUNNING)
        assert jobs.start_job(event, EventJob.RECHECK)[1] is True  # a running one may read old settings

    def test_event_rules_that_no_longer_load_fail_the_job_and_say_why(self, client_alice, event, three_stored):
        Event.objects.filter(pk=event.pk).update(rules_text="- {id: x, type: no-such-rule}")
        client_alice.post(reverse("event-recheck", args=[event.pk]))
        job = EventJob.objects.get()
        assert job.state == "failed" and job.message.startswith("The event rules cannot be used: event rules")
        assert "no-such-rule" in job.message
        row = job_row(page_of(client_alice, event), "recheck")
        assert "failed " in row and "The event rules cannot be used" in row
        assert set(Submission.objects.values_list("status", flat=True)) == {"submitted", "approved"}

    def test_an_internal_error_fails_the_job_without_a_traceback_on_the_page(self, client_alice, event, monkeypatch):
        def broken(*args, **kwargs):
            raise RuntimeError("disk full")
        monkeypatch.setattr(jobs, "muster_pdf", broken)
        response = client_alice.post(reverse("event-muster-start", args=[event.pk]))
        assert response.status_code == 302
        job = EventJob.objects.get()
        assert (job.state, job.message) == ("failed", jobs.INTERNAL_ERROR)
        page = page_of(client_alice, event)
        assert jobs.INTERNAL_ERROR.replace("'", "&#x27;") in job_row(page, "muster") and "disk full" not in page
        assert 'id="muster-download"' not in page

    def test_a_check_does_not_overwrite_a_copy_replaced_while_it_ran(self, event, three_stored):
        bob = three_stored["Bob"]
        illegal = parse_roster({**ILLEGAL, "player": "Bob"})

        def player_resubmits(done, total):
            if done == 0:
                store(event, illegal, "Bob")  # while the check reads the lists
        check_event(event, progress=player_resubmits)
        bob.refresh_from_db()
        assert (bob.status, bob.checked_at) == ("submitted", None)  # its own check is still to come
        assert Submission.objects.get(player_name="Carl").status == "legal"

    def test_only_the_organiser_starts_or_downloads(self, client, event, bob, alice):
        client.force_login(bob)
        for name in ("event-recheck", "event-muster-start"):
            assert client.post(reverse(name, args=[event.pk])).status_code == 404
        for name in ("event-muster", "event-jobs"):
            assert client.get(reverse(name, args=[event.pk])).status_code == 404
        assert not EventJob.objects.exists()
