"""The models of a campaign of several players (issue 41 item 5; campaigns/league.py works with them).

Part of the `armylists` app (armylists/models.py imports them, so Django finds them): a campaign, the
warbands entered into it, and its battles, each recorded once for both warbands. The models they point at
are named by string ("armylists.ArmyList"), so this module imports nothing of armylists.models.
"""
from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models


def new_join_code() -> str:
    """A campaign's join code: 10 characters from 32 (50 bits), as a team's (armylists.models.new_join_code)."""
    return "".join(secrets.choice("abcdefghjkmnpqrstuvwxyz23456789") for _ in range(10))


class Campaign(models.Model):
    """A Mordheim campaign: anyone creates one; players join it with its code and enter their warbands."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="campaigns_run")
    name = models.CharField(max_length=200)
    # Joining needs only the code (the campaign is found by it), so it is unique; 50 bits, as a team's.
    join_code = models.CharField(max_length=20, default=new_join_code, unique=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return self.name


class CampaignWarband(models.Model):
    """A warband entered into a campaign by its owner; a list is in a campaign at most once."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="warbands")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    army_list = models.ForeignKey("armylists.ArmyList", on_delete=models.CASCADE, related_name="campaign_entries")
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined", "id"]
        constraints = [models.UniqueConstraint(fields=["campaign", "army_list"], name="one_entry_per_warband")]


class CampaignBattle(models.Model):
    """A battle between two warbands of a campaign, recorded once for both.

    The player who enters it confirms their side (`first_side`: the battle as the API's body has it, from
    their warband's view); it is pending until the other player confirms theirs, then the post-battle
    sequence is applied to both warbands in one transaction (each a new revision, named here). The other
    player may refuse it instead; a side whose result contradicts the first is not accepted."""

    PENDING, RECORDED, REFUSED = "pending", "recorded", "refused"
    STATUSES = [(PENDING, "Pending"), (RECORDED, "Recorded"), (REFUSED, "Refused")]

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="battles")
    first = models.ForeignKey(CampaignWarband, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(CampaignWarband, on_delete=models.CASCADE, related_name="+")
    first_side = models.JSONField()
    second_side = models.JSONField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=STATUSES, default=PENDING)
    note = models.TextField(blank=True)  # why it was refused, or the last conflicting entry, in plain words
    first_revision = models.PositiveIntegerField(null=True, blank=True)  # each warband's revision it made
    second_revision = models.PositiveIntegerField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    decided = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
