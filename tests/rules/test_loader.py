"""Loading rules data: every bad file stops the load with the file, the path inside it and the reason."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from armylists.rules import RulesDataError, load_tree
from armylists.rules.reading.loader import build_book, read_yaml


def edit(path: Path, change) -> None:
    data = yaml.safe_load(path.read_text())
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False))


def book_path(tree: Path) -> Path:
    return tree / "t9a-0.11" / "books" / "empire-of-sonnstahl.yaml"


def load_error(tree: Path) -> str:
    with pytest.raises(RulesDataError) as caught:
        load_tree(tree)
    return str(caught.value)


class TestRealData:
    def test_it_loads_every_system_and_book(self, library):
        assert set(library.systems) == {"t9a-0.11", "t9a-2", "mordheim", "the-old-world"}  # t9a-2: books imported
        books = {(key[0], key[1]) for key in library.books}
        assert {b for s, b in books if s == "t9a-0.11"} == {"empire-of-sonnstahl", "ogre-khans"}
        assert ("mordheim", "reikland-mercenaries") in books

    def test_it_has_the_74_common_items_of_the_seed_and_the_dispel_scroll_variant(self, library):
        items = library.common_items["t9a-0.11"]
        originals = [i for i in items.values() if i.counts_as is None]
        assert len(originals) == 74  # seed 000:L2859-3108
        by_category = {}
        for item in originals:
            by_category[item.category] = by_category.get(item.category, 0) + 1
        assert by_category == {"weapon": 17, "armour": 12, "talisman": 11, "enchanted": 11, "arcane": 11, "standard": 12}
        assert items["dispel-scroll-enchanted"].cost == 50 and items["dispel-scroll-enchanted"].counts_as == "dispel-scroll"

    def test_dual_prices_are_lord_then_hero(self, library):
        items = library.common_items["t9a-0.11"]
        assert (items["giant-sword"].price_for("lords"), items["giant-sword"].price_for("heroes")) == (60, 50)  # 000:L2846-2849
        assert (items["essence-of-a-free-mind"].price_for("lords"), items["essence-of-a-free-mind"].price_for("heroes")) == (100, 50)

    @pytest.mark.parametrize("book", ["empire-of-sonnstahl", "ogre-khans"])
    def test_each_book_has_every_category_and_names_its_source(self, library, book):
        found = library.latest("t9a-0.11", book)
        assert {e.category for e in found.entries.values()} == {"lords", "heroes", "core", "special", "rare"}
        assert found.sources and all(found.sources)
        assert any(o.role == "bsb" for e in found.entries.values() for o in e.options.values())
        assert any(e.wizard_level for e in found.entries.values())
        assert any(e.mounts for e in found.entries.values() if e.character)
        assert any(not i.common for i in found.items.values())
        assert any(p.veteran for e in found.entries.values() for p in e.command.values())


class TestBadFiles:
    def test_malformed_yaml(self, tree):
        book_path(tree).write_text("kind: book\nid: [unclosed\n")
        assert load_error(tree) == (
            "rules_data/t9a-0.11/books/empire-of-sonnstahl.yaml: (top level): is not valid YAML at line 3, "
            "column 1: expected ',' or ']', but got '<stream end>'")

    def test_a_missing_required_key(self, tree):
        edit(book_path(tree), lambda d: d["entries"][0].pop("points"))
        assert load_error(tree).endswith("empire-of-sonnstahl.yaml: entries[0]: 'points' is a required property")

    def test_an_unknown_key(self, tree):
        edit(book_path(tree), lambda d: d["entries"][2].update(pointz=5))
        assert "entries[2]: Additional properties are not allowed ('pointz' was unexpected)" in load_error(tree)

    def test_a_negative_cost(self, tree):
        edit(book_path(tree), lambda d: d["entries"][1]["options"][0].update(cost=-5))
        assert "entries[1].options[0].cost: -5 is less than the minimum of 0" in load_error(tree)

    def test_an_option_naming_a_missing_option(self, tree):
        edit(book_path(tree), lambda d: d["entries"][1]["options"][0].update(requires=["no-such-option"]))
        assert "entries[1].options[0].requires[0]: names 'no-such-option', which is not an option, mount or " \
               "command part of" in load_error(tree)

    def test_a_mount_choice_naming_a_missing_mount(self, tree):
        def change(d):
            entry = next(e for e in d["entries"] if e.get("mounts"))
            entry["mounts"][0]["mount"] = "wyvern"
        edit(book_path(tree), change)
        assert ".mounts[0].mount: unknown mount 'wyvern'" in load_error(tree)

    def test_an_unknown_category_and_troop_type(self, tree):
        edit(book_path(tree), lambda d: d["entries"][0].update(category="elites"))
        assert "entries[0].category: unknown category 'elites'" in load_error(tree)

    def test_an_item_of_an_unknown_category(self, tree):
        edit(tree / "t9a-0.11" / "items" / "common.yaml", lambda d: d["items"][3].update(category="relic"))
        assert "common.yaml: items[3].category: unknown item category 'relic'" in load_error(tree)

    def test_an_unknown_rule_type(self, tree):
        edit(tree / "t9a-0.11" / "system.yaml", lambda d: d["rules"][2].update(type="no_such_check"))
        assert "system.yaml: rules[2].type: unknown rule type 'no_such_check'; known: " in load_error(tree)

    def test_bad_rule_parameters(self, tree):
        edit(tree / "t9a-0.11" / "system.yaml", lambda d: d["rules"][2]["params"].update(min="a quarter"))
        assert "system.yaml: rules[2].params.min: 'a quarter' is not of type 'integer'" in load_error(tree)

    def test_a_duplicated_entry_id(self, tree):
        edit(book_path(tree), lambda d: d["entries"][1].update(id=d["entries"][0]["id"]))
        assert "entries[1].id: entry id" in load_error(tree) and "is defined twice" in load_error(tree)

    def test_a_book_of_another_system(self, tree):
        edit(book_path(tree), lambda d: d.update(system="the-old-world"))
        assert "system: is 'the-old-world', but the file is in 't9a-0.11'" in load_error(tree)

    def test_an_unknown_path(self, tree):
        edit(book_path(tree), lambda d: d.update(paths=["fire", "necromancy"]))
        assert "paths[1]: unknown Path 'necromancy'" in load_error(tree)

    def test_a_unit_cheaper_than_nothing(self, tree):
        def change(d):
            entry = next(e for e in d["entries"] if e["id"] == "knights-of-the-sun-griffon")
            entry["base_points"] = -1000
        edit(book_path(tree), change)
        assert "base_points: makes the smallest unit cost less than nothing" in load_error(tree)

    def test_a_rule_selecting_a_missing_entry(self, tree):
        edit(book_path(tree), lambda d: d["rules"][0]["params"]["needs"].update(entry="grand-master"))
        assert "empire-of-sonnstahl.yaml: rules[0].params.needs.entry: unknown entry 'grand-master'" in load_error(tree)

    def test_a_rule_selecting_a_missing_option_in_a_list(self, tree):
        edit(book_path(tree), lambda d: d["rules"][1]["params"]["if"].update(option=["heavy-infantry-veterans", "vets"]))
        assert "rules[1].params.if.option[1]: unknown option 'vets'" in load_error(tree)

    def test_a_file_that_is_not_a_mapping(self, tree):
        book_path(tree).write_text("- just\n- a list\n")
        assert "empire-of-sonnstahl.yaml: (top level): ['just', 'a list'] is not of type 'object'" in load_error(tree)


# --- an option's size, an entry's tags per composition, a `not` selector (the TOW test book) -----------

TOW_TEST_BOOK = Path(__file__).resolve().parents[1] / "fixtures" / "rules" / "the-old-world" / "books" / "tow-test-book.yaml"


def tow_book_error(library, change) -> str:
    data = read_yaml(TOW_TEST_BOOK)
    change(data)
    with pytest.raises(RulesDataError) as caught:
        build_book(data, library.systems["the-old-world"], {}, "tow-test-book.yaml")
    return str(caught.value)


def tow_entry(data: dict, eid: str) -> tuple[int, dict]:
    return next((i, e) for i, e in enumerate(data["entries"]) if e["id"] == eid)


class TestBookFeatureErrors:
    def test_the_test_book_loads_with_its_composition_tags_option_size_and_not_selector(self, library):
        book = build_book(read_yaml(TOW_TEST_BOOK), library.systems["the-old-world"], {}, "tow-test-book.yaml")
        assert book.entries["outrider"].composition_tags == {"warhost": frozenset({"own-limit"})}
        assert book.entries["line-troops"].options["detachment"].size == (5, 9)
        rule = next(r for r in book.rules if r.id == "detachments-per-regiment")
        assert rule.params["per"] == {"tag": "regimental-unit", "not": {"option": "detachment"}}

    def test_composition_tags_naming_an_unknown_composition(self, library):
        def change(d):
            tow_entry(d, "outrider")[1]["composition_tags"] = {"warhost": ["own-limit"], "horde": ["own-limit"]}
        i = tow_entry(read_yaml(TOW_TEST_BOOK), "outrider")[0]
        assert tow_book_error(library, change) == (
            f"tow-test-book.yaml: entries[{i}].composition_tags.horde: unknown composition 'horde'")

    def test_an_option_size_whose_max_is_below_its_min(self, library):
        def change(d):
            tow_entry(d, "line-troops")[1]["options"][0]["size"] = {"min": 5, "max": 4}
        i = tow_entry(read_yaml(TOW_TEST_BOOK), "line-troops")[0]
        assert tow_book_error(library, change) == f"tow-test-book.yaml: entries[{i}].options[0].size: max 4 is below min 5"

    def test_an_option_size_at_a_single_size_loads(self, library):
        data = read_yaml(TOW_TEST_BOOK)
        tow_entry(data, "line-troops")[1]["options"][0]["size"] = {"min": 5, "max": 5}
        book = build_book(data, library.systems["the-old-world"], {}, "tow-test-book.yaml")
        assert book.entries["line-troops"].options["detachment"].size == (5, 5)

    def test_an_unknown_entry_inside_a_not_selector(self, library):
        def change(d):
            d["rules"][0]["params"]["select"]["not"] = {"entry": "levies"}
        assert read_yaml(TOW_TEST_BOOK)["rules"][0]["id"] == "elite-per-1000"
        assert tow_book_error(library, change) == (
            "tow-test-book.yaml: rules[0].params.select.not.entry: unknown entry 'levies'")

    def test_an_unknown_option_in_a_list_inside_a_nested_not_selector(self, library):
        def change(d):
            rule = next(r for r in d["rules"] if r["id"] == "detachments-per-regiment")
            rule["params"]["per"]["not"] = {"not": {"option": ["detachment", "detachmnet"]}}
        i = next(i for i, r in enumerate(read_yaml(TOW_TEST_BOOK)["rules"]) if r["id"] == "detachments-per-regiment")
        assert tow_book_error(library, change) == (
            f"tow-test-book.yaml: rules[{i}].params.per.not.not.option[1]: unknown option 'detachmnet'")

    def test_an_unknown_entry_inside_a_not_selector_of_a_composition_rule(self, library):
        def change(d):
            d["compositions"][0]["rules"][0]["params"]["select"]["not"] = {"entry": "levies"}
        assert tow_book_error(library, change) == (
            "tow-test-book.yaml: compositions[0].rules[0].params.select.not.entry: unknown entry 'levies'")

    def test_an_unknown_key_inside_a_not_selector(self, library):
        def change(d):
            d["rules"][0]["params"]["select"]["not"] = {"entri": "elite"}
        assert tow_book_error(library, change) == (
            "tow-test-book.yaml: rules[0].params.select.not: Additional properties are not allowed ('entri' was unexpected)")


def test_an_option_of_plain_fields_is_the_option_every_field_read_would_make(library):
    # build_book's short way for options with only these fields (an imported book's): the same Option as
    # reading each field with its default; an option with one more field takes the long way.
    from armylists.rules.native.book import Option

    data = read_yaml(TOW_TEST_BOOK)
    entry = tow_entry(data, "line-troops")[1]
    plain = {"id": "plain", "name": "Plain", "cost": 3, "tags": ["bs-a", "bs-b"], "per_model": True, "max": 2,
             "requires": ["detachment"], "model_cost": 1}
    entry["options"] += [plain, {**plain, "id": "bare", "name": "Bare", "max": 1, "requires": []},
                         {**plain, "id": "texted", "name": "Texted", "text": "Hits harder."}]
    options = build_book(data, library.systems["the-old-world"], {}, "tow-test-book.yaml").entries["line-troops"].options
    assert options["plain"] == Option(
        id="plain", name="Plain", cost=3, per_model=True, group=None, max=2, requires=("detachment",), requires_any=(),
        excludes=(), equipment=(), wizard_level=0, role=None, leadership=None, tags=frozenset({"bs-a", "bs-b"}),
        item_allowance=None, text="", max_per_models=None, min_per_models=None, size=None, model_cost=1,
        item_pool=None, profiles=())
    assert options["bare"].requires == () and options["bare"].max == 1
    assert options["texted"].text == "Hits harder." and options["texted"].model_cost == 1
