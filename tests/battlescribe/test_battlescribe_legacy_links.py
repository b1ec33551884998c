"""Three readings of BattleScribe's 1.x data that the parity with our own 0.11 books found wrong
(found by the parity checks of our books against the 2016 catalogues, docs/import-battlescribe.md): on small catalogues of our own, each at its boundary."""
from __future__ import annotations

from armylists.importers.battlescribe import check, convert, read_sources

from tests.battlescribe.test_battlescribe_import import judged

NS_GST = 'xmlns="http://www.battlescribe.net/schema/gameSystemSchema"'
NS_CAT = 'xmlns="http://www.battlescribe.net/schema/catalogueSchema"'
LIMITS = ('minSelections="{lo}" maxSelections="{hi}" minInForce="0" maxInForce="-1" minInRoster="0" '
          'maxInRoster="-1" minPoints="0.0" maxPoints="-1.0"')


def category(cid: str, name: str, max_percent: int, modifiers: str = "") -> str:
    return (f'<category id="{cid}" name="{name}" minSelections="0" maxSelections="-1" minPoints="0.0" '
            f'maxPoints="-1.0" minPercentage="0" maxPercentage="{max_percent}"><modifiers>{modifiers}</modifiers>'
            f'</category>')


# Heroes at most 50% of the points limit, less one percent for every percent the Lords take (the 0.11
# game system's words for "Lords and Heroes together at most 50%").
HEROES_LESS_LORDS = ('<modifier type="decrement" field="maxPercentage" value="1.0" repeat="true" numRepeats="1" '
                     'incrementParentId="lords" incrementField="percent" incrementValue="1.0"/>')
GST = (f'<?xml version="1.0"?><gameSystem id="gs" name="Old Battles" revision="1" battleScribeVersion="1.15" {NS_GST}>'
       f'<forceTypes><forceType id="std" name="Standard"><categories>{category("lords", "Lords", 35)}'
       f'{category("heroes", "Heroes", 50, HEROES_LESS_LORDS)}</categories></forceType></forceTypes></gameSystem>')


def entry(eid: str, name: str, points: int, cat: str = "(No Category)", kind: str = "upgrade", lo: int = 0,
          hi: int = 1, inner: str = "") -> str:
    return (f'<entry id="{eid}" name="{name}" points="{points}.0" categoryId="{cat}" type="{kind}" '
            f'{LIMITS.format(lo=lo, hi=hi)}>{inner}</entry>')


def cat_file(cid: str, name: str, entries: str, shared: str = "") -> str:
    return (f'<?xml version="1.0"?><catalogue id="{cid}" name="{name}" revision="1" battleScribeVersion="1.15" '
            f'gameSystemId="gs" {NS_CAT}><entries>{entries}</entries><sharedEntries>{shared}</sharedEntries>'
            f'</catalogue>')


def books(tmp_path, **catalogues: str):
    (tmp_path / "old.gst").write_text(GST)
    for name, text in catalogues.items():
        (tmp_path / f"{name}.cat").write_text(text)
    return check(convert(read_sources([str(tmp_path)])))


def messages(folder, entries: list[str], limit: int = 1000, changes=()) -> list[str]:
    """What the tree evaluator, which judges every list of an imported book, says of a roster of `entries`."""
    return [message for _, message in judged(folder, entries, limit, changes)[0]]


HEROES_OVER = "Heroes has 10% too many pts of Heroes (maximum 20%)"
PATH_MISSING = "Level 1 Wizard must have 1 more selections of Path (minimum 1)"


def test_heroes_lose_a_percent_for_every_percent_of_the_lords(tmp_path):
    lords_and_heroes = entry("lord", "Lord", 300, "lords", "model", hi=-1) + entry("hero", "Hero", 100, "heroes",
                                                                                    "model", hi=-1)
    books(tmp_path, army=cat_file("c1", "Army", lords_and_heroes))
    # 300 of 1000 pts of Lords is 30%: Heroes at most 20% (200 pts), exactly 2 Heroes
    assert messages(tmp_path, ["lord", "hero", "hero"]) == []
    assert messages(tmp_path, ["lord", "hero", "hero", "hero"]) == [HEROES_OVER]
    assert messages(tmp_path, ["hero"] * 3) == []  # no Lords: Heroes up to 50%


def test_a_minimum_inside_an_option_holds_only_where_the_option_is_taken(tmp_path):
    paths = ('<entryGroup id="paths" name="Path" ' + LIMITS.format(lo=1, hi=1) + '><entries>'
             + entry("fire", "Path of Fire", 0) + entry("ice", "Path of Ice", 0) + '</entries></entryGroup>')
    level = entry("level", "Level 1 Wizard", 30, inner=f"<entryGroups>{paths}</entryGroups>")
    books(tmp_path, army=cat_file("c1", "Army", entry("sage", "Sage", 50, "lords", "model",
                                                       inner=f"<entries>{level}</entries>")))
    assert messages(tmp_path, ["sage"]) == []  # no Level: no Path asked for
    assert messages(tmp_path, ["sage"], changes=[(0, "level", 1)]) == [PATH_MISSING]


def test_a_shared_id_means_the_catalogues_own_entry_before_another_catalogues_copy(tmp_path):
    def army(cid: str, name: str, banner: str) -> str:
        bsb = entry("bsb", "Battle Standard Bearer", 25, inner="<entries>" + entry(f"b-{cid}", banner, 10) + "</entries>")
        link = '<links><link id="to-bsb" targetId="bsb" linkType="entry"/></links>'
        return cat_file(cid, name, entry("captain", "Captain", 50, "lords", "model", inner=link), shared=bsb)
    found = books(tmp_path, a=army("ca", "Humans", "Banner of Men"), b=army("cb", "Ogres", "Scrapling Lookout"))
    assert [o.name for o in found["bs-humans"].entries["captain"].options.values()] == [
        "Battle Standard Bearer", "Banner of Men"]
    assert [o.name for o in found["bs-ogres"].entries["captain"].options.values()] == [
        "Battle Standard Bearer", "Scrapling Lookout"]
