"""What the database keeps: loaded rules files (every version ever loaded) and army lists."""
from __future__ import annotations

from django.conf import settings
from django.db import models


class RulesFile(models.Model):
    """One loaded rules data file: a system, an item list or an army book, at one version.

    Old versions stay, so a list built against a book version can always be checked against it.
    `content_hash` makes "same version, different content" detectable, and refused, at load time.
    """

    KIND_CHOICES = [("system", "System"), ("items", "Item list"), ("book", "Army book")]

    kind = models.CharField(max_length=10, choices=KIND_CHOICES)
    system = models.CharField(max_length=80)
    slug = models.CharField(max_length=80)
    version = models.CharField(max_length=40)
    name = models.CharField(max_length=200)
    content_hash = models.CharField(max_length=64)
    data = models.JSONField()
    source_path = models.CharField(max_length=300, blank=True)
    loaded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["kind", "system", "slug", "version"], name="unique_rules_file_version"),
        ]
        ordering = ["system", "kind", "slug", "version"]

    def __str__(self) -> str:
        return f"{self.kind} {self.system}/{self.slug} {self.version}"


class ArmyList(models.Model):
    """A saved list: the canonical document, plus a few columns to sort and filter by.

    `total_points` and `valid` are caches of the engine's Report, refreshed on every save of the
    document; `revision` grows by one on every change so stale edits can be refused.
    """

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="army_lists",
                              null=True, blank=True)
    name = models.CharField(max_length=200)
    system = models.CharField(max_length=80)
    book = models.CharField(max_length=80)
    book_version = models.CharField(max_length=40)
    points_limit = models.PositiveIntegerField()
    document = models.JSONField()
    total_points = models.IntegerField(default=0)
    valid = models.BooleanField(default=False)
    revision = models.PositiveIntegerField(default=1)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated"]
        indexes = [models.Index(fields=["owner", "-updated"]), models.Index(fields=["system", "book"])]

    def __str__(self) -> str:
        return self.name
