"""The list pages' formatting filters."""
from __future__ import annotations

from armylists.templatetags.lists_extras import percent, plural, points


def test_points_have_a_thousands_separator_and_a_real_minus():
    assert (points(2400), points(-35), points("12"), points(None)) == ("2,400", "−35", "12", "None")


def test_percent_has_one_decimal():
    assert (percent(27.3), percent(0), percent("x")) == ("27.3%", "0.0%", "x")


def test_plural():
    assert (plural(1), plural(2), plural(0, "y,ies"), plural(1, "y,ies")) == ("", "s", "ies", "y")
