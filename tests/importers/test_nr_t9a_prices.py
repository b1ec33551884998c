"""New Recruit's T9A banners priced as the data and New Recruit price them (issue 40 item 6). special.json
defines Banner of Courage, Banner of Speed and Rending Banner as `shared` items at 0 pts; an army that may
take one prices it in its own file (Orcs and Goblins: Banner of Courage 20, Banner of Speed 45). Dwarven
Holds' file defines none of them, and no Dwarven Holds list of the 5,812 tournament lists takes one: its
units offered all three at 0 pts. Figures read from ../shared/external/new-recruit-t9a at the bundle's head
(b543015) at run time (pools.merge_shared)."""
from __future__ import annotations

from collections import Counter
from functools import lru_cache

from armylists.importers.nr_t9a.pools import NOT_OFFERED, merge_shared

from tests.importers.nr_summaries import BUNDLE, LATER, needs_data

pytestmark = needs_data
BANNERS = ("Banner of Courage", "Banner of Speed", "Rending Banner")


@lru_cache(maxsize=None)
def books(*armies: str):
    from armylists.importers.nr_t9a import check, convert, open_source
    from armylists.lists.library.catalogue import disk_library

    system = disk_library().systems["t9a-2"]
    source = open_source(BUNDLE)
    try:
        conversion = convert(source.at(LATER), [f"{a}.json" for a in armies], frozenset(c.id for c in system.categories))
    finally:
        source.close()
    return check(conversion, system)


def banner_prices(book) -> Counter:
    return Counter((o.name, o.cost) for e in book.entries.values() for o in e.options.values() if o.name in BANNERS)


def test_a_shared_item_the_armys_file_does_not_price_is_not_offered():
    shared = {"name": "Banner of Speed", "cost": 0, "shared": True, "refs": ["be_speed"]}
    plain = {"name": "Stalker's Standard", "cost": 70}
    own = {"dictionnary": [{"refs": ["bannerEnchant"], "options": [plain]}]}
    # kept, marked, so that the options after it keep their ids (army.py numbers them by those before)
    assert merge_shared({"bannerEnchant": [plain, shared]}, own) == {"bannerEnchant": [plain, {**shared,
                                                                                                NOT_OFFERED: True}]}
    # Where the army prices it, one item: the army's price over special.json's refs and conditions.
    priced = {"name": "Banner of Speed", "cost": 45, "shared": True}
    own = {"dictionnary": [{"refs": ["bannerEnchant"], "options": [priced]}]}
    assert merge_shared({"bannerEnchant": [priced, shared]}, own) == {
        "bannerEnchant": [{"name": "Banner of Speed", "cost": 45, "shared": True, "refs": ["be_speed"]}]}
    # Without the army's file (a caller that has none), every shared item stays, as before.
    assert merge_shared({"bannerEnchant": [shared]}) == {"bannerEnchant": [shared]}


def test_dwarven_holds_offers_no_free_banner_and_orcs_and_goblins_price_theirs():
    found = books("dh", "ong")
    assert banner_prices(found["dh"]) == Counter()
    ong = banner_prices(found["ong"])
    assert {name for name, _ in ong} == {"Banner of Courage", "Banner of Speed"}
    assert {cost for (name, cost) in ong if name == "Banner of Courage"} == {20}
    assert {cost for (name, cost) in ong if name == "Banner of Speed"} == {45}
