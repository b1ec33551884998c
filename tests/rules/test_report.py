"""The Report: points of each unit, category lines, the figures players want, and its JSON shape."""
from __future__ import annotations

from armylists.rules import parse_roster, validate

from tests.conftest import list_document


def test_a_character_pays_the_lord_price_and_its_mount_and_items_count_in_its_category(check):
    report = check([
        {"id": "gen", "entry": "lord", "general": True, "mount": "horse", "items": ["giant-sword", "test-blade"]},
        {"id": "h", "entry": "hero", "items": ["test-token"], "options": {"shield": 1, "trophy": 2}},
    ])
    units = {u.id: u.points for u in report.units}
    # Lord 100 + Horse 10 + Giant Sword at the Lord price 60 (000:L2846-2849) + Test Blade at its Lord price 40
    assert units == {"gen": 210, "h": 50 + 6 + 2 + 2}
    lords = next(c for c in report.categories if c.id == "lords")
    assert (lords.points, lords.percent, lords.max_percent, lords.units) == (210, 8.8, 35, 1)


def test_per_model_options_and_command_are_priced(check):
    report = check([{"id": "sp", "entry": "spearmen", "size": 20, "options": {"shields": 1},
                     "command": ["champion", "musician", "standard"]}])
    assert report.units[0].points == 20 * 5 + 20 * 1 + 10 + 5 + 10


def test_base_points_price_the_minimum_unit(test_book, library):
    book = library.latest("t9a-0.11", "empire-of-sonnstahl")
    entry = book.entries["knights-of-the-sun-griffon"]
    roster = parse_roster(list_document([{"entry": entry.id, "size": 3}, {"entry": entry.id, "size": 4}],
                                        book=book.id, version=book.version))
    assert [u.points for u in validate(book, roster).units] == [150, 202]


def test_figures_count_models_units_drops_and_wizards(check):
    report = check([
        {"entry": "lord", "general": True}, {"entry": "hero-wizard", "path": "fire", "options": {"level-2": 1}},
        {"entry": "lord-wizard", "path": "fire"},
        {"entry": "spearmen", "size": 20}, {"entry": "knights", "size": 5},
        {"entry": "cannon"}, {"entry": "cannon"},
    ])
    # Characters deploy as one drop and War Machines as one (000:L289-295): spearmen, knights, 1, 1.
    assert report.figures == {"units": 7, "models": 30, "characters": 3, "drops": 4, "wizards": 2, "wizard_levels": 5}


def test_points_left_and_the_band(check):
    report = check([{"entry": "lord", "general": True}], points_limit=1500)
    assert (report.total_points, report.points_left, report.band, report.band_name) == (100, 1400, "warband", "Warband")


def test_the_report_as_json_has_what_the_cli_promises(check):
    data = check([{"id": "gen", "entry": "lord", "general": True}]).to_dict()
    assert {"valid", "total_points", "points_limit", "points_left", "categories", "violations", "figures"} <= set(data)
    assert data["valid"] is False
    first = data["violations"][0]
    assert set(first) == {"code", "severity", "message", "unit", "rule", "source"}
    assert {v["code"] for v in data["violations"]} == {"points.under_limit", "category.min_percent", "units.min"}


def test_validation_is_deterministic(check):
    units = [{"entry": "lord", "general": True}, {"entry": "hero", "general": True}, {"entry": "core-blob", "size": 9}]
    assert check(units) == check(units)


def test_an_unknown_composition_is_reported(check):
    report = check([{"entry": "lord", "general": True}], composition="knightly-order")
    assert "list.unknown_composition" in [v.code for v in report.violations]


def test_each_category_says_whether_it_breaks_its_bounds(check):
    """The state the editor and the PDF colour by is the engine's, compared in integers (000:L84-90)."""
    def states(core, rare):
        report = check([{"entry": "lord", "general": True}, {"entry": "core-blob", "size": core},
                        {"entry": "rare-blob", "size": rare}])
        return {c.id: c.state for c in report.categories if c.id in ("core", "rare")}
    assert states(600, 600) == {"core": "ok", "rare": "ok"}  # exactly 25% each
    assert states(599, 601) == {"core": "low", "rare": "high"}


def test_figures_are_named_by_the_system_data(check):
    names = check([{"entry": "lord", "general": True}]).figure_names
    assert names == {"units": "Units", "models": "Models", "characters": "Characters", "drops": "Deployment drops",
                     "wizards": "Wizards", "wizard_levels": "Wizard levels"}
