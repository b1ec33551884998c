"""An update of a source as a background task (django-tasks, as the events' bulk work runs): the staff
page and the API only queue it; the worker (`manage.py db_worker`) fetches and imports, and the source's
row says what it did (`last_checked`, `last_message`) and the versions it made."""
from __future__ import annotations

from django.db import transaction
from django_tasks import task

from armylists.models import GameDataSource

from armylists.gamedata.updating import Busy, update


def queue_update(source: GameDataSource) -> None:
    # With the database backend the task is stored in the caller's transaction: committed, or not at all.
    with transaction.atomic():
        run_update.enqueue(source.pk)


@task()
def run_update(source_id: int) -> str:
    """Check one source; what it did ends in the source's row (an update already running: it says so)."""
    source = GameDataSource.objects.filter(pk=source_id).first()
    if source is None:
        return "The source was removed."
    try:
        update(source)
    except Busy as exc:
        return str(exc)
    source.refresh_from_db()
    return source.last_message
