"""Starting a list: the book (and so the system and version), the limit, the name."""
from __future__ import annotations

import pytest
from django.urls import reverse

from armylists.models import ArmyList

pytestmark = pytest.mark.django_db
EMPIRE = "t9a-0.11/empire-of-sonnstahl/0.11.1"
TOW_EMPIRE = "the-old-world/empire-of-man/2024.4"
TOW_DWARFS = "the-old-world/dwarfen-mountain-holds/2024.4"
TOW_ORCS = "the-old-world/orc-and-goblin-tribes/2024.4"


class TestNewList:
    def test_it_offers_every_book_by_system(self, client_alice):
        response = client_alice.get(reverse("list-new"))
        assert response.status_code == 200
        choices = dict(response.context["form"].fields["book"].choices)
        t9a = dict(choices["The 9th Age: Fantasy Battles v0.11.9.3"])
        assert t9a[EMPIRE] == "Empire of Sonnstahl (0.11.1)"
        content = response.content.decode()
        assert "pts for The 9th Age" in content
        compositions = dict(response.context["form"].fields["composition"].choices)
        assert compositions[""] == "Standard"
        assert compositions["the-old-world/empire-of-man/2024.4/city-state-of-nuln"] == \
            "Empire of Man: City-State of Nuln"

    def test_it_starts_with_the_book_asked_for(self, client_alice):
        response = client_alice.get(reverse("list-new"), {"book": EMPIRE})
        assert response.context["form"].initial == {"name": "", "book": EMPIRE, "points_limit": 2400}

    def test_before_a_book_is_chosen_the_limit_names_no_unit_and_no_size(self, client_alice):
        response = client_alice.get(reverse("list-new"))
        assert response.context["form"].initial == {"name": "", "book": ""}
        content = response.content.decode()
        assert '<label for="id_points_limit">Points limit <span class="muted" id="limit-unit"></span></label>' in content
        assert '<input type="number" name="points_limit" min="1" max="100000" id="id_points_limit">' in content
        assert "(gc)" not in content and 'value="2400"' not in content

    def test_a_chosen_books_system_gives_the_unit_and_the_usual_size(self, client_alice):
        response = client_alice.get(reverse("list-new"), {"book": "mordheim/witch-hunters/1999.2"})
        assert response.context["form"].initial["points_limit"] == 500
        assert '<span class="muted" id="limit-unit">(gc)</span>' in response.content.decode()
        again = client_alice.post(reverse("list-new"), {"name": "", "book": TOW_EMPIRE, "points_limit": "2000"})
        assert again.status_code == 400
        assert '<span class="muted" id="limit-unit">(pts)</span>' in again.content.decode()

    def test_it_creates_an_empty_list_pinned_to_the_book(self, client_alice, alice):
        response = client_alice.post(reverse("list-new"), {"name": "Knights", "book": EMPIRE, "points_limit": "4500"})
        army_list = ArmyList.objects.get()
        assert response["Location"] == reverse("list-edit", args=[army_list.pk])
        assert (army_list.owner, army_list.name, army_list.system, army_list.book, army_list.book_version,
                army_list.points_limit) == (alice, "Knights", "t9a-0.11", "empire-of-sonnstahl", "0.11.1", 4500)
        assert army_list.document == {"format": "armylist/1", "name": "Knights", "system": "t9a-0.11",
                                      "book": "empire-of-sonnstahl", "book_version": "0.11.1", "points_limit": 4500,
                                      "units": []}
        assert (army_list.total_points, army_list.valid, army_list.revision) == (0, False, 1)

    def test_it_offers_each_book_the_allies_its_system_allows(self, client_alice):
        """the-old-world-facts.md: Allies from another army's book; which army may ally with which is the
        system's data (rules_data/the-old-world/system.yaml `allies`)."""
        form = client_alice.get(reverse("list-new")).context["form"]
        groups = dict(form.fields["allies"].choices)
        assert groups[""] == "No allies"
        empire = dict(groups["Empire of Man (2024.4)"])
        assert empire[f"{TOW_EMPIRE}/dwarfen-mountain-holds/2024.4"] == "Dwarfen Mountain Holds (2024.4)"
        assert empire[f"{TOW_EMPIRE}/empire-of-man/2024.4/city-state-of-nuln"] == \
            "Empire of Man: City-State of Nuln (2024.4)"
        assert not any("orc-and-goblin-tribes" in value for value in empire)  # not among the Empire's allies
        dwarfs = dict(groups["Dwarfen Mountain Holds (2024.4)"])
        assert dwarfs[f"{TOW_DWARFS}/empire-of-man/2024.4"] == "Empire of Man (2024.4)"
        assert dwarfs[f"{TOW_DWARFS}/dwarfen-mountain-holds/2024.4/royal-clan"] == \
            "Dwarfen Mountain Holds: Royal Clan (2024.4)"
        assert not any(group.startswith("Empire of Sonnstahl") for group in groups)  # The 9th Age takes none

    def test_it_creates_a_list_with_its_allies(self, client_alice):
        response = client_alice.post(reverse("list-new"), {
            "name": "Dwarfs and friends", "book": TOW_DWARFS, "points_limit": "2000",
            "allies": f"{TOW_DWARFS}/empire-of-man/2024.4"})
        army_list = ArmyList.objects.get()
        assert response["Location"] == reverse("list-edit", args=[army_list.pk])
        assert army_list.document["allies"] == {"book": "empire-of-man", "book_version": "2024.4"}
        composed = client_alice.post(reverse("list-new"), {
            "name": "Two holds", "book": TOW_DWARFS, "points_limit": "2000",
            "allies": f"{TOW_DWARFS}/dwarfen-mountain-holds/2024.4/slayer-host"})
        assert composed.status_code == 302
        assert ArmyList.objects.get(name="Two holds").document["allies"] == {
            "book": "dwarfen-mountain-holds", "book_version": "2024.4", "composition": "slayer-host"}

    def test_allies_offered_to_another_book_are_refused(self, client_alice):
        response = client_alice.post(reverse("list-new"), {
            "name": "Greenskins", "book": TOW_ORCS, "points_limit": "2000",
            "allies": f"{TOW_EMPIRE}/dwarfen-mountain-holds/2024.4"})
        assert response.status_code == 400
        assert response.context["form"].errors["allies"] == [
            "Those allies are for another army book, not Orc & Goblin Tribes."]
        assert not ArmyList.objects.exists()

    @pytest.mark.parametrize("field, value, message", [
        ("points_limit", "0", "Ensure this value is greater than or equal to 1."),
        ("points_limit", "big", "Enter a whole number."),
        ("book", "t9a-0.11/empire-of-sonnstahl/9.9", "Select a valid choice."),
        ("name", "", "This field is required."),
    ])
    def test_bad_input_is_an_error_next_to_its_field(self, client_alice, field, value, message):
        data = {"name": "Knights", "book": EMPIRE, "points_limit": "2400", field: value}
        response = client_alice.post(reverse("list-new"), data)
        assert response.status_code == 400
        assert message in response.context["form"].errors[field][0]
        content = response.content.decode()
        assert content.index(f'for="id_{field}"') < content.index(message.replace("'", "&#x27;"))
        assert not ArmyList.objects.exists()
