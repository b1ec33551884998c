"""The matched-play rules a list is built for, chosen in the editor's settings (the-old-world-facts.md:
"the matched-play rules a list can choose: Open War, Grand Melee, Combined Arms (and both together),
Battle March"; none ticked is Open War). The report follows the choice: Battle March at 751 points."""
from __future__ import annotations

import pytest
from django.urls import reverse

from armylists.lists.library.catalogue import report_for
from armylists.models import ArmyList

from .conftest import make_list, roster_of
from .test_editor_allies import EMPIRE, SYSTEM, version

pytestmark = pytest.mark.django_db

UNITS = [{"id": "captain", "entry": "captain-of-the-empire", "general": True},  # 315 pts, legal in Open War
         {"id": "troops", "entry": "state-troops", "size": 20},
         {"id": "troops-2", "entry": "state-troops", "size": 20},
         {"id": "archers", "entry": "empire-archers", "size": 10}]


@pytest.fixture
def small_list(alice) -> ArmyList:
    return make_list(alice, {"format": "armylist/1", "name": "Skirmish", "system": SYSTEM, "book": EMPIRE,
                             "book_version": version(EMPIRE), "points_limit": 751, "units": UNITS})


def settings(army_list: ArmyList, *modes: str, shown: bool = True) -> dict:
    army_list.refresh_from_db()
    data = {"name": army_list.name, "points_limit": army_list.points_limit, "composition": ""}
    if shown:
        data.update({"modes_shown": "1", "modes": list(modes)})
    return data


def codes(army_list: ArmyList) -> list[str]:
    return sorted(v.code for v in report_for(roster_of(army_list)).violations)


class TestMatchedPlay:
    def test_the_settings_offer_the_system_s_rules_and_none_is_open_war(self, client_alice, small_list):
        response = client_alice.get(reverse("list-edit", args=[small_list.pk]))
        assert response.context["mode_choices"] == [("grand-melee", "Grand Melee"), ("combined-arms", "Combined Arms"),
                                                    ("battle-march", "Battle March")]
        content = response.content.decode()
        assert 'id="list-mode-battle-march" name="modes" value="battle-march">' in content
        assert "(none ticked: Open War)" in content

    def test_ticking_battle_march_saves_it_and_the_report_checks_it(self, edit, small_list):
        assert codes(small_list) == []  # Open War at 751 points
        assert edit(small_list, "list-settings", settings(small_list, "battle-march")).status_code == 302
        small_list.refresh_from_db()
        assert small_list.document["modes"] == ["battle-march"]
        report = report_for(roster_of(small_list))
        assert [(v.code, v.rule, v.message) for v in report.violations] == [
            ("points.limit_range", "battle-march-size",
             "The points limit is 751 pts; these rules are for games of 500 to 750 pts.")]

    def test_both_rules_together_are_kept_in_the_system_s_order(self, edit, small_list):
        edit(small_list, "list-settings", settings(small_list, "combined-arms", "grand-melee"))
        small_list.refresh_from_db()
        assert small_list.document["modes"] == ["grand-melee", "combined-arms"]
        response = edit(small_list, "list-settings", settings(small_list))  # nothing ticked: Open War
        assert response.status_code == 302
        small_list.refresh_from_db()
        assert "modes" not in small_list.document

    def test_a_form_without_the_boxes_keeps_the_rules(self, edit, small_list):
        edit(small_list, "list-settings", settings(small_list, "grand-melee"))
        data = settings(small_list, shown=False)
        data["name"] = "Renamed"
        assert edit(small_list, "list-settings", data).status_code == 302
        small_list.refresh_from_db()
        assert (small_list.document["name"], small_list.document["modes"]) == ("Renamed", ["grand-melee"])

    def test_an_unknown_rule_set_is_refused_and_nothing_is_saved(self, edit, small_list):
        response = edit(small_list, "list-settings", settings(small_list, "open-war"))
        assert response.status_code == 400
        assert "open-war is not a matched-play rule set of Warhammer: The Old World." in response.content.decode()
        small_list.refresh_from_db()
        assert "modes" not in small_list.document and small_list.revision == 1
