"""My lists, and the actions on a list from there: rename, clone, delete."""
from __future__ import annotations

import pytest
from django.urls import reverse

from armylists.lists.library.catalogue import report_for
from armylists.models import ArmyList
from armylists.rules import parse_roster

from .conftest import make_list

pytestmark = pytest.mark.django_db


class TestMyLists:
    def test_it_shows_each_of_my_lists_with_its_system_book_points_and_verdict(self, client_alice, alice, alice_list,
                                                                                empty_list, bob, legal_document):
        make_list(bob, {**legal_document, "name": "Bob's list"})
        response = client_alice.get(reverse("my-lists"))
        assert response.status_code == 200
        rows = response.context["rows"]
        assert [r["list"].name for r in rows] == ["Fresh", "Sonnstahl combined arms"]
        legal = rows[1]
        assert (legal["system"], legal["book"], legal["unit"]) == (
            "The 9th Age: Fantasy Battles v0.11.9.3", "Empire of Sonnstahl 0.11.1", "pts")
        content = response.content.decode()
        assert "Bob&#x27;s list" not in content
        assert f"{alice_list.total_points:,} / 2,400 pts" in content
        assert content.count("badge-ok") == 1 and content.count("badge-error") == 1

    def test_it_costs_one_query_for_all_the_lists(self, client_alice, alice_list, empty_list, django_assert_num_queries):
        with django_assert_num_queries(4):  # the session, the user, the lists, the unread notices (issue 42)
            client_alice.get(reverse("my-lists"))

    def test_with_no_lists_it_invites_to_start_one(self, client_alice):
        content = client_alice.get(reverse("my-lists")).content.decode()
        assert "Start your first list" in content


class TestRename:
    def test_it_renames_the_list_and_its_document(self, client_alice, alice_list):
        response = client_alice.post(reverse("list-rename", args=[alice_list.pk]), {"name": " Knights ", "revision": 1})
        assert response.status_code == 302
        alice_list.refresh_from_db()
        assert (alice_list.name, alice_list.document["name"], alice_list.revision) == ("Knights", "Knights", 2)

    def test_a_blank_name_is_an_error_next_to_the_field(self, client_alice, alice_list):
        response = client_alice.post(reverse("list-rename", args=[alice_list.pk]), {"name": "", "revision": 1})
        assert response.status_code == 400
        content = response.content.decode()
        assert content.index('for="id_name"') < content.index("This field is required.")
        alice_list.refresh_from_db()
        assert alice_list.name == "Sonnstahl combined arms"

    def test_a_stale_rename_changes_nothing(self, client_alice, alice_list):
        roster = parse_roster({**alice_list.document, "name": "Changed elsewhere"})
        alice_list.set_document(roster, report_for(roster))
        assert alice_list.save_if_revision(1)  # another window saved revision 2
        response = client_alice.post(reverse("list-rename", args=[alice_list.pk]), {"name": "Mine", "revision": 1})
        assert response.status_code == 400
        assert "changed in another window" in response.content.decode()
        assert 'name="revision" value="2"' in response.content.decode()
        alice_list.refresh_from_db()
        assert alice_list.name == "Changed elsewhere"


class TestClone:
    def test_it_copies_the_list_under_a_new_name_unshared(self, client_alice, shared_list):
        response = client_alice.post(reverse("list-clone", args=[shared_list.pk]))
        copy = ArmyList.objects.exclude(pk=shared_list.pk).get()
        assert response["Location"] == f"/lists/#list-{copy.pk}"
        assert copy.name == "Sonnstahl combined arms (copy)"
        assert copy.document["units"] == shared_list.document["units"]
        assert (copy.owner_id, copy.total_points, copy.valid) == (shared_list.owner_id, shared_list.total_points, True)
        assert (copy.revision, copy.share_token) == (1, None)


class TestDelete:
    def test_it_asks_first(self, client_alice, alice_list):
        response = client_alice.get(reverse("list-delete", args=[alice_list.pk]))
        assert "Delete “Sonnstahl combined arms”?" in response.content.decode()
        assert ArmyList.objects.filter(pk=alice_list.pk).exists()

    def test_it_deletes_the_list(self, client_alice, alice_list):
        response = client_alice.post(reverse("list-delete", args=[alice_list.pk]))
        assert response["Location"] == reverse("my-lists")
        assert not ArmyList.objects.filter(pk=alice_list.pk).exists()
