"""What pages and rosters say of a rule: sources in the system's words, no ids, no file names."""
from __future__ import annotations

from armylists.lists.library.catalogue import disk_library
from armylists.lists.plain_words import linked_message, plain_message, source_words


def system(system_id: str):
    return disk_library().systems[system_id]


class TestSourceWords:
    def test_it_names_the_document_and_the_section_a_cited_line_falls_in(self):
        # 000:L78-80 is in "Army Restrictions" (the seed's heading at line 76), in T9A's words data.
        assert source_words("000:L78-80", system("t9a-0.11")) == "Rulebook, Army composition"
        assert source_words("000:L2021", system("t9a-0.11")) == "Rulebook, The General"

    def test_a_section_starts_at_its_own_line(self):
        # The sections of The Old World's data: "Magic" from line 572, "Wizards & Armour" from 767.
        assert source_words("001:L571", system("the-old-world")) == "Rulebook, Troop Types"
        assert source_words("001:L572", system("the-old-world")) == "Rulebook, Magic"
        assert source_words("001:L767-773, L4518-4520", system("the-old-world")) == "Rulebook, Wizards & Armour"

    def test_it_drops_file_names(self):
        tow = system("the-old-world")
        assert source_words("Grand Army composition (the-old-world-facts.md)", tow) == "Grand Army composition"
        assert source_words("the-old-world-facts.md: the points total may not exceed the limit", tow) == \
            "The points total may not exceed the limit"
        assert source_words("Empire of Man, Knightly Order composition (Old World Builder rules.js and "
                            "empire-of-man.json)", tow) == "Empire of Man, Knightly Order composition"

    def test_a_document_the_data_does_not_name_is_the_rules(self):
        assert source_words("004:L12", system("the-old-world")) == "The rules"

    def test_words_it_does_not_know_stay(self):
        assert source_words("Ravening Hordes: 0-1 per army", system("the-old-world")) == "Ravening Hordes: 0-1 per army"
        assert source_words("", system("the-old-world")) == ""


class TestMessages:
    def test_it_drops_the_ids_after_units_names(self):
        message = "Dawnstone is taken 2 times (Captain of the Empire (bsb), Priest of Sigmar (priest)); each ..."
        assert plain_message(message, ["bsb", "priest", "u1"]) == \
            "Dawnstone is taken 2 times (Captain of the Empire, Priest of Sigmar); each ..."

    def test_a_message_that_begins_with_the_units_name_links_it_once(self):
        assert linked_message("Steam Tank is One of a Kind: 2 in the list", "Steam Tank") == \
            ("Steam Tank", " is One of a Kind: 2 in the list")
        assert linked_message("Steam Tanks are 2", "Steam Tank") == ("", "Steam Tanks are 2")

    def test_the_system_calls_a_path_by_its_own_word(self):
        assert system("the-old-world").path_word == "Lore of Magic"
        assert system("t9a-0.11").path_word == "Path of Magic"
        assert system("mordheim").path_word == "Spells"

    def test_the_system_calls_the_lists_leader_by_its_own_word(self):
        assert system("mordheim").general_word == "Leader"
        assert system("the-old-world").general_word == "General"
        assert system("t9a-0.11").general_word == "General"
