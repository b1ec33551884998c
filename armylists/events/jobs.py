"""Organisers' bulk work as background tasks: checking every submission again, the muster PDF.

A web request only records an EventJob and enqueues `run_event_job` (django-tasks, database backend by
default); the worker (`python manage.py db_worker`) runs it and writes its progress to the row, which
the event page polls. Nothing here holds a request open while hundreds of lists are checked or printed.

A worker can die half-way (killed, out of memory, the machine restarted): the job's row would say
"running" for ever. So a running job writes a heartbeat as it goes, and one not heard from for
EVENT_JOB_STALE_SECONDS is stale (`recover_stale_jobs`, run when the worker starts and when the event's
page or its job panel is read): it is run again from the start once, and a second time it is failed
with a message the organiser sees, and a button to run it again.
"""
from __future__ import annotations

import hashlib
import logging
import time
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django_tasks import task

from armylists.models import Event, EventJob, Submission

from armylists.events.checking import EventSetupError, check_event
from armylists.events.reporting import muster_pdf

logger = logging.getLogger(__name__)

PROGRESS_EVERY = 0.5  # seconds between progress writes: the page polls each second; a write per list is waste
MAX_ATTEMPTS = 2  # a job whose worker died is run again once from the start; the second time it fails
INTERNAL_ERROR = "An internal error stopped it; the worker's log has the details. Try again, or tell the site's admins."
RUN_AGAIN = "Run again from the start: the worker running it stopped (last heard from at {at})."
WORKER_DIED = ("The worker running it stopped twice (last heard from at {at}); run it again, and if it stops again "
               "tell the site's admins.")


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
        run_event_job.enqueue(job.pk, job.attempt)
    return job, True


def approved_key(event: Event) -> str:
    """What a muster PDF printed, as a key: each approved list's id and checksum, hashed. Another key
    later means an approval was given, withdrawn or replaced: the PDF is out of date."""
    approved = event.submissions.filter(status=Submission.APPROVED).order_by("pk").values_list("pk", "checksum")
    return hashlib.sha256(" ".join(f"{pk}:{checksum}" for pk, checksum in approved).encode()).hexdigest()


def jobs_context(event: Event) -> dict:
    """What the event page shows of the bulk work: the newest job of each kind (progress or result),
    whether one is still to finish (the page polls then), the newest finished muster PDF and whether
    the approvals changed since it was made. A job whose worker died is noticed here first."""
    recover_stale_jobs(event)
    jobs = EventJob.objects.filter(event=event).defer("pdf")
    latest = {kind: found for kind, _ in EventJob.KIND_CHOICES if (found := jobs.filter(kind=kind).first())}
    ready = jobs.filter(kind=EventJob.MUSTER, state=EventJob.DONE).first()
    return {
        "job_rows": [(kind, label, latest.get(kind)) for kind, label in EventJob.KIND_CHOICES],
        "jobs_busy": any(not job.finished for job in latest.values()),
        "muster_ready": ready,
        "muster_out_of_date": ready is not None and ready.approved_key != approved_key(event),
    }


# --- a job whose worker died ---------------------------------------------------------------------

def stale_after() -> timedelta:
    return timedelta(seconds=settings.EVENT_JOB_STALE_SECONDS)


def recover_stale_jobs(event: Event | None = None) -> list[EventJob]:
    """Every running job (of `event`, or of all events) not heard from for EVENT_JOB_STALE_SECONDS: run
    again from the start (a new attempt; the dead one's writes are ignored), or failed on its
    MAX_ATTEMPTS-th stop with WORKER_DIED. Returns the jobs changed, as they are now.

    Each change is one conditional UPDATE on the attempt, so two pages or workers noticing the same
    job at once change it once."""
    cutoff = timezone.now() - stale_after()
    stale = EventJob.objects.filter(state=EventJob.RUNNING).filter(
        Q(heartbeat_at__lt=cutoff) | Q(heartbeat_at=None, started_at__lt=cutoff)).defer("pdf")
    if event is not None:
        stale = stale.filter(event=event)
    changed = []
    for job in stale:
        heard = timezone.localtime(job.heartbeat_at or job.started_at)
        at = f"{heard:%Y-%m-%d %H:%M:%S}"
        mine = EventJob.objects.filter(pk=job.pk, state=EventJob.RUNNING, attempt=job.attempt)
        with transaction.atomic():
            if job.attempt < MAX_ATTEMPTS:
                if mine.update(state=EventJob.QUEUED, attempt=job.attempt + 1, done=0, total=0, heartbeat_at=None,
                               started_at=None, message=RUN_AGAIN.format(at=at)):
                    run_event_job.enqueue(job.pk, job.attempt + 1)
                    changed.append(job.pk)
            elif mine.update(state=EventJob.FAILED, message=WORKER_DIED.format(at=at), finished_at=timezone.now()):
                changed.append(job.pk)
        if job.pk in changed:
            logger.warning("event job %s (%s of event %s) lost its worker at attempt %s", job.pk, job.kind,
                           job.event_id, job.attempt)
    return list(EventJob.objects.filter(pk__in=changed).defer("pdf"))


def queue_unchecked_uploads() -> list[EventJob]:
    """A check for every event with a list stored "submitted" after its last check job was asked for:
    a list that no job will check (stored before uploads were one transaction with their job)."""
    started = []
    waiting = Submission.objects.filter(status=Submission.SUBMITTED).values("event").annotate(last=Max("submitted_at"))
    for row in waiting:
        newest_job = EventJob.objects.filter(event_id=row["event"], kind=EventJob.RECHECK).aggregate(at=Max("created_at"))
        if newest_job["at"] is None or newest_job["at"] < row["last"]:
            job, new = start_job(Event.objects.get(pk=row["event"]), EventJob.RECHECK)
            if new:
                started.append(job)
    return started


# --- running one ---------------------------------------------------------------------------------------

class JobProgress:
    """Writes (done, total) and the heartbeat to the job's row, at most every PROGRESS_EVERY seconds, and
    always the end; only while the row is still this run's attempt."""

    def __init__(self, job: EventJob) -> None:
        self.job_id, self.attempt = job.pk, job.attempt
        self.written = 0.0
        self.delay = settings.EVENT_JOB_STEP_DELAY  # tests slow a job down with it (0 on a real site)

    def __call__(self, done: int, total: int) -> None:
        if self.delay:
            time.sleep(self.delay)
        now = time.monotonic()
        if done < total and now - self.written < PROGRESS_EVERY:
            return
        self.written = now
        EventJob.objects.filter(pk=self.job_id, attempt=self.attempt).update(done=done, total=total,
                                                                            heartbeat_at=timezone.now())


def _finish(job_id: int, attempt: int, state: str, message: str, **fields) -> None:
    EventJob.objects.filter(pk=job_id, attempt=attempt).update(state=state, message=message,
                                                              finished_at=timezone.now(), **fields)


@task()
def run_event_job(job_id: int, attempt: int = 1) -> str:
    """Run one EventJob: its state, progress and result (or why it failed) end up in its row.

    Only the run of the row's current attempt starts it: a task of an attempt given up as stale (its
    worker was thought dead), or delivered twice, does nothing."""
    now = timezone.now()
    if not EventJob.objects.filter(pk=job_id, attempt=attempt, state=EventJob.QUEUED).update(
            state=EventJob.RUNNING, started_at=now, heartbeat_at=now):
        return f"Nothing to do: attempt {attempt} of job {job_id} is not the one waiting to run."
    job = EventJob.objects.select_related("event").defer("pdf").get(pk=job_id)
    progress = JobProgress(job)
    try:
        if job.kind == EventJob.RECHECK:
            checked = check_event(job.event, progress=progress)
            progress(len(checked), len(checked))
            message, result = f"{len(checked)} submission{'' if len(checked) == 1 else 's'} checked again.", {}
        else:
            key = approved_key(job.event)
            content = muster_pdf(job.event, progress=progress)
            message, result = f"Ready: {len(content) // 1024 + 1} kB.", {"pdf": content, "approved_key": key}
    except EventSetupError as exc:  # the organiser's own settings: say what to fix
        _finish(job_id, attempt, EventJob.FAILED, str(exc))
        raise
    except Exception:
        logger.exception("event job %s (%s of event %s) failed", job_id, job.kind, job.event_id)
        _finish(job_id, attempt, EventJob.FAILED, INTERNAL_ERROR)
        raise
    _finish(job_id, attempt, EventJob.DONE, message, **result)
    return message
