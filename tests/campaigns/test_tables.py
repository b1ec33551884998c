"""The Mordheim campaign tables at every boundary (rules_data/mordheim/campaign/tables.yaml).

Citations: mordheim-campaign.md (../shared/reference) by section, and the rulebook page it agrees on.
"""
from __future__ import annotations

import shutil

import pytest
import yaml

from armylists.rules.errors import RulesDataError
from armylists.rules.native.mordheim_campaign.tables import FOLDER, campaign_tables, d66_index, load_tables

T = campaign_tables()


class TestThresholds:
    """mordheim-campaign.md section 1, rulebook p.121: heroes 2, 4, 6, 8, 11 ... 90; henchmen 2, 5, 9, 14."""

    HERO_MARKS = [2, 4, 6, 8, 11, 14, 17, 20, 24, 28, 32, 36, 41, 46, 51, 57, 63, 69, 76, 83, 90]

    @pytest.mark.parametrize("mark", HERO_MARKS)
    def test_it_earns_a_hero_advance_exactly_at_each_mark(self, mark):
        assert T.advances_earned("heroes", mark - 1, mark) == [mark]
        assert T.advances_earned("heroes", mark, mark) == []  # the mark itself, already reached, earns nothing more

    @pytest.mark.parametrize("mark", [2, 5, 9, 14])
    def test_it_earns_a_henchman_advance_exactly_at_each_mark(self, mark):
        assert T.advances_earned("henchmen", mark - 1, mark) == [mark]
        assert T.advances_earned("henchmen", mark - 1, mark - 1) == []

    def test_it_gives_one_roll_per_mark_crossed_at_once(self):
        assert T.advances_earned("henchmen", 1, 9) == [2, 5, 9]

    def test_starting_experience_earns_no_advance(self):
        # a Captain starts at 20 XP (a mark) and has no advance for it
        assert T.advances_earned("heroes", 20, 20) == []
        assert T.advances_earned("heroes", 20, 24) == [24]

    def test_the_tracks_end_at_their_last_mark(self):
        assert T.advances_earned("heroes", 0, 200) == self.HERO_MARKS
        assert T.advances_earned("henchmen", 0, 50) == [2, 5, 9, 14]

    def test_hired_swords_climb_the_henchmen_track_and_roll_on_the_heroes_table(self):
        track = T.track("hired-swords")
        assert (track["marks"], track["table"]) == ([2, 5, 9, 14], "heroes")


class TestAdvanceTables:
    """mordheim-campaign.md section 2, rulebook p.121."""

    @pytest.mark.parametrize("roll,result", [(2, "skill"), (5, "skill"), (6, "characteristic"), (9, "characteristic"),
                                             (10, "skill"), (12, "skill")])
    def test_hero_table_edges(self, roll, result):
        assert T.advance("heroes", roll)["result"] == result

    @pytest.mark.parametrize("roll,sub,gain", [(6, 3, "S"), (6, 4, "A"), (8, 3, "I"), (8, 4, "Ld"), (9, 3, "W"),
                                               (9, 4, "T"), (6, 1, "S"), (9, 6, "T")])
    def test_hero_sub_rolls_split_at_three(self, roll, sub, gain):
        assert T.sub_result(T.advance("heroes", roll), sub)["gain"] == gain

    def test_seven_is_chosen_ws_or_bs(self):
        assert sorted(T.advance("heroes", 7)["choose"]) == ["BS", "WS"]

    @pytest.mark.parametrize("roll,gain", [(2, "I"), (4, "I"), (5, "S"), (8, "A"), (9, "Ld")])
    def test_henchman_table_edges(self, roll, gain):
        assert T.advance("henchmen", roll)["gain"] == gain

    @pytest.mark.parametrize("roll", [6, 7])
    def test_henchman_six_and_seven_choose(self, roll):
        assert sorted(T.advance("henchmen", roll)["choose"]) == ["BS", "WS"]

    @pytest.mark.parametrize("roll,result", [(9, "characteristic"), (10, "talent"), (12, "talent")])
    def test_the_lads_got_talent_from_ten(self, roll, result):
        assert T.advance("henchmen", roll)["result"] == result

    @pytest.mark.parametrize("roll", [1, 13])
    def test_it_refuses_a_roll_off_the_table(self, roll):
        with pytest.raises(ValueError, match="2D6: 2 to 12"):
            T.advance("heroes", roll)

    def test_henchmen_limits(self):
        rules = T.henchman_rules()
        assert (rules["gain_cap"], rules["hero_limit"], rules["talent_skill_lists"]) == (1, 6, 2)


class TestInjuries:
    """mordheim-campaign.md section 3, rulebook (Part 3) p.79-80."""

    @pytest.mark.parametrize("roll,injury", [
        (11, "dead"), (15, "dead"), (16, "multiple-injuries"), (21, "multiple-injuries"), (22, "leg-wound"),
        (23, "arm-wound"), (24, "madness"), (25, "smashed-leg"), (26, "chest-wound"), (31, "blinded-in-one-eye"),
        (32, "old-battle-wound"), (33, "nervous-condition"), (34, "hand-injury"), (35, "deep-wound"), (36, "robbed"),
        (41, "full-recovery"), (46, "full-recovery"), (51, "full-recovery"), (55, "full-recovery"),
        (56, "bitter-enmity"), (61, "captured"), (62, "hardened"), (63, "hardened"), (64, "horrible-scars"),
        (65, "sold-to-the-pits"), (66, "survives-against-the-odds")])
    def test_every_range_edge_of_the_heroes_chart(self, roll, injury):
        assert T.injury("heroes", roll)["id"] == injury

    def test_every_d66_number_has_exactly_one_result(self):
        rolls = [t * 10 + u for t in range(1, 7) for u in range(1, 7)]
        assert all(T.injury("heroes", r) for r in rolls)
        rows = T.data["injuries"]["heroes"]["rows"]
        covered = sum(d66_index(r["to"]) - d66_index(r["from"]) + 1 for r in rows)
        assert covered == 36

    @pytest.mark.parametrize("roll", [10, 17, 67, 70, 7])
    def test_it_refuses_what_is_no_d66_roll(self, roll):
        with pytest.raises(ValueError, match="not a D66 roll"):
            T.injury("heroes", roll)

    @pytest.mark.parametrize("injury,sub,follow_up", [
        (23, 1, "arm-lost"), (23, 2, "arm-mends"), (24, 3, "stupidity"), (24, 4, "frenzy"), (25, 1, "may-not-run"),
        (25, 2, "leg-mends"), (56, 3, "hates-the-injurer"), (56, 4, "hates-the-leader"), (56, 5, "hates-the-warband"),
        (56, 6, "hates-the-kind")])
    def test_follow_up_rolls(self, injury, sub, follow_up):
        assert T.sub_result(T.injury("heroes", injury), sub)["id"] == follow_up

    def test_effects(self):
        assert T.injury("heroes", 22)["effect"] == {"characteristics": {"M": -1}}
        assert T.injury("heroes", 35)["effect"] == {"miss_games": "D3"}
        assert T.injury("heroes", 66)["effect"] == {"experience": 1}
        assert set(T.injury_rerolls()) == {"dead", "captured", "multiple-injuries"}

    @pytest.mark.parametrize("roll,injury", [(1, "dead"), (2, "dead"), (3, "recovered"), (6, "recovered")])
    def test_henchmen_d6(self, roll, injury):
        assert T.injury("henchmen", roll)["id"] == injury


class TestExploration:
    """mordheim-campaign.md section 4 (Income)."""

    @pytest.mark.parametrize("total,shards", [(1, 1), (5, 1), (6, 2), (11, 2), (12, 3), (17, 3), (18, 4), (24, 4),
                                              (25, 5), (30, 5), (31, 6), (35, 6), (36, 7), (60, 7)])
    def test_shards_by_total_band_edges(self, total, shards):
        assert T.shards_found(total) == shards

    def test_dice_limits(self):
        e = T.exploration()
        assert (e["dice_per_hero"], e["winner_dice"], e["max_dice"]) == (1, 1, 6)

    @pytest.mark.parametrize("dice,found", [
        ([1, 2, 3], None), ([1, 1, 4], "well"), ([6, 6, 2], "ruined-hovels"), ([2, 2, 5, 5], "overturned-cart"),
        ([3, 3, 3, 6, 6], "prisoners"), ([1, 1, 1, 1], "gunsmith"), ([5, 5, 5, 5, 5], "shattered-building"),
        ([6, 6, 6, 6, 6, 6], "nobles-villa"), ([4, 4, 4, 4, 4, 4], "slaughtered-warband")])
    def test_the_largest_set_then_the_higher_face(self, dice, found):
        result = T.multiple(dice)
        assert (result["id"] if result else None) == found


class TestShardPrices:
    """mordheim-campaign.md section 4, selling wyrdstone: the grid's edges."""

    @pytest.mark.parametrize("shards,warriors,gold", [
        (1, 1, 45), (1, 3, 45), (1, 4, 40), (1, 6, 40), (1, 7, 35), (1, 9, 35), (1, 10, 30), (1, 12, 30),
        (1, 13, 30), (1, 15, 30), (1, 16, 25), (1, 40, 25), (8, 1, 155), (8, 16, 100), (4, 10, 65), (7, 13, 100)])
    def test_columns_by_warriors(self, shards, warriors, gold):
        assert T.shard_price(shards, warriors) == gold

    def test_more_than_eight_shards_read_the_last_row(self):
        assert T.shard_price(9, 5) == T.shard_price(8, 5) == 140

    def test_it_refuses_an_empty_sale(self):
        with pytest.raises(ValueError):
            T.shard_price(0, 5)


class TestUnderdog:
    """mordheim-campaign.md section 7: 0-50 +0, 51-75 +1, 76-100 +2, 101-150 +3, 151-300 +4, 301+ +5."""

    @pytest.mark.parametrize("gap,bonus", [(0, 0), (50, 0), (51, 1), (75, 1), (76, 2), (100, 2), (101, 3), (150, 3),
                                           (151, 4), (300, 4), (301, 5), (900, 5)])
    def test_bands(self, gap, bonus):
        assert T.underdog_bonus(gap) == bonus


class TestRacesAndSkills:
    def test_race_maxima(self):
        """mordheim-campaign.md section 2: Human M4 WS6 BS6 S4 T4 W3 I6 A4 Ld9; the Ogre row is the 2005 errata's."""
        assert dict(T.maxima("human")) == {"M": 4, "WS": 6, "BS": 6, "S": 4, "T": 4, "W": 3, "I": 6, "A": 4, "Ld": 9}
        assert T.maxima("ogre")["W"] == 5
        assert T.maxima("zombie") is None

    def test_every_warband_reads_its_heroes(self):
        assert T.warrior("reikland-mercenaries", "captain")["skills"] == ["combat", "shooting", "academic", "strength", "speed"]
        assert "skaven" in T.warrior("skaven-of-clan-eshin", "assassin-adept")["skills"]
        assert T.warrior("undead", "zombies")["experience"] is False
        assert "strike-to-injure" in T.skill_list("combat")

    def test_a_warband_naming_an_unknown_skill_list_fails_to_load(self, tmp_path):
        folder = tmp_path / "rules_data" / "mordheim" / "campaign"
        shutil.copytree(FOLDER, folder)
        data = yaml.safe_load((folder / "warbands.yaml").read_text())
        data["warbands"]["undead"]["entries"]["dreg"]["skills"] = ["cooking"]
        (folder / "warbands.yaml").write_text(yaml.safe_dump(data))
        with pytest.raises(RulesDataError, match="'cooking'"):
            load_tables(folder)

    def test_a_broken_table_names_the_file_and_place(self, tmp_path):
        folder = tmp_path / "rules_data" / "mordheim" / "campaign"
        shutil.copytree(FOLDER, folder)
        data = yaml.safe_load((folder / "tables.yaml").read_text())
        data["thresholds"]["heroes"]["marks"] = "often"
        (folder / "tables.yaml").write_text(yaml.safe_dump(data))
        with pytest.raises(RulesDataError) as err:
            load_tables(folder)
        assert "rules_data/mordheim/campaign/tables.yaml" in str(err.value)
