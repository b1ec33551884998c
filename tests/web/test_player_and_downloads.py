"""The list's player and team, set on its name page and printed; every PDF variant offered, each under
its own file name."""
from __future__ import annotations

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from armylists.exports import export_text, parse_list_text
from armylists.lists.library.catalogue import disk_library, report_for
from armylists.rules import parse_roster

pytestmark = pytest.mark.django_db


def pdf_text(data: bytes) -> str:
    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(data)).pages)


class TestPlayerAndTeam:
    def test_the_name_page_sets_the_player_and_team_and_keeps_them_in_the_document(self, client_alice, alice_list):
        page = client_alice.get(reverse("list-rename", args=[alice_list.pk]))
        assert page.context["form"].initial["player"] == alice_list.document.get("player", "")
        response = client_alice.post(reverse("list-rename", args=[alice_list.pk]), {
            "name": "Sonnstahl", "player": "  Ann   Smith ", "team": "Team Reikland", "revision": alice_list.revision})
        assert response.status_code == 302
        alice_list.refresh_from_db()
        assert (alice_list.name, alice_list.player, alice_list.team) == ("Sonnstahl", "Ann Smith", "Team Reikland")
        assert (alice_list.document["player"], alice_list.document["team"]) == ("Ann Smith", "Team Reikland")

    def test_a_rename_without_the_player_fields_keeps_them(self, client_alice, alice_list):
        client_alice.post(reverse("list-rename", args=[alice_list.pk]), {
            "name": "First", "player": "Ann", "team": "", "revision": alice_list.revision})
        alice_list.refresh_from_db()
        client_alice.post(reverse("list-rename", args=[alice_list.pk]), {"name": "Second", "revision": alice_list.revision})
        alice_list.refresh_from_db()
        assert (alice_list.name, alice_list.player, alice_list.team) == ("Second", "Ann", "")

    def test_the_player_and_team_are_printed_on_the_roster_and_in_the_text(self, client_alice, alice_list):
        client_alice.post(reverse("list-rename", args=[alice_list.pk]), {
            "name": "Sonnstahl", "player": "Ann", "team": "Team Reikland", "revision": alice_list.revision})
        pdf = client_alice.get(reverse("list-download", args=[alice_list.pk, "pdf"]) + "?variant=full")
        assert "Player Ann (Team Reikland)" in pdf_text(pdf.content)
        text = client_alice.get(reverse("list-download", args=[alice_list.pk, "txt"])).content.decode()
        assert "Player: Ann\nTeam: Team Reikland\n" in text

    def test_the_team_reads_back_from_the_text(self, legal_document):
        roster = parse_roster({**legal_document, "player": "Ann", "team": "Reikland"})
        book = disk_library().book(roster.system, roster.book, roster.book_version)
        again = parse_list_text(export_text(book, roster, report_for(roster)), disk_library().books.values())
        assert (again.player, again.team) == ("Ann", "Reikland")


class TestPdfVariants:
    @pytest.mark.parametrize("variant", ["full", "compact", "hidden"])
    def test_each_variant_downloads_under_its_own_name(self, client_alice, alice_list, variant):
        response = client_alice.get(reverse("list-download", args=[alice_list.pk, "pdf"]) + f"?variant={variant}")
        assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
        assert response["Content-Disposition"] == f'attachment; filename="Sonnstahl-combined-arms-{variant}.pdf"'

    def test_the_editor_offers_every_variant(self, client_alice, alice_list):
        content = client_alice.get(reverse("list-edit", args=[alice_list.pk])).content.decode()
        base = reverse("list-download", args=[alice_list.pk, "pdf"])
        for variant in ("full", "compact", "hidden"):
            assert f'href="{base}?variant={variant}"' in content
        assert "?variant=warband" not in content  # Mordheim's sheet only for Mordheim
