"""A new password ends what the old one opened: every API token of the user is revoked, and a login
lockout on the account is lifted (the password reset is the way out of a lockout).

Caught on the user's save, so every way to change a password counts: the password change and reset
pages, the admin, `manage.py changepassword`.
"""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models.signals import pre_save


def _password_changed(sender, instance, update_fields=None, **kwargs) -> None:
    if instance.pk is None or (update_fields is not None and "password" not in update_fields):
        return  # a new user, or a save that cannot touch the password (last_login at each log-in)
    old = sender.objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    if old is None or old == instance.password:
        return
    from axes.utils import reset
    from armylists.models import ApiToken

    ApiToken.objects.filter(user_id=instance.pk).delete()
    reset(username=instance.get_username())


def connect() -> None:
    pre_save.connect(_password_changed, sender=get_user_model(), dispatch_uid="armylists.password_changed")
