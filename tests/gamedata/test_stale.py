"""An update whose worker was killed mid-way is said failed by the next look at the staff page, and the
source is free for the next update (issue 38 item 6); one still within STALE_AFTER is left running."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from armylists.gamedata.updating import STALE_AFTER, claim
from armylists.models import GameDataSource

pytestmark = pytest.mark.django_db


def test_a_killed_update_is_marked_failed_by_the_next_look(client, django_user_model, settings):
    settings.TIME_ZONE = "UTC"
    staff = django_user_model.objects.create_user("stella", "s@example.com", "stella-password-1", is_staff=True)
    killed = timezone.now() - STALE_AFTER - timedelta(minutes=1)
    dead = GameDataSource.objects.create(repository="BSData/mordheim", busy_since=killed)
    alive = GameDataSource.objects.create(repository="BSData/the-9th-age", busy_since=timezone.now())
    client.force_login(staff)
    page = client.get(reverse("game-data")).content.decode()
    dead.refresh_from_db()
    alive.refresh_from_db()
    said = (f"Failed: the update started at {killed:%Y-%m-%d %H:%M} stopped before it finished (its worker ended); "
            f"nothing was imported. Press Update to try again.")
    assert (dead.busy_since, dead.last_message) == (None, said) and said in page
    assert alive.busy_since is not None and alive.last_message == ""
    claim(dead)  # free for the next update
