"""Who may see and change a list: one place, used by every list page.

A list is private: only its owner sees and edits it. Anybody else gets "not found", so a list's
existence is not revealed. A share link (`/s/<token>/`) shows it read-only to whoever holds it, and
stops working when the owner revokes it.
"""
from __future__ import annotations

from django.http import Http404, HttpRequest

from armylists.models import ArmyList


def get_list_for_user(request: HttpRequest, pk: int) -> ArmyList:
    """The list with `pk` if it is the request's user's own (whoever may see a list may edit it); else 404."""
    user = request.user
    if user.is_authenticated:
        found = ArmyList.objects.filter(pk=pk, owner_id=user.pk).first()
        if found is not None:
            return found
    raise Http404("No such list.")


def get_shared_list(token: str) -> ArmyList:
    """The list a share link points at, while it is shared; 404 for an unknown or revoked token."""
    if not token:
        raise Http404("No such list.")
    found = ArmyList.objects.filter(share_token=token).first()
    if found is None:
        raise Http404("This share link does not exist or was revoked.")
    return found
