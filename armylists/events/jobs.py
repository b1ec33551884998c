"""Organisers' bulk work as background tasks: checking every submission again, the muster PDF.

A web request only records an EventJob and enqueues `run_event_job` (django-tasks, database backend by
default); the worker (`python manage.py db_worker`) runs it and writes its progress to the row, which
the event page polls. Nothing here holds a request open while hundreds of lists are checked or printed.
"""
from __future__ import annotations

import logging
import time

from django.db import transaction
from django.utils import timezone
from django_tasks import task

from armylists.models import Event, EventJob

from armylists.events.checking import EventSetupError, check_event
from armylists.events.reporting import muster_pdf

logger = logging.getLogger(__name__)

PROGRESS_EVERY = 0.5  # seconds between progress writes: the page polls each second; a write per list is waste
INTERNAL_ERROR = "An internal error stopped it; the worker's log has the details. Try again, or tell the site's admins."


def start_job(event: Event, kind: str) -> tuple[EventJob, bool]:
    """The job that will do `kind` for `event`, and whether it is new.

    A job of the same kind that is still queued is reused: it reads the event's settings when it starts,
    so a second request would only repeat it. A running one is not: the settings may have changed since."""
    with transaction.atomic():
        queued = EventJob.objects.select_for_update().filter(event=event, kind=kind, state=EventJob.QUEUED).first()
        if queued is not None:
            return queued, False
        job = EventJob.objects.create(event=event, kind=kind)
        # In the same transaction as the job's row: with the database backend both are committed, or
        # neither, so a worker never sees a task whose job row is missing, nor a job nobody will run.
        run_event_job.enqueue(job.pk)
    return job, True


def jobs_context(event: Event) -> dict:
    """What the event page shows of the bulk work: the newest job of each kind (progress or result),
    whether one is still to finish (the page polls then), and the newest finished muster PDF."""
    jobs = EventJob.objects.filter(event=event).defer("pdf")
    latest = {kind: found for kind, _ in EventJob.KIND_CHOICES if (found := jobs.filter(kind=kind).first())}
    return {
        "job_rows": [(kind, label, latest.get(kind)) for kind, label in EventJob.KIND_CHOICES],
        "jobs_busy": any(not job.finished for job in latest.values()),
        "muster_ready": jobs.filter(kind=EventJob.MUSTER, state=EventJob.DONE).first(),
    }


class JobProgress:
    """Writes (done, total) to the job's row, at most every PROGRESS_EVERY seconds, and always the end."""

    def __init__(self, job: EventJob) -> None:
        self.job_id = job.pk
        self.written = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - self.written < PROGRESS_EVERY:
            return
        self.written = now
        EventJob.objects.filter(pk=self.job_id).update(done=done, total=total)


def _finish(job_id: int, state: str, message: str, **fields) -> None:
    EventJob.objects.filter(pk=job_id).update(state=state, message=message, finished_at=timezone.now(), **fields)


@task()
def run_event_job(job_id: int) -> str:
    """Run one EventJob: its state, progress and result (or why it failed) end up in its row."""
    job = EventJob.objects.select_related("event").get(pk=job_id)
    EventJob.objects.filter(pk=job_id).update(state=EventJob.RUNNING, started_at=timezone.now())
    progress = JobProgress(job)
    try:
        if job.kind == EventJob.RECHECK:
            checked = check_event(job.event, progress=progress)
            progress(len(checked), len(checked))
            message, result = f"{len(checked)} submission{'' if len(checked) == 1 else 's'} checked again.", {}
        else:
            content = muster_pdf(job.event, progress=progress)
            message, result = f"Ready: {len(content) // 1024 + 1} kB.", {"pdf": content}
    except EventSetupError as exc:  # the organiser's own settings: say what to fix
        _finish(job_id, EventJob.FAILED, str(exc))
        raise
    except Exception:
        logger.exception("event job %s (%s of event %s) failed", job_id, job.kind, job.event_id)
        _finish(job_id, EventJob.FAILED, INTERNAL_ERROR)
        raise
    _finish(job_id, EventJob.DONE, message, **result)
    return message
