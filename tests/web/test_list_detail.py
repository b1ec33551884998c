"""The list's read-only page, sharing it, and downloading it."""
from __future__ import annotations

import io
import json

import pytest
from django.urls import reverse
from pypdf import PdfReader

from armylists.models import ArmyList
from armylists.rules import parse_roster_json

pytestmark = pytest.mark.django_db


class TestListPage:
    def test_it_shows_the_units_and_the_report_read_only_with_downloads(self, client_alice, alice_list):
        response = client_alice.get(reverse("list-detail", args=[alice_list.pk]))
        assert response.status_code == 200
        assert response.context["can_edit"] is True
        cards = {c.id: c for s in response.context["sections"] for c in s.units}
        assert cards["marshal"].roles == ["General"]
        assert cards["marshal"].summary == "Shield, Horse, Giant Sword, Talisman of Greater Shielding"
        assert cards["halberds"].summary == ("Halberd, Champion, Musician, Veteran Standard Bearer "
                                             "(Banner of Discipline)")
        assert cards["wizard"].roles == ["Wizard level 2", "Path of Fire"]
        assert response.context["panel"]["total"] == alice_list.total_points
        content = response.content.decode()
        base = f"/lists/{alice_list.pk}/download/"
        assert response.context["downloads"] == [
            ("Text", f"{base}txt/"), ("JSON", f"{base}json/"), ("PDF roster", f"{base}pdf/?variant=full"),
            ("PDF, compact", f"{base}pdf/?variant=compact"), ("PDF, hidden list", f"{base}pdf/?variant=hidden")]
        for label, url in response.context["downloads"]:
            assert f'href="{url}"' in content and f">{label}</a>" in content
        assert "<form" in content and "unit-form" not in content  # sharing forms only; no editing here

    def test_it_costs_three_queries(self, client_alice, alice_list, django_assert_num_queries):
        client_alice.get(reverse("list-detail", args=[alice_list.pk]))
        with django_assert_num_queries(3):  # the session, the user, the list
            client_alice.get(reverse("list-detail", args=[alice_list.pk]))

    def test_an_illegal_list_shows_its_violations_by_its_units(self, client_alice, alice, legal_document):
        from .conftest import make_list
        doc = {**legal_document, "units": [{**u, "size": 70} if u["id"] == "halberds" else u
                                           for u in legal_document["units"]]}
        army_list = make_list(alice, doc)
        response = client_alice.get(reverse("list-detail", args=[army_list.pk]))
        halberds = next(c for s in response.context["sections"] for c in s.units if c.id == "halberds")
        assert [v.code for v in halberds.errors] == ["unit.size_max"]
        links = [v for v in response.context["panel"]["violations"] if v["unit"] == "halberds"]
        assert links[0]["href"] == "#unit-halberds" and links[0]["unit_name"] == "Heavy Infantry"


class TestSharing:
    def test_the_owner_creates_a_random_link_and_sees_it(self, client_alice, alice_list):
        response = client_alice.post(reverse("list-share", args=[alice_list.pk]), {"action": "share"})
        assert response["Location"] == reverse("list-detail", args=[alice_list.pk]) + "#share"
        alice_list.refresh_from_db()
        token = alice_list.share_token
        assert token and len(token) >= 20
        assert alice_list.revision == 1  # sharing is not an edit of the list
        page = client_alice.get(reverse("list-detail", args=[alice_list.pk])).content.decode()
        assert f"http://testserver/s/{token}/" in page and "Stop sharing" in page

    def test_sharing_again_keeps_the_link_and_revoking_ends_it(self, client_alice, alice_list):
        client_alice.post(reverse("list-share", args=[alice_list.pk]), {"action": "share"})
        first = ArmyList.objects.get(pk=alice_list.pk).share_token
        client_alice.post(reverse("list-share", args=[alice_list.pk]), {"action": "share"})
        assert ArmyList.objects.get(pk=alice_list.pk).share_token == first
        client_alice.post(reverse("list-share", args=[alice_list.pk]), {"action": "revoke"})
        assert ArmyList.objects.get(pk=alice_list.pk).share_token is None
        assert client_alice.get(reverse("shared-list", args=[first])).status_code == 404
        client_alice.post(reverse("list-share", args=[alice_list.pk]), {"action": "share"})
        assert ArmyList.objects.get(pk=alice_list.pk).share_token not in (None, first)

    def test_an_unknown_action_is_not_found(self, client_alice, alice_list):
        assert client_alice.post(reverse("list-share", args=[alice_list.pk]), {"action": "publish"}).status_code == 404


class TestDownloads:
    def test_json_is_the_list_document(self, client_alice, alice_list, legal_document):
        response = client_alice.get(reverse("list-download", args=[alice_list.pk, "json"]))
        assert response["Content-Type"] == "application/json; charset=utf-8"
        assert response["Content-Disposition"] == 'attachment; filename="Sonnstahl-combined-arms.json"'
        assert json.loads(response.content) == alice_list.document
        assert parse_roster_json(response.content).name == "Sonnstahl combined arms"

    def test_text_is_the_tournament_text_with_the_verdict(self, client_alice, alice_list):
        response = client_alice.get(reverse("list-download", args=[alice_list.pk, "txt"]))
        assert response["Content-Type"] == "text/plain; charset=utf-8"
        text = response.content.decode()
        assert text.startswith("List: Sonnstahl combined arms\n")
        assert "Marshal, General" in text and "\nLEGAL" in text

    def test_pdf_is_the_printed_roster(self, client_alice, alice_list):
        response = client_alice.get(reverse("list-download", args=[alice_list.pk, "pdf"]))
        assert response["Content-Type"] == "application/pdf"
        text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
        assert "Sonnstahl combined arms" in text and "Marshal" in text

    def test_an_unknown_format_is_not_found(self, client_alice, alice_list):
        assert client_alice.get(reverse("list-download", args=[alice_list.pk, "docx"])).status_code == 404
