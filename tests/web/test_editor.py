"""The editor: its page, and every edit (saved state, recomputed totals, form errors, stale edits, htmx)."""
from __future__ import annotations

import pytest
from django.urls import reverse

from armylists.models import ArmyList

from .conftest import roster_of, unit_form_data, unit_of

pytestmark = pytest.mark.django_db


def codes(army_list: ArmyList) -> set[str]:
    from armylists.lists.library.catalogue import report_for
    return {v.code for v in report_for(roster_of(army_list)).violations}


class TestEditorPage:
    def test_it_shows_the_units_by_category_the_entries_and_the_report(self, client_alice, alice_list):
        response = client_alice.get(reverse("list-edit", args=[alice_list.pk]))
        assert response.status_code == 200
        sections = response.context["sections"]
        assert [s.name for s in sections] == ["Lords", "Heroes", "Core", "Special", "Rare"]
        assert [c.id for c in sections[0].units] == ["marshal", "prelate"]
        assert response.context["panel"]["total"] == alice_list.total_points
        assert response.context["panel"]["valid"] is True
        assert [c["name"] for c in response.context["catalogue"]] == ["Lords", "Heroes", "Core", "Special", "Rare"]
        content = response.content.decode()
        assert 'id="unit-marshal"' in content and "Add a unit" in content and "✓</span> Legal" in content

    def test_it_costs_no_more_queries_than_session_user_and_list(self, client_alice, alice_list,
                                                                 django_assert_num_queries):
        client_alice.get(reverse("list-edit", args=[alice_list.pk]))  # the rules are cached after this
        with django_assert_num_queries(3):
            client_alice.get(reverse("list-edit", args=[alice_list.pk]))

    def test_it_filters_the_entries_by_name(self, client_alice, alice_list):
        response = client_alice.get(reverse("list-edit", args=[alice_list.pk]), {"q": "knight"})
        names = [e["name"] for s in response.context["catalogue"] for e in s["entries"]]
        assert names == ["Knight Commander", "Knightly Orders", "Knights of the Sun Griffon"]

    def test_it_opens_the_unit_named_in_the_address(self, client_alice, alice_list):
        response = client_alice.get(reverse("list-edit", args=[alice_list.pk]), {"unit": "wizard"})
        opened = [c.id for s in response.context["sections"] for c in s.units if c.open]
        assert opened == ["wizard"]

    def test_every_form_carries_the_csrf_token_and_the_revision(self, client_alice, alice_list):
        content = client_alice.get(reverse("list-edit", args=[alice_list.pk])).content.decode()
        posts = content.count('method="post"')
        assert posts > 50
        assert content.count("csrfmiddlewaretoken") == posts
        assert content.count(f'name="revision" value="{alice_list.revision}"') == posts - 1  # all but logging out


class TestNarrowScreens:
    def test_on_one_column_the_report_comes_before_the_catalogue(self):
        """At 390 px the report of what is wrong sat below the whole catalogue; it follows the list now."""
        import re

        from django.contrib.staticfiles import finders

        css = open(finders.find("armylists/site.css"), encoding="utf-8").read()
        narrow = css[css.index("@media (max-width: 800px)"):]
        narrow = narrow[:narrow.index("\n}")]
        areas = re.search(r"\.editor, \.detail-grid \{[^}]*grid-template-areas: ([^;]+);", narrow).group(1)
        assert areas == '"main" "report" "catalogue"'


class TestAddUnit:
    def test_it_adds_a_unit_saves_the_new_total_and_opens_it(self, edit, empty_list):
        response = edit(empty_list, "unit-add", {"entry": "marshal"})
        assert response.status_code == 302
        assert response["Location"] == f"/lists/{empty_list.pk}/edit/?unit=marshal#unit-marshal"
        empty_list.refresh_from_db()
        # The only character of the list, so it starts as the General.
        assert empty_list.document["units"] == [{"id": "marshal", "entry": "marshal", "general": True}]
        assert (empty_list.total_points, empty_list.valid, empty_list.revision) == (90, False, 2)

    def test_for_htmx_it_renders_the_units_and_the_report_panel(self, edit, empty_list):
        response = edit(empty_list, "unit-add", {"entry": "heavy-infantry"}, htmx=True)
        assert response.status_code == 200
        assert [t.name for t in response.templates][0] == "lists/editor_main.html"
        content = response.content.decode()
        assert "<html" not in content
        assert 'id="editor-main"' in content and 'data-revision="2"' in content and 'data-scroll="heavy-infantry"' in content
        assert 'id="report"' in content and 'hx-swap-oob="true"' in content
        assert response.context["panel"]["total"] == 50
        empty_list.refresh_from_db()
        assert empty_list.total_points == 50

    def test_an_entry_the_book_lacks_is_a_form_error_and_nothing_is_saved(self, edit, empty_list):
        response = edit(empty_list, "unit-add", {"entry": "dragon-ogre"})
        assert response.status_code == 400
        assert "Select a valid choice. dragon-ogre is not one of the available choices." in response.content.decode()
        empty_list.refresh_from_db()
        assert (empty_list.revision, empty_list.document["units"]) == (1, [])

    def test_a_stale_revision_changes_nothing_and_says_so(self, edit, alice_list):
        before = alice_list.document
        response = edit(alice_list, "unit-add", {"entry": "marshal"}, revision=alice_list.revision + 5)
        assert response.status_code == 409
        assert "was changed in another window" in response.content.decode()
        alice_list.refresh_from_db()
        assert (alice_list.document, alice_list.revision) == (before, 1)

    def test_a_save_that_loses_the_race_changes_nothing(self, edit, alice_list, monkeypatch):
        """Another window saved between this edit's read and its write: the UPDATE finds no row."""
        before = alice_list.document
        monkeypatch.setattr(ArmyList, "save_if_revision", lambda self, expected: False)
        response = edit(alice_list, "unit-add", {"entry": "marshal"}, htmx=True)
        assert response.status_code == 409
        assert "Your last change was not applied" in response.content.decode()
        alice_list.refresh_from_db()
        assert (alice_list.document, alice_list.revision) == (before, 1)

    def test_it_accepts_only_post(self, client_alice, empty_list):
        assert client_alice.get(reverse("unit-add", args=[empty_list.pk])).status_code == 405


class TestUpdateUnit:
    def test_it_sets_the_size_and_recomputes_the_points(self, edit, alice_list):
        before = alice_list.total_points
        response = edit(alice_list, "unit-update", unit_form_data(alice_list, "halberds", size=35), "halberds")
        assert response.status_code == 302
        assert unit_of(alice_list, "halberds")["size"] == 35
        assert alice_list.total_points == before + 5 * (5 + 1)  # 5 models at 5 pts, each with a 1-pt halberd
        assert alice_list.revision == 2

    @pytest.mark.parametrize("size, message", [
        ("many", "Enter a whole number of models."),
        ("0", "A unit has 1 to 10000 models."),
        ("10001", "A unit has 1 to 10000 models."),
        ("", "This field is required."),
    ])
    def test_a_bad_size_is_an_error_next_to_the_field_and_saves_nothing(self, edit, alice_list, size, message):
        before = alice_list.document
        response = edit(alice_list, "unit-update", unit_form_data(alice_list, "halberds", size=size), "halberds")
        assert response.status_code == 400
        content = response.content.decode()
        field = content.index('id="u-halberds-size-errors"')
        assert message in content[field:field + 200]
        card = next(c for s in response.context["sections"] for c in s.units if c.id == "halberds")
        assert card.open and card.form["size"]["value"] == size
        alice_list.refresh_from_db()
        assert (alice_list.document, alice_list.revision) == (before, 1)

    def test_a_size_over_the_entry_maximum_is_saved_and_reported(self, edit, alice_list):
        response = edit(alice_list, "unit-update", unit_form_data(alice_list, "halberds", size=70), "halberds")
        assert response.status_code == 302
        assert unit_of(alice_list, "halberds")["size"] == 70
        assert alice_list.valid is False
        assert "unit.size_max" in codes(alice_list)

    def test_it_chooses_options_mount_and_command(self, edit, empty_list):
        edit(empty_list, "unit-add", {"entry": "heavy-infantry"})
        data = unit_form_data(empty_list, "heavy-infantry", **{"grp-weapon": "halberd", "cmd-champion": "1", "cmd-standard": "1",
                                                               "veteran_standard": "1", "size": 20})
        edit(empty_list, "unit-update", data, "heavy-infantry")
        unit = unit_of(empty_list, "heavy-infantry")
        assert unit == {"id": "heavy-infantry", "entry": "heavy-infantry", "size": 20, "options": {"halberd": 1},
                        "command": ["champion", "standard"], "veteran_standard": True}
        assert empty_list.total_points == 20 * 6 + 10 + 10

    def test_one_field_at_a_time_changes_that_field_only(self, edit, alice_list):
        """The editor's script sends each change alone (only=<field>), applied to the unit as saved now."""
        before = unit_of(alice_list, "halberds")
        edit(alice_list, "unit-update", {"only": "cmd-champion"}, "halberds", htmx=True)  # unticked: no value
        edit(alice_list, "unit-update", {"only": "size", "size": "32"}, "halberds", htmx=True)
        edit(alice_list, "unit-update", {"only": "grp-weapon", "grp-weapon": "spear"}, "halberds", htmx=True)
        after = unit_of(alice_list, "halberds")
        assert after == {**before, "size": 32, "options": {"spear": 1}, "command": ["musician", "standard"]}
        assert alice_list.revision == 4

    def test_one_field_it_does_not_have_is_an_error(self, edit, alice_list):
        response = edit(alice_list, "unit-update", {"only": "mount", "mount": "horse"}, "halberds", htmx=True)
        assert response.status_code == 400
        assert "Heavy Infantry has no field &#x27;mount&#x27;." in response.content.decode()
        alice_list.refresh_from_db()
        assert alice_list.revision == 1

    def test_unticked_boxes_take_options_away(self, edit, alice_list):
        edit(alice_list, "unit-update", unit_form_data(alice_list, "marshal", **{"opt-shield": None}), "marshal")
        assert "options" not in unit_of(alice_list, "marshal")

    def test_an_option_the_entry_lacks_is_a_form_error(self, edit, alice_list):
        response = edit(alice_list, "unit-update", unit_form_data(alice_list, "marshal", **{"opt-laser": "1"}), "marshal")
        assert response.status_code == 400
        assert "Marshal has no option &#x27;laser&#x27;." in response.content.decode()
        response = edit(alice_list, "unit-update", unit_form_data(alice_list, "marshal", **{"grp-weapon": "laser"}),
                        "marshal")
        assert response.status_code == 400
        assert "laser is not one of the choices." in response.content.decode()
        alice_list.refresh_from_db()
        assert alice_list.revision == 1

    def test_the_general_moves_to_the_unit_chosen(self, edit, alice_list):
        edit(alice_list, "unit-update", unit_form_data(alice_list, "prelate", general="1"), "prelate")
        assert unit_of(alice_list, "prelate").get("general") is True
        assert "general" not in unit_of(alice_list, "marshal")

    def test_it_notes_a_wizards_path(self, edit, empty_list):
        edit(empty_list, "unit-add", {"entry": "wizard"})
        assert "wizard.path_missing" in codes(empty_list)
        edit(empty_list, "unit-update", unit_form_data(empty_list, "wizard", path="fire"), "wizard")
        assert unit_of(empty_list, "wizard")["path"] == "fire"
        assert "wizard.path_missing" not in codes(empty_list)

    def test_a_unit_removed_meanwhile_is_an_error_and_nothing_changes(self, edit, alice_list):
        response = edit(alice_list, "unit-update", {"size": "3"}, "ghost")
        assert response.status_code == 400
        assert "This list has no unit &#x27;ghost&#x27;" in response.content.decode()
        alice_list.refresh_from_db()
        assert alice_list.revision == 1

    def test_a_stale_edit_is_refused(self, edit, alice_list):
        response = edit(alice_list, "unit-update", unit_form_data(alice_list, "halberds", size=40), "halberds",
                        revision=alice_list.revision + 1, htmx=True)
        assert response.status_code == 409
        assert unit_of(alice_list, "halberds")["size"] == 30


class TestItems:
    @pytest.fixture
    def with_marshal(self, edit, empty_list):
        edit(empty_list, "unit-add", {"entry": "marshal"})
        return empty_list

    def test_it_gives_a_model_an_item_and_takes_it_away(self, edit, with_marshal):
        response = edit(with_marshal, "item-add", {"bearer": "model", "item": "giant-sword"}, "marshal", htmx=True)
        assert response.status_code == 200
        assert unit_of(with_marshal, "marshal")["items"] == ["giant-sword"]
        assert with_marshal.total_points == 90 + 60
        [bearer] = next(c for s in response.context["sections"] for c in s.units if c.id == "marshal").bearers
        assert (bearer["b"].spent, bearer["b"].left) == (60, 40)
        edit(with_marshal, "item-remove", {"bearer": "model", "item": "giant-sword"}, "marshal")
        assert "items" not in unit_of(with_marshal, "marshal")
        assert with_marshal.total_points == 90

    def test_an_unknown_item_is_an_error_at_its_bearer(self, edit, with_marshal):
        response = edit(with_marshal, "item-add", {"bearer": "model", "item": "ring-of-power"}, "marshal")
        assert response.status_code == 400
        content = response.content.decode()
        bearer, actions = content.index('id="u-marshal-items-model"'), content.index('class="unit-actions"')
        assert bearer < content.index("Empire of Sonnstahl has no item &#x27;ring-of-power&#x27;.") < actions
        with_marshal.refresh_from_db()
        assert with_marshal.revision == 2

    def test_an_item_over_the_allowance_is_saved_and_reported(self, edit, with_marshal):
        for item in ("giant-sword", "talisman-of-greater-shielding", "dispel-scroll-enchanted"):
            edit(with_marshal, "item-add", {"bearer": "model", "item": item}, "marshal")
        assert "items.allowance" in codes(with_marshal)
        assert with_marshal.valid is False


class TestUnitActions:
    def test_it_removes_a_unit(self, edit, alice_list):
        before = alice_list.total_points
        edit(alice_list, "unit-remove", {}, "cannon")
        alice_list.refresh_from_db()
        assert "cannon" not in [u["id"] for u in alice_list.document["units"]]
        assert alice_list.total_points == before - 100

    def test_it_duplicates_a_unit_just_after_it(self, edit, alice_list):
        from armylists.lists.library.catalogue import report_for
        before = alice_list.total_points
        marshal = next(u.points for u in report_for(roster_of(alice_list)).units if u.id == "marshal")
        response = edit(alice_list, "unit-duplicate", {}, "marshal")
        assert response["Location"].endswith("?unit=marshal-2#unit-marshal-2")
        ids = [u.id for u in roster_of(alice_list).units]
        assert ids[:2] == ["marshal", "marshal-2"]
        copy = unit_of(alice_list, "marshal-2")
        assert "general" not in copy and copy["items"] == ["giant-sword", "talisman-of-greater-shielding"]
        assert alice_list.total_points == before + marshal
        assert "items.duplicate" in codes(alice_list)  # the same items twice: saved, and reported

    def test_it_moves_a_unit_within_its_category(self, edit, alice_list):
        edit(alice_list, "unit-move", {"direction": "up"}, "prelate")
        ids = [u.id for u in roster_of(alice_list).units]
        assert ids[:3] == ["prelate", "bsb", "marshal"]

    def test_a_bad_direction_is_an_error(self, edit, alice_list):
        response = edit(alice_list, "unit-move", {"direction": "sideways"}, "prelate")
        assert response.status_code == 400
        alice_list.refresh_from_db()
        assert alice_list.revision == 1


class TestListSettings:
    def test_it_renames_and_changes_the_limit_and_rechecks(self, edit, alice_list):
        response = edit(alice_list, "list-settings", {"name": "For Saturday", "points_limit": "3000"})
        assert response.status_code == 302
        alice_list.refresh_from_db()
        assert (alice_list.name, alice_list.points_limit, alice_list.document["name"]) == ("For Saturday", 3000, "For Saturday")
        assert alice_list.valid is False
        assert "points.under_limit" in codes(alice_list)

    def test_a_bad_limit_is_an_error_next_to_it(self, edit, alice_list):
        response = edit(alice_list, "list-settings", {"name": "x", "points_limit": "lots"}, htmx=True)
        assert response.status_code == 400
        content = response.content.decode()
        at = content.index('id="list-limit-errors"')
        assert "Enter a whole number." in content[at:at + 200]
        alice_list.refresh_from_db()
        assert (alice_list.points_limit, alice_list.revision) == (2400, 1)
