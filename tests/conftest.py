"""Shared fixtures: the real rules data, the test-only book, and builders for list documents."""
from __future__ import annotations

import copy
import shutil
from pathlib import Path

import os

import pytest
from hypothesis import settings as hypothesis_settings

from armylists.rules import Book, Library, Report, load_tree, parse_roster, validate
from armylists.rules.reading.loader import build_book, build_items, build_system, read_yaml

ROOT = Path(__file__).resolve().parent.parent
RULES_DATA = ROOT / "rules_data"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
SYSTEM = "t9a-0.11"
OWB = ROOT.parent / "shared" / "external" / "old-world-builder"  # Old World Builder's datasets, when present

# CI (.ci/run) is a gate: its hypothesis runs replay the same examples every time (derandomize), so a run
# fails for a defect in the change, not for an example a random draw first met. Run without the profile
# (the README's command) the examples are drawn afresh and kept in .hypothesis/, which is how the hostile
# suite keeps finding new defects (the nameless zip member was found so).
hypothesis_settings.register_profile("ci", derandomize=True, database=None)
if os.getenv("HYPOTHESIS_PROFILE"):
    hypothesis_settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])


def pytest_configure(config):
    """Django's PBKDF2 hashes every fixture user's password for a tenth of a second or more, which was a third of
    the suite's time. The tests check who may do what, never the hash's strength (the site keeps
    Django's default), so they hash with Django's fast test hasher, as Django's docs on fast tests advise."""
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(scope="session")
def owb_dataset():
    from armylists.importers.owb import read_dataset

    return read_dataset(OWB)


@pytest.fixture(scope="session")
def owb_conversion(owb_dataset, library):
    """Old World Builder's datasets converted to our books, once per run (three test modules read them)."""
    from armylists.importers.owb import convert

    return convert(owb_dataset, library.systems["the-old-world"])


@pytest.fixture(scope="session")
def owb_books(owb_conversion, library) -> dict[str, Book]:
    from armylists.importers.owb import check

    return check(owb_conversion, library.systems["the-old-world"])


@pytest.fixture(scope="session")
def library() -> Library:
    return load_tree(RULES_DATA)


@pytest.fixture(scope="session")
def tow_system():
    """The Old World's system, built straight from its file (no other system or book involved)."""
    return build_system(read_yaml(RULES_DATA / "the-old-world" / "system.yaml"), "system.yaml")


@pytest.fixture(scope="session")
def tow_books(tow_system) -> dict[str, Book]:
    """The Old World's three books with the common magic items, by id."""
    folder = RULES_DATA / "the-old-world"
    common = build_items(read_yaml(folder / "items" / "common.yaml"), tow_system, "items/common.yaml")
    return {bid: build_book(read_yaml(folder / "books" / f"{bid}.yaml"), tow_system, common, bid)
            for bid in ("empire-of-man", "orc-and-goblin-tribes", "dwarfen-mountain-holds")}


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A writable copy of the real rules data, for tests that break or change it."""
    root = tmp_path / "rules_data"
    shutil.copytree(RULES_DATA, root)
    return root


@pytest.fixture(scope="session")
def test_book(library: Library) -> Book:
    path = FIXTURES / "rules" / SYSTEM / "books" / "test-book.yaml"
    return build_book(read_yaml(path), library.systems[SYSTEM], library.common_items[SYSTEM], str(path))


def list_document(units: list[dict], points_limit: int = 2400, book: str = "test-book", version: str = "1",
                  **extra) -> dict:
    return {"format": "armylist/1", "system": SYSTEM, "book": book, "book_version": version,
            "points_limit": points_limit, "units": copy.deepcopy(units), **extra}


@pytest.fixture
def check(test_book: Book):
    """check(units, points_limit) -> Report against the test book."""
    def run(units: list[dict], points_limit: int = 2400, **extra) -> Report:
        return validate(test_book, parse_roster(list_document(units, points_limit, **extra)))
    return run


# --- people and their lists (database tests) ---------------------------------------------------

EXAMPLES = ROOT / "docs" / "examples"


@pytest.fixture
def legal_document() -> dict:
    import json
    return json.loads((EXAMPLES / "empire-2400-legal.json").read_text())


@pytest.fixture
def alice(django_user_model):
    return django_user_model.objects.create_user("alice", "alice@example.com", "alice-password-1")


@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user("bob", "bob@example.com", "bob-password-1")


@pytest.fixture
def client_alice(client, alice):
    """The site's test client, logged in as alice."""
    client.force_login(alice)
    return client


@pytest.fixture
def api_alice(alice):
    from rest_framework.test import APIClient
    client = APIClient()
    client.force_authenticate(alice)
    return client


@pytest.fixture
def api_bob(bob):
    from rest_framework.test import APIClient
    client = APIClient()
    client.force_authenticate(bob)
    return client


@pytest.fixture
def api_anonymous():
    from rest_framework.test import APIClient
    return APIClient()


@pytest.fixture
def alice_list(alice, legal_document):
    from armylists.lists.library.catalogue import report_for
    from armylists.models import ArmyList
    from armylists.rules import parse_roster
    roster = parse_roster(legal_document)
    army_list = ArmyList(owner=alice)
    army_list.set_document(roster, report_for(roster))
    army_list.save()
    return army_list


IMMEDIATE_TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}


@pytest.fixture
def tasks_at_once(settings):
    """Background tasks run as soon as they are queued, inside the request (the site's default is the
    database backend and a separate worker: `manage.py db_worker`)."""
    settings.TASKS = IMMEDIATE_TASKS


# --- rate limits ---------------------------------------------------------------------------------

@pytest.fixture(autouse=True)
def rate_limits_off(monkeypatch):
    """Tests send many requests as one user from one address: no rate limit unless a test sets its own
    (tests/security/test_rate_limits.py sets THROTTLE_RATES on ScopedRateThrottle, as this does)."""
    from rest_framework.throttling import ScopedRateThrottle
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES",
                        {scope: None for scope in ("validate", "write", "import", "export", "login")})


@pytest.fixture(autouse=True)
def stored_books_forgotten():
    """A process keeps each book read from the database by (system, book, version): the site refuses a
    second content under one version (RulesFile.content_hash), but each test's database is rolled back,
    so the next test may store other content under the same version. Forget them after every test."""
    yield
    from armylists.lists.library import catalogue
    catalogue._stored_books.clear()
