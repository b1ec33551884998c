"""validate_list on saved rosters of New Recruit's Old World data (docs/examples/battlescribe/the-old-world-nr/),
judged by the tree evaluator over the data the catalogue was imported from: a legal list and copies with
one fault apiece, each giving exactly its violation."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "external" / "battlescribe" / "the-old-world-nr"
EXAMPLES = ROOT / "docs" / "examples" / "battlescribe" / "the-old-world-nr"

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not DATA.is_dir(), reason="../shared/external/battlescribe/the-old-world-nr is absent")]


def max_(message: str) -> tuple[str, str]:
    return ("bs.constraint.max", message)


NO_GENERAL = ("bs.constraint.min", "1. Open War must have 1 more selections of General (minimum 1)")

# Each army: a legal list, then one fault apiece (points over the limit, a 0-X limit over, no General, a
# character's magic items over its allowance, Rare over 25% of the limit), each with exactly its violation.
CASES = [
    ("empire-of-man-legal.ros", 0, []),
    ("empire-of-man-illegal-points.ros", 1, [("bs.cost_limit", "Roster has 98 too many pts (limit 2000)")]),
    ("empire-of-man-illegal-0-x.ros", 1,
     [max_("Empire Road Wardens has 1 too many selections of Empire Road Wardens (maximum 2)")]),
    ("empire-of-man-illegal-no-general.ros", 1, [NO_GENERAL]),
    ("empire-of-man-illegal-magic-item.ros", 1,
     [max_("Captain of the Empire has 10 too many pts of Magic Items (maximum 50)")]),
    ("empire-of-man-illegal-rare.ros", 1, [max_("Rare has 0.5% too many pts of Rare (maximum 25%)")]),
    ("dwarfen-mountain-holds-legal.ros", 0, []),
    ("dwarfen-mountain-holds-illegal-points.ros", 1, [("bs.cost_limit", "Roster has 85 too many pts (limit 2000)")]),
    ("dwarfen-mountain-holds-illegal-0-x.ros", 1, [max_("King has 1 too many selections of King (maximum 2)")]),
    ("dwarfen-mountain-holds-illegal-no-general.ros", 1, [NO_GENERAL]),
    ("dwarfen-mountain-holds-illegal-magic-item.ros", 1, [max_("Thane has 5 too many pts of Runes (maximum 75)")]),
    ("dwarfen-mountain-holds-illegal-rare.ros", 1, [max_("Rare has 3% too many pts of Rare (maximum 25%)")]),
    ("warriors-of-chaos-legal.ros", 0, []),
    ("warriors-of-chaos-illegal-points.ros", 1, [("bs.cost_limit", "Roster has 130 too many pts (limit 2000)")]),
    ("warriors-of-chaos-illegal-0-x.ros", 1,
     [max_("Chosen Chaos Knights has 1 too many selections of Chosen Chaos Knights (maximum 1)")]),
    ("warriors-of-chaos-illegal-no-general.ros", 1, [NO_GENERAL]),
    ("warriors-of-chaos-illegal-magic-item.ros", 1,
     [max_("Exalted Champion has 55 too many pts of Magic Items (maximum 75)")]),
    ("warriors-of-chaos-illegal-rare.ros", 1, [max_("Rare has 3.75% too many pts of Rare (maximum 25%)")]),
    ("orc-and-goblin-tribes-legal.ros", 0, []),
    ("orc-and-goblin-tribes-illegal-points.ros", 1, [("bs.cost_limit", "Roster has 149 too many pts (limit 2000)")]),
    ("orc-and-goblin-tribes-illegal-0-x.ros", 1,
     [max_("Goblin Bolt Throwas has 1 too many selections of Goblin Bolt Throwas (maximum 4)")]),
    ("orc-and-goblin-tribes-illegal-no-general.ros", 1, [NO_GENERAL]),
    ("orc-and-goblin-tribes-illegal-magic-item.ros", 1,
     [max_("Orc Warboss has 45 too many pts of Magic Items (maximum 100)")]),
    ("orc-and-goblin-tribes-illegal-rare.ros", 1, [max_("Rare has 9% too many pts of Rare (maximum 25%)")]),
    ("kingdom-of-bretonnia-legal.ros", 0, []),
    ("kingdom-of-bretonnia-illegal-points.ros", 1, [("bs.cost_limit", "Roster has 87 too many pts (limit 2000)")]),
    ("kingdom-of-bretonnia-illegal-0-x.ros", 1, [max_("Baron has 1 too many selections of Baron (maximum 2)")]),
    ("kingdom-of-bretonnia-illegal-no-general.ros", 1, [NO_GENERAL]),
    ("kingdom-of-bretonnia-illegal-magic-item.ros", 1, [max_("Baron has 70 too many pts of Magic Items (maximum 75)")]),
    ("kingdom-of-bretonnia-illegal-rare.ros", 1, [max_("Rare has 4% too many pts of Rare (maximum 25%)")]),
    ("high-elf-realms-legal.ros", 0, []),
    ("high-elf-realms-illegal-points.ros", 1, [("bs.cost_limit", "Roster has 163 too many pts (limit 2000)")]),
    ("high-elf-realms-illegal-0-x.ros", 1,
     [max_("Storm Weavers has 1 too many selections of Storm Weavers (maximum 2)")]),
    ("high-elf-realms-illegal-no-general.ros", 1, [NO_GENERAL]),
    ("high-elf-realms-illegal-magic-item.ros", 1, [max_("Prince has 45 too many pts of Magic Items (maximum 100)")]),
    ("high-elf-realms-illegal-rare.ros", 1, [max_("Rare has 1.5% too many pts of Rare (maximum 25%)")]),
]


def validated(name: str) -> tuple[int, list[tuple[str, str]], bool]:
    out = io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("validate_list", str(EXAMPLES / name), "--json", stdout=out)
    report = json.loads(out.getvalue())
    return exit_.value.code, [(v["code"], v["message"]) for v in report["violations"]], report["valid"]


def on_the_site(client, name: str) -> tuple[list[tuple[str, str]], bool, int]:
    """The roster imported through the API (a list of the book's roster tree), then the list's Report
    as the site gives it: its violations, its verdict, the stored total."""
    created = client.post("/api/v1/lists/import/", (EXAMPLES / name).read_bytes(), content_type="application/xml")
    assert created.status_code == 201, created.content
    pk = created.json()["id"]
    report = client.get(f"/api/v1/lists/{pk}/report/").json()
    return [(v["code"], v["message"]) for v in report["violations"]], report["valid"], report["total_points"]


def test_validate_list_judges_each_saved_roster_by_the_data(db, alice):
    """One import of the data (about 20 s), then every example roster: its exit status, its violations;
    and the same roster imported on the site as a list is judged the same (issue 21 item 1)."""
    from rest_framework.test import APIClient

    call_command("import_battlescribe", str(DATA), verbosity=0)
    assert sorted(p.name for p in EXAMPLES.glob("*.ros")) == sorted(name for name, _s, _v in CASES)
    assert [(name, *validated(name)) for name, _s, _v in CASES] == [
        (name, status, violations, status == 0) for name, status, violations in CASES]
    client = APIClient()
    client.force_authenticate(alice)
    site = {name: on_the_site(client, name) for name, _s, _v in CASES}
    assert {name: found[:2] for name, found in site.items()} == {
        name: (violations, status == 0) for name, status, violations in CASES}
    assert [site[name][2] for name in ("empire-of-man-legal.ros", "dwarfen-mountain-holds-legal.ros",
                                       "warriors-of-chaos-legal.ros")] == [1988, 1925, 1870]
