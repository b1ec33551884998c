"""The report panel's presentation of a Report: the bars' scale and marks, figures, violation links."""
from __future__ import annotations

from armylists.rules.report import CategoryLine, Report, UnitLine, Violation
from armylists.editor.report_panel import report_panel


def report(categories, violations=(), total=2000, limit=2400, figures=None) -> Report:
    return Report(system="s", book="b", book_version="1", points_limit=limit, total_points=total, band=None,
                  band_name="Standard army", categories=tuple(categories),
                  units=(UnitLine("m", "marshal", "Marshal", "lords", 200, 1),),
                  figures=figures or {"units": 1, "models": 1, "wizards": 2, "wizard_levels": 3},
                  violations=tuple(violations),
                  figure_names={"units": "Units", "models": "Models", "wizards": "Wizards", "wizard_levels": "Wizard levels"})


class TestReportPanel:
    def test_bars_share_one_scale_with_the_bounds_marked(self):
        panel = report_panel(report([
            CategoryLine("core", "Core", 600, 25.0, min_percent=25),
            CategoryLine("rare", "Rare", 650, 27.1, max_percent=25, state="high"),
        ]))
        assert panel["scale"] == 60  # at least 50%, rounded up past the largest share
        core, rare = panel["bars"]
        assert (core.state, core.fill, core.low, core.high) == ("ok", 41.67, 41.67, None)  # exactly 25% is legal
        assert (rare.state, rare.fill, rare.high) == ("high", 45.17, 41.67)
        assert core.low_label == "25% = 600 pts"

    def test_a_share_over_the_scale_is_clamped(self):
        panel = report_panel(report([CategoryLine("lords", "Lords", 2400, 100.0, max_percent=35)]))
        assert panel["scale"] == 100 and panel["bars"][0].fill == 100

    def test_below_the_minimum_is_shown_low(self):
        panel = report_panel(report([CategoryLine("core", "Core", 599, 25.0, min_percent=25, state="low")]))
        assert panel["bars"][0].state == "low"  # the engine's verdict, though 24.96% shows rounded as 25.0%

    def test_totals_left_and_over(self):
        assert (report_panel(report([], total=2380))["left"], report_panel(report([], total=2380))["over"]) == (20, False)
        over = report_panel(report([], total=2450))
        assert (over["left"], over["over"], over["spent_percent"]) == (50, True, 100.0)

    def test_figures_read_as_players_say_them(self):
        panel = report_panel(report([]))
        assert panel["figures"] == [{"label": "Units", "value": "1"}, {"label": "Models", "value": "1"},
                                    {"label": "Wizards", "value": "2 · 3 levels"}]

    def test_violations_link_to_their_unit(self):
        panel = report_panel(report([], violations=[
            Violation("unit.size_min", "Too few.", unit="m"), Violation("points.over_limit", "Too many points."),
            Violation("list.unknown_entry", "Unknown.", unit="gone")]))
        assert [(v["href"], v["unit_name"]) for v in panel["violations"]] == [
            ("#unit-m", "Marshal"), ("", ""), ("", "gone")]
        assert (panel["valid"], panel["errors"], panel["warnings"]) == (False, 3, 0)


def test_counted_limits_show_against_their_bounds(library):
    """A Mordheim warband shows its size, leader and heroes against their limits at every edit."""
    import json

    from armylists.rules import parse_roster, validate
    from armylists.editor.report_panel import report_panel

    from ..conftest import EXAMPLES
    roster = parse_roster(json.loads((EXAMPLES / "reikland-mercenaries-legal.json").read_text()))
    panel = report_panel(validate(library.book(roster.system, roster.book, roster.book_version), roster))
    shown = {f["label"]: (f["value"], f.get("over", False)) for f in panel["figures"]}
    assert shown["Warband"] == ("12 of 15 (at least 3)", False)
    assert shown["Leader"] == ("1 of 1", False)
    assert shown["Heroes (the leader included)"] == ("4 of 6", False)
    assert shown["Warband rating"] == ("88", False)


def test_limits_of_none_on_what_the_list_did_not_take_are_left_out(library):
    """An Old World Empire of Man list (no composition) has "at most 0" rules for the City-State of Nuln's and
    the Knightly Orders' units and items: they cannot apply to it, so no "0 of 0" is shown, even folded."""
    import json

    from armylists.rules import parse_roster, validate

    from ..conftest import EXAMPLES
    roster = parse_roster(json.loads((EXAMPLES / "empire-of-man-legal.json").read_text()))
    panel = report_panel(validate(library.book(roster.system, roster.book, roster.book_version), roster))
    labels = [f["label"] for f in panel["figures"] + panel["quiet_figures"]]
    assert "Units only for a City-State of Nuln army" not in labels
    assert "Magic items only for a Knightly Order army" not in labels
    assert not [f for f in panel["figures"] + panel["quiet_figures"] if f["value"] == "0 of 0"]


def test_a_limit_of_none_broken_is_shown_over_it(library):
    import json

    from armylists.rules import parse_roster, validate

    from ..conftest import EXAMPLES
    document = json.loads((EXAMPLES / "empire-of-man-legal.json").read_text())
    document["units"].append({"id": "nuln", "entry": "nuln-state-troops", "size": 10})
    roster = parse_roster(document)
    panel = report_panel(validate(library.book(roster.system, roster.book, roster.book_version), roster))
    shown = {f["label"]: (f["value"], f.get("over", False)) for f in panel["figures"]}
    assert shown["Units only for a City-State of Nuln army"] == ("1 of 0", True)
