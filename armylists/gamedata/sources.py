"""Sources of game data added, listed and held: what the command, the staff page and the API share.

    source = add_source("BSData/mordheim", kind="", maps_to="mordheim")   # Refused: why it was not added
    hold(source, "v1.2")                                                   # new lists stay on that version

Adding asks the internet nothing: a repository is "owner/name" (or its https://github.com/ address),
anything else must be an https URL on the allow-list. The kind is guessed from the first download
when it is not given.
"""
from __future__ import annotations

import urllib.parse
from pathlib import Path

import yaml
from django.conf import settings
from django.db import IntegrityError, transaction

from armylists.importers import nr_t9a, owb
from armylists.lists.library.catalogue import disk_library
from armylists.models import GameDataSource, GameDataVersion

from armylists.gamedata.github import REPOSITORY
from armylists.gamedata.fetching import loopback_literal, shown

RECOMMENDED_FILE = Path(__file__).with_name("recommended.yaml")
# The kinds whose importer stores books in one system of ours: `maps_to` can only be that one.
IMPORTED_INTO = {"nr-t9a": nr_t9a.SYSTEM_ID, "owb": owb.SYSTEM_ID}
KINDS = [k for k, _ in GameDataSource.KIND_CHOICES]


class Refused(Exception):
    """A source not added or not changed; str() says why, for people."""


def recommended() -> list[dict]:
    return yaml.safe_load(RECOMMENDED_FILE.read_text(encoding="utf-8"))


def parse_where(where: str) -> tuple[str, str]:
    """(repository, url) for "owner/name", https://github.com/owner/name, or an https zip URL."""
    where = where.strip()
    if REPOSITORY.fullmatch(where):
        return where, ""
    parts = urllib.parse.urlsplit(where)
    if parts.scheme == "https" and parts.hostname == "github.com":
        path = parts.path.strip("/").removesuffix(".git")
        if REPOSITORY.fullmatch(path):
            return path, ""
    loopback = settings.GAME_DATA_TEST_LOOPBACK and parts.scheme == "http" and loopback_literal(parts.hostname or "")
    if parts.scheme != "https" and not loopback:
        raise Refused(f"{shown(where) if parts.scheme else where!r} is neither a GitHub repository (owner/name) "
                      f"nor an https:// address")
    hosts = [h.lower() for h in settings.GAME_DATA_HOSTS]
    if (parts.hostname or "") not in hosts:
        raise Refused(f"{shown(where)}: the host {parts.hostname} is not on the allow-list (GAME_DATA_HOSTS: "
                      f"{', '.join(hosts)})")
    if parts.username or parts.password:
        raise Refused(f"{shown(where)}: an address with a user or password is not stored")
    return "", where


def add_source(where: str, kind: str = "", maps_to: str = "") -> GameDataSource:
    repository, url = parse_where(where)
    if kind and kind not in KINDS:
        raise Refused(f"{kind!r} is not a kind of game data: {', '.join(KINDS)}")
    if maps_to and maps_to not in disk_library().systems:
        raise Refused(f"{maps_to!r} is not a system of this site: {', '.join(sorted(disk_library().systems))}")
    if maps_to and IMPORTED_INTO.get(kind, maps_to) != maps_to:
        raise Refused(f"{kind} data is imported into {IMPORTED_INTO[kind]}; it cannot map onto {maps_to}")
    if GameDataSource.objects.filter(repository=repository, url=url).exists():
        raise Refused(f"{repository or shown(url)} is already a source")
    try:
        with transaction.atomic():
            return GameDataSource.objects.create(repository=repository, url=url, kind=kind, maps_to=maps_to)
    except IntegrityError:
        raise Refused(f"{repository or shown(url)} is already a source") from None


def find_source(name: str) -> GameDataSource:
    repository, url = parse_where(name)
    source = GameDataSource.objects.filter(repository=repository, url=url).first()
    if source is None:
        raise Refused(f"{name} is not a source; add it first (manage.py game_data add {name})")
    return source


def hold(source: GameDataSource, ref: str) -> GameDataVersion:
    """Keep new lists on the imported version `ref` (a tag, or a commit sha or its first 7 characters or more)."""
    versions = source.versions.filter(status=GameDataVersion.OK)
    found = versions.filter(ref=ref).first() or (versions.filter(ref__startswith=ref).first() if len(ref) >= 7 else None)
    if found is None:
        raise Refused(f"{source} has no imported version {ref}")
    GameDataSource.objects.filter(pk=source.pk).update(held=found)
    source.held = found
    return found


def release_hold(source: GameDataSource) -> None:
    GameDataSource.objects.filter(pk=source.pk).update(held=None)
    source.held = None
