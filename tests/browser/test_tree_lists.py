"""Issue 40 items 1-4 in a real browser at 1366 and 390 px: a player builds lists of imported catalogues from
the editor alone, every unit legal as added bar the army's own rules, to a legal list, and a roster tree's
card is no taller than our own book's for a like unit.

- An Old World Skaven 2000 list of New Recruit's data (../shared/external/battlescribe/the-old-world-nr:
  Skaven.cat r71 and the catalogues it links): the Warlord added first is the General; Plague Monks wait,
  greyed, for a Plague Priest (Skaven.cat, the Plague Monks entry link's max 0 raised per Plague Priest);
  the Warlord's Magic Items are a picker; his card, opened, against our Empire of Man's General of the
  Empire (rules_data/the-old-world/books/empire-of-man.yaml), both with their magic items picker closed.
  Each edit's answer is what it changed (editor/changes.py): the Priest removed, the Monks' card and their
  catalogue entry wait for him again, the search typed before still applied; a duplicate is placed after
  its unit.
- A Dwarven Holds 4500 list of BSData's The 9th Age 2nd-edition catalogues (../shared/external/battlescribe/
  the-9th-age-2nd): twenty-five units, each legal as added; a unit of Clan Warriors grown to 18 models brings
  it within our system's 40 pts under the limit (rules_data/t9a-2/system.yaml: points-shortfall).
- A Reiklanders warband of BSData's Mordheim (../shared/external/battlescribe/mordheim): the warband starts
  with its Mercenary Captain, so the catalogue greys a second ("at most 1 in the army, 1 taken").
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from armylists.lists.library.catalogue import report_for
from armylists.models import ArmyList
from armylists.rules import parse_roster
from tests.battlescribe.imported import import_battlescribe
from tests.battlescribe.test_battlescribe_site_tree import BOOK as HOLDS, SYSTEM as T9A_SYSTEM, T9A, VERSION as HOLDS_VERSION
from tests.web.test_tree_editor import BOOK as SKAVEN_BOOK, MONKS_HELD, SKAVEN, TOW

from .conftest import SCREENSHOTS
from .test_build_a_list import Editor
from .test_event import PASSWORD, log_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

WIDTHS = [1366, 390]
HEIGHT = {1366: 900, 390: 844}


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("squeak", "", PASSWORD)


def new_list(page, site: str, book: str, points: int, name: str) -> ArmyList:
    page.goto(site + "/lists/new/")
    value = book if book.count("/") == 2 else page.eval_on_selector(
        "#id_book", "(s, b) => [...s.options].map(o => o.value).find(v => v.startsWith(b + '/'))", book)
    page.select_option("#id_book", value)
    page.fill("#id_points_limit", str(points))
    page.fill("#id_name", name)
    page.click("button:has-text('Create and start adding units')")
    page.wait_for_url(re.compile(r".*/lists/\d+/edit/$"))
    return ArmyList.objects.filter(owner__username="squeak").latest("pk")


def entry(page, name: str):
    """The catalogue's button of the entry named `name` exactly."""
    return page.locator("#catalogue-list button.entry").filter(
        has=page.locator(".entry-name", has_text=re.compile(f"^{re.escape(name)}$")))


def add(page, editor: Editor, name: str) -> None:
    editor.change(entry(page, name).click)


def tree_units(army_list: ArmyList) -> list[dict]:
    army_list.refresh_from_db()
    return army_list.document["forces"][0]["selections"]


def unit_problems(page, uid: str) -> list[str]:
    return page.locator(f"#unit-{uid} .unit-problem").all_text_contents()


def open_card(page, uid: str) -> None:
    card = page.locator(f"#unit-{uid}")
    if card.get_attribute("open") is None:
        card.locator("summary.unit-summary").click()


def opened_height(page, uid: str) -> float:
    """A card's height, opened, its pickers closed, as a player first sees it."""
    card = page.locator(f"#unit-{uid}")
    if card.get_attribute("open") is None:
        card.locator("summary.unit-summary").click()
    expect(card).to_have_attribute("open", "")
    return card.bounding_box()["height"]


@pytest.mark.skipif(not TOW.is_dir(), reason="../shared/external/battlescribe/the-old-world-nr is absent")
@pytest.mark.parametrize("width", WIDTHS)
def test_a_player_builds_a_legal_skaven_list_of_new_recruits_data(site, player, page, shoot, width, capsys):
    import_battlescribe(*(TOW / name for name in SKAVEN))
    page.set_viewport_size({"width": width, "height": HEIGHT[width]})
    troubles: list[str] = []
    page.on("console", lambda msg: troubles.append(msg.text) if msg.type == "error" else None)
    page.on("response", lambda r: troubles.append(f"{r.status} {r.url}") if r.status >= 500 else None)
    log_in(page, site, "squeak")
    editor = Editor(page)
    rats = new_list(page, site, SKAVEN_BOOK, 2000, "Rats 2000")

    # Item 1: the catalogue by category, searched; item 3: Plague Monks wait for a Plague Priest, and say so.
    expect(page.locator("#catalogue-list h3").first).to_have_text("Characters")
    monks = entry(page, "Plague Monks")
    expect(monks).to_have_class(re.compile("entry-unavailable"))
    expect(monks.locator(".entry-detail")).to_have_text("needs a Plague Priest in the army")
    page.fill("#entry-search", "plague")
    expect(page.locator("#catalogue-list li:visible")).to_have_count(
        page.locator("#catalogue-list li", has_text=re.compile("Plague", re.I)).count())
    page.fill("#entry-search", "")

    # Item 2: each unit as added is legal on its own; the first character is the General, a badge.
    add(page, editor, "Skaven Warlord")
    warlord = tree_units(rats)[-1]["id"]
    expect(page.locator(f"#unit-{warlord} .unit-roles")).to_have_text("General")
    add(page, editor, "Grey Seer")
    seer = tree_units(rats)[-1]["id"]
    expect(page.locator(f"#unit-{seer} .unit-roles")).to_have_count(0)
    expect(page.locator(f"#unit-{seer} .unit-choices")).to_contain_text("Battle Magic")   # its lore picked for it
    add(page, editor, "Plague Priest")
    expect(monks).not_to_have_class(re.compile("entry-unavailable"))   # one may be taken now
    add(page, editor, "Plague Monks")
    for _ in range(5):
        add(page, editor, "Clanrats")
    units = tree_units(rats)
    for unit in units:
        assert unit_problems(page, unit["id"]) == [], unit["id"]
    report = report_for(parse_roster(rats.document))
    assert [v.code for v in report.violations if v.severity == "error"] == []
    assert report.valid and rats.total_points == report.total_points
    expect(editor.report()).to_contain_text("Legal")

    # The catalogue follows each edit (its greying, the cards it changes), answered without the list:
    # with the Plague Priest gone the Monks wait for him again, on their card and in the catalogue, and the
    # search typed before stays applied; a duplicate is placed after its unit, open.
    named = {page.locator(f"#unit-{u['id']} .unit-name").inner_text(): u["id"] for u in units}
    priest, plague_monks = named["Plague Priest"], named["Plague Monks"]
    expect(monks.locator(".entry-detail")).to_have_text("at most 1 in the army, 1 taken")
    page.fill("#entry-search", "plague")
    shown = page.locator("#catalogue-list li:visible").count()
    open_card(page, priest)
    editor.change(page.click, f"#u-{priest}-remove")
    expect(page.locator(f"#unit-{priest}")).to_have_count(0)
    expect(page.locator(f"#unit-{plague_monks} .unit-problem")).to_have_text([MONKS_HELD])
    expect(monks).to_have_class(re.compile("entry-unavailable"))
    expect(monks.locator(".entry-detail")).to_have_text("needs a Plague Priest in the army")
    expect(page.locator("#catalogue-list li:visible")).to_have_count(shown)
    add(page, editor, "Plague Priest")
    expect(page.locator(f"#unit-{plague_monks} .unit-problem")).to_have_count(0)
    expect(monks.locator(".entry-detail")).to_have_text("at most 1 in the army, 1 taken")
    page.fill("#entry-search", "")
    clanrats = tree_units(rats)[-6]["id"]
    assert page.locator(f"#unit-{clanrats} .unit-name").inner_text() == "Clanrats"
    open_card(page, clanrats)
    editor.change(page.click, f"#u-{clanrats}-duplicate")
    copy = tree_units(rats)[[u["id"] for u in tree_units(rats)].index(clanrats) + 1]["id"]
    expect(page.locator(f"#unit-{clanrats} + details.unit")).to_have_attribute("id", f"unit-{copy}")
    expect(page.locator(f"#unit-{copy}")).to_have_attribute("open", "")
    editor.change(page.click, f"#u-{copy}-remove")
    expect(page.locator(f"#unit-{copy}")).to_have_count(0)
    expect(editor.report()).to_contain_text("Legal")

    # The list by category with its bars, as our books' list.
    titles = [" ".join(t.split()) for t in page.locator("#editor-main .section-title").all_text_contents()]
    assert [t.split(" ")[0] for t in titles] == ["Characters", "Core", "Special", "Rare", "Mercenaries"]
    assert "(min 25%)" in titles[1]

    # Item 4: the Warlord's magic items in a picker (closed); his card against our General of the Empire's.
    expect(page.locator(f"#unit-{warlord} details.item-picker")).to_have_count(1)
    tree_height = opened_height(page, warlord)
    shoot(page, f"tree-skaven-warlord-{width}")
    empire = new_list(page, site, "the-old-world/empire-of-man", 2000, "Empire 2000")
    editor.change(page.locator("#add-general-of-the-empire").click)
    general = empire.document["units"][0]["id"] if (empire := ArmyList.objects.get(pk=empire.pk)) else ""
    ours = opened_height(page, general)
    with capsys.disabled():
        print(f"\ncard heights at {width} px: Skaven Warlord (tree) {tree_height:.0f} px, "
              f"General of the Empire (ours) {ours:.0f} px")
    assert tree_height <= ours
    assert troubles == []


def build(page, editor: Editor, army_list: ArmyList, plan: list[str]) -> None:
    """Each entry of `plan` added from the catalogue; every unit legal as added (no problem on any card)."""
    for name in plan:
        add(page, editor, name)
        unit = tree_units(army_list)[-1]["id"]
        assert unit_problems(page, unit) == [], (name, unit_problems(page, unit))


def watch(page) -> list[str]:
    troubles: list[str] = []
    page.on("console", lambda msg: troubles.append(msg.text) if msg.type == "error" else None)
    page.on("response", lambda r: troubles.append(f"{r.status} {r.url}") if r.status >= 500 else None)
    return troubles


HOLD_4500 = ["King", "Thane", "Runic Smith", "Engineer", "Clan Warriors", "Clan Warriors", "Clan Warriors",
             "Greybeards", "Clan Marksmen", "Greybeards", "Clan Marksmen", "Deep Watch", "King's Guard", "Miners",
             "Rangers", "Seekers", "Hold Guardians", "Grudge Buster", "Forge Wardens", "Steam Copters",
             "Field Artillery", "Field Artillery", "Giant Dwarf", "Deep Watch", "Vengeance Seeker"]


@pytest.mark.skipif(not T9A.is_dir(), reason="../shared/external/battlescribe/the-9th-age-2nd is absent")
@pytest.mark.parametrize("width", WIDTHS)
def test_a_player_builds_a_legal_dwarven_holds_4500_list_of_bsdatas_catalogues(site, player, page, shoot, width):
    import_battlescribe(T9A / "2nd-theNinthAge-FantasyBattles.gst", T9A / "2nd-dwarvenHolds.cat")
    page.set_viewport_size({"width": width, "height": HEIGHT[width]})
    troubles = watch(page)
    log_in(page, site, "squeak")
    editor = Editor(page)
    hold = new_list(page, site, f"{T9A_SYSTEM}/{HOLDS}/{HOLDS_VERSION}", 4500, "Hold 4500")
    build(page, editor, hold, HOLD_4500)
    king = tree_units(hold)[0]["id"]
    expect(page.locator(f"#unit-{king} .unit-roles")).to_have_text("General")
    hold.refresh_from_db()
    assert hold.total_points == 4410   # 90 pts under: our system's rule, on no unit
    assert [v.code for v in report_for(parse_roster(hold.document)).violations] == ["points.under_limit"]
    # 8 more Clan Warriors at 10 pts a model (the model's count: 10 to 40) bring it to 4490.
    warriors = tree_units(hold)[4]["id"]
    card = page.locator(f"#unit-{warriors}")
    card.locator("summary.unit-summary").click()
    models = card.locator("label.choice-count").filter(
        has=page.locator(".choice-name", has_text=re.compile("^Clan Warrior$"))).locator("input")
    editor.change(lambda: (models.fill("18"), models.press("Enter")))
    hold.refresh_from_db()
    report = report_for(parse_roster(hold.document))
    assert (hold.total_points, report.valid, [v.code for v in report.violations]) == (4490, True, [])
    expect(editor.report()).to_contain_text("Legal")
    shoot(page, f"tree-dwarven-holds-4500-{width}")
    assert troubles == []


@pytest.mark.skipif(not (T9A.parent / "mordheim").is_dir(), reason="../shared/external/battlescribe/mordheim is absent")
@pytest.mark.parametrize("width", WIDTHS)
def test_a_player_builds_a_legal_reiklanders_warband_of_bsdatas_mordheim(site, player, page, shoot, width):
    mordheim = T9A.parent / "mordheim"
    import_battlescribe(*(mordheim / n for n in ("Mordheim.gst", "Reiklanders.cat", "data.cat", "Characters.cat")))
    page.set_viewport_size({"width": width, "height": HEIGHT[width]})
    troubles = watch(page)
    log_in(page, site, "squeak")
    editor = Editor(page)
    warband = new_list(page, site, "bs-mordheim/bs-reiklanders-1a", 500, "Reiklanders")
    started = tree_units(warband)   # the warband's leader comes with it, and a Configuration entry
    assert all(unit_problems(page, unit["id"]) == [] for unit in started) and len(started) == 2
    second = entry(page, "Mercenary Captain")
    expect(second).to_have_class(re.compile("entry-unavailable"))
    expect(second.locator(".entry-detail")).to_have_text("at most 1 in the army, 1 taken")
    build(page, editor, warband, ["Champion", "Youngblood", "Warriors", "Marksmen", "Swordsmen"])
    warband.refresh_from_db()
    report = report_for(parse_roster(warband.document))
    assert [v.code for v in report.violations if v.severity == "error"] == [] and report.valid
    assert warband.total_points == report.total_points == 195   # gc: the Captain 60, then 35 + 15 + 25 + 25 + 35
    titles = [" ".join(t.split()).split(" ")[0] for t in page.locator("#editor-main .section-title").all_text_contents()]
    assert titles[:3] == ["Configuration", "Heroes", "Henchmen"]
    shoot(page, f"tree-reiklanders-{width}")
    assert troubles == []


@pytest.mark.skipif(not T9A.is_dir(), reason="../shared/external/battlescribe/the-9th-age-2nd is absent")
@pytest.mark.parametrize("width", WIDTHS)
def test_a_kings_card_of_bsdata_is_no_taller_than_our_books_king(site, player, page, shoot, width, capsys):
    """The like unit of our format: the King of New Recruit's T9A Dwarven Holds (a book of ours, imported by
    import_nr_t9a from ../shared/external/new-recruit-t9a), against BSData's King, each as added, opened."""
    from io import StringIO

    from django.core.management import call_command

    from tests.importers.nr_summaries import BUNDLE
    if not BUNDLE.exists():
        pytest.skip("../shared/external/new-recruit-t9a is absent")
    import_battlescribe(T9A / "2nd-theNinthAge-FantasyBattles.gst", T9A / "2nd-dwarvenHolds.cat")
    call_command("import_nr_t9a", str(BUNDLE), stdout=StringIO())
    page.set_viewport_size({"width": width, "height": HEIGHT[width]})
    log_in(page, site, "squeak")
    editor = Editor(page)
    hold = new_list(page, site, f"{T9A_SYSTEM}/{HOLDS}/{HOLDS_VERSION}", 4500, "Hold")
    add(page, editor, "King")
    tree_height = opened_height(page, tree_units(hold)[0]["id"])
    page.locator(f"#unit-{tree_units(hold)[0]['id']}").screenshot(path=str(SCREENSHOTS / f"tree-king-card-{width}.png"))
    page.goto(site + "/lists/new/")
    ours = page.eval_on_selector("#id_book", "s => [...s.options].find(o => o.text.includes('Dwarven Holds') && "
                                             "!o.value.startsWith('bs-')).value")
    page.select_option("#id_book", ours)
    page.fill("#id_points_limit", "4500")
    page.fill("#id_name", "Holds")
    page.click("button:has-text('Create and start adding units')")
    page.wait_for_url(re.compile(r".*/lists/\d+/edit/$"))
    editor.add("king")
    our_height = opened_height(page, "king")
    with capsys.disabled():
        print(f"\ncard heights at {width} px: King (BSData tree) {tree_height:.0f} px, King (our book) {our_height:.0f} px")
    assert tree_height <= our_height
