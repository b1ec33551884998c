"""Commands keep no text of their queries under DEBUG (issue 39 item 3; management/query_log.py): an import
writing large JSON rows held every statement's text while it ran, with the README's default settings."""
from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection, reset_queries
from django.test.utils import override_settings

from armylists.management.query_log import no_query_log
from armylists.models import RulesFile

from tests.commands.test_import_nr_t9a_dates import history_of_two_days

pytestmark = pytest.mark.django_db


@override_settings(DEBUG=True)
def test_queries_inside_are_run_but_not_kept_and_the_log_comes_back_after():
    reset_queries()
    RulesFile.objects.count()
    assert len(connection.queries) == 1
    with no_query_log():
        assert RulesFile.objects.count() == 0
        RulesFile.objects.exists()
        assert list(connection.queries_log) == []
    assert len(connection.queries) == 1      # the log kept before, and kept again after
    RulesFile.objects.count()
    assert len(connection.queries) == 2


@override_settings(DEBUG=True)
def test_an_import_of_every_date_keeps_no_query_text(tmp_path):
    folder = history_of_two_days(tmp_path)
    reset_queries()
    call_command("import_nr_t9a", str(folder), "--all-versions", "-v", "0", stdout=StringIO())
    assert connection.queries == []
    assert RulesFile.objects.filter(kind="book").count() == 2
