"""Telling people what happened to a submission (issue 42 item 3): the player when the organiser returns
or approves their list, with the organiser's note; the organiser when a player submits a list again.

Each is a `Notice` shown on the person's lists until they dismiss it, and a mail through the configured
EMAIL_BACKEND to the address of their account, if it has one. A mail that cannot be sent is logged and
the notice kept: the organiser's review never fails for a mail server.
"""
from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import send_mail
from django.db.models import QuerySet

from armylists.models import Notice, Submission

log = logging.getLogger(__name__)

SUBJECTS = {
    Notice.RETURNED: "{event}: your list was returned",
    Notice.APPROVED: "{event}: your list is approved",
    Notice.RESUBMITTED: "{event}: {player} submitted a list again",
}


def notice_text(notice: Notice) -> str:
    """The notice in a sentence, as the page and the mail say it."""
    sub = notice.submission
    named = f"“{sub.list_name}”" if sub.list_name else "your list"
    if notice.kind == Notice.RETURNED:
        text = f"The organiser of {sub.event.name} returned {named}."
    elif notice.kind == Notice.APPROVED:
        text = f"The organiser of {sub.event.name} approved {named}."
    else:
        text = f"{sub.player_name} submitted a list again for {sub.event.name}: “{sub.list_name or 'unnamed'}”."
    return text


def _tell(user, sub: Submission, kind: str, note: str, link: str) -> Notice | None:
    if user is None:  # a list the organiser uploaded: nobody's account to tell
        return None
    notice = Notice.objects.create(user=user, submission=sub, kind=kind, note=note)
    if user.email:
        body = notice_text(notice) + (f"\n\nThe organiser's note:\n{note}" if note else "") + f"\n\n{link}\n"
        try:
            send_mail(SUBJECTS[kind].format(event=sub.event.name, player=sub.player_name)[:200], body,
                      settings.DEFAULT_FROM_EMAIL, [user.email])
        except (OSError, ValueError) as exc:  # smtplib's errors are OSErrors; the notice stands
            log.warning("notice %s: mail to user %s not sent: %s", notice.pk, user.pk, exc)
    return notice


def tell_player(sub: Submission, link: str) -> Notice | None:
    """After the organiser's review: a returned or approved list's player is told, with the note."""
    kind = {Submission.RETURNED: Notice.RETURNED, Submission.APPROVED: Notice.APPROVED}.get(sub.status)
    if kind is None:
        return None
    return _tell(sub.player, sub, kind, sub.note, link)


def tell_organiser(sub: Submission, link: str) -> Notice | None:
    """After a player submits again: the event's organiser is told (not when they submit themselves)."""
    if sub.player_id == sub.event.organiser_id:
        return None
    return _tell(sub.event.organiser, sub, Notice.RESUBMITTED, "", link)


def unread(user) -> QuerySet[Notice]:
    return Notice.objects.filter(user=user, read=False).select_related("submission__event")


def dismiss(user, pk: int) -> bool:
    """Mark one of the user's notices read; False when it is not theirs (or not there)."""
    return Notice.objects.filter(user=user, pk=pk).update(read=True) == 1
