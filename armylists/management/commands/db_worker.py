"""django-tasks' `db_worker`, first running again (or failing) the event jobs whose worker died, and
queueing a check of any list stored without one (armylists/events/jobs.py); then it works as ever.

It replaces django_tasks_db's command of the same name: `armylists` comes before `django_tasks_db` in
INSTALLED_APPS, and the first app naming a command wins."""
from __future__ import annotations

from django_tasks_db.management.commands.db_worker import Command as TasksWorker

from armylists.events.jobs import queue_unchecked_uploads, recover_stale_jobs


class Command(TasksWorker):
    help = ("Run the task worker (event jobs), first running again or failing the jobs a dead worker left "
            "running, and checking lists stored without a check.")

    def handle(self, *args, **options) -> None:
        say = self.stdout.write if options.get("verbosity", 1) else (lambda text: None)
        for job in recover_stale_jobs():
            say(f"Event job {job.pk} ({job.kind} of event {job.event_id}) lost its worker: "
                              f"{job.state}. {job.message}")
        for job in queue_unchecked_uploads():
            say(f"Lists of event {job.event_id} were stored without a check: checking them (job {job.pk}).")
        super().handle(*args, **options)
