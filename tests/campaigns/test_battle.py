"""The post-battle sequence (mordheim_campaign/battle.py) with the dice entered, step by step, citing
mordheim-campaign.md (../shared/reference) by section. Every case asserts the new document and the log."""
from __future__ import annotations

import pytest

from armylists.rules import parse_roster, validate
from armylists.rules.native.mordheim_campaign.aftermath import BattleError
from armylists.rules.native.mordheim_campaign.battle import apply_battle, start_campaign
from tests.campaigns.conftest import WARBAND

ALL_FOUGHT = {"captain": {}, "champion": {}, "youngblood": {}, "warriors": {}, "marksmen": {}, "youngblood-2": {}}


@pytest.fixture
def book(library):
    return library.book("mordheim", "reikland-mercenaries", "1999.2")


@pytest.fixture
def founded(book):
    report = validate(book, parse_roster(WARBAND))
    return start_campaign(WARBAND, report.total_points)


def fight(doc, book, rating=88, seed=None, **battle):
    battle.setdefault("result", "lost")
    models = {**ALL_FOUGHT, **battle.pop("models", {})}
    return apply_battle(doc, book, {"models": models, **battle}, seed, rating)


def unit(doc, uid):
    return next((u for u in doc["units"] if u["id"] == uid), None)


def test_starting_a_campaign_keeps_the_founding_gold(founded):
    assert founded["campaign"] == {"founding_gold": 0, "treasury": 0, "wyrdstone": 0}  # the example spends all 500
    assert founded["modes"] == ["campaign"]


class TestInjuries:
    """Section 3: heroes D66 with follow-ups; henchmen D6, 1-2 dead."""

    def test_an_arm_wound_with_a_follow_up_of_two_misses_the_next_game(self, founded, book):
        out = fight(founded, book, models={"champion": {"out_of_action": True}},
                    rolls={"injury:champion": [23, 2], "exploration": [1, 2, 3]})
        record = out.document["campaign"]["warriors"]["champion"]
        assert record["injuries"] == [{"id": "arm-wound", "roll": 23, "follow_up": "arm-mends", "battle": 1}]
        assert (record["state"], record["games_to_miss"]) == ("misses-next-game", 1)
        assert "Champion (champion) out of action: D66 23, Arm wound; D6 2: Light arm wound, misses the next game." in out.log

    def test_the_missed_game_is_counted_off_by_the_next_battle(self, founded, book):
        first = fight(founded, book, models={"champion": {"out_of_action": True}},
                      rolls={"injury:champion": [23, 2], "exploration": [1, 2, 3]})
        models = {k: {} for k in ALL_FOUGHT if k != "champion"}
        second = apply_battle(first.document, book, {"result": "lost", "models": models,
                                                     "rolls": {"exploration": [1, 2, 3]}}, None, 90)
        assert second.document["campaign"]["warriors"]["champion"]["state"] == "fit"

    def test_a_dead_hero_leaves_the_roster_for_the_fallen(self, founded, book):
        out = fight(founded, book, models={"youngblood": {"out_of_action": True}},
                    rolls={"injury:youngblood": [15], "exploration": [1, 2, 3]})
        assert unit(out.document, "youngblood") is None
        assert out.document["campaign"]["fallen"] == [{"unit": "youngblood", "entry": "youngblood", "name": "Youngblood",
                                                       "battle": 1, "why": "Dead (D66 15)"}]
        assert "youngblood" not in out.experience

    def test_multiple_injuries_reroll_dead_and_stack(self, founded, book):
        # 16: multiple, D6 2 more rolls; the first (11, dead) is rolled again as 22 (leg wound), then 26 (chest wound)
        out = fight(founded, book, models={"champion": {"out_of_action": True}},
                    rolls={"injury:champion": [16, 2, 11, 22, 26], "exploration": [1, 2, 3]})
        ids = [i["id"] for i in out.document["campaign"]["warriors"]["champion"]["injuries"]]
        assert ids == ["multiple-injuries", "leg-wound", "chest-wound"]
        assert unit(out.document, "champion") is not None

    @pytest.mark.parametrize("rolls,size", [([1, 3], 4), ([2, 2], 3), ([3, 6], 5)])
    def test_henchmen_die_on_one_or_two(self, founded, book, rolls, size):
        out = fight(founded, book, models={"warriors": {"out_of_action": True, "models_out_of_action": 2}},
                    rolls={"injury:warriors": rolls, "exploration": [1, 2, 3, 4]})
        assert unit(out.document, "warriors")["size"] == size


class TestExperience:
    """Section 1: +1 survived, +1 winning leader, +1 per enemy put out of action (heroes only); section 7 underdogs."""

    def test_awards(self, founded, book):
        out = fight(founded, book, result="won", models={"captain": {"enemies_out_of_action": 2},
                                                         "warriors": {"enemies_out_of_action": 3}},
                    rolls={"exploration": [1, 2, 3, 4, 5], "advance:captain": [2]})
        assert out.experience["captain"] == 1 + 1 + 2   # survived, winning leader, two enemies
        assert out.experience["warriors"] == 1          # henchmen get nothing for enemies
        assert unit(out.document, "captain")["experience"] == 24

    @pytest.mark.parametrize("gap,bonus", [(50, 0), (51, 1), (300, 4), (301, 5)])
    def test_the_underdog_bonus_at_its_band_edges(self, founded, book, gap, bonus):
        out = fight(founded, book, rating=100, opponent_rating=100 + gap, seed=5, rolls={"exploration": [1, 2, 3, 4]})
        assert out.experience["warriors"] == 1 + bonus

    def test_experience_and_the_log_agree_afterwards(self, founded, book):
        out = fight(founded, book, result="won", models={"captain": {"enemies_out_of_action": 2}},
                    rolls={"exploration": [1, 2, 3, 4, 5], "advance:captain": [2]})
        report = validate(book, parse_roster(out.document))
        assert [v.code for v in report.violations] == []


class TestAdvances:
    """Section 2: the heroes' 2D6 with its D6 sub-roll, race maxima, the henchmen's table and the lad's got talent."""

    def test_a_hero_passing_a_mark_rolls_with_the_sub_roll(self, founded, book):
        out = fight(founded, book, models={"champion": {"enemies_out_of_action": 2}},
                    rolls={"advance:champion": [6, 4], "exploration": [1, 2, 3, 4]})
        assert out.document["campaign"]["warriors"]["champion"]["advances"] == [
            {"at": 11, "battle": 1, "sub_roll": 4, "gain": "A", "roll": 6}]
        assert "Champion (champion): advance at 11 XP, 2D6 6, D6 4: +1 A." in out.log

    def test_at_the_race_maximum_the_other_of_the_pair(self, founded, book):
        # a Champion with S raised to 4 (a human's maximum) rolling 6 then D6 1 (+1 S) takes +1 A
        founded["campaign"]["warriors"] = {"champion": {"advances": [{"at": 11, "gain": "S"}]}}
        founded["campaign"]["battles"] = [{"number": 1, "result": "lost", "experience": {"champion": 3}}]
        unit(founded, "champion")["experience"] = 11
        out = fight(founded, book, models={"champion": {"enemies_out_of_action": 2}},
                    rolls={"advance:champion": [6, 1], "exploration": [1, 2, 3, 4]})
        assert out.document["campaign"]["warriors"]["champion"]["advances"][-1]["gain"] == "A"

    def test_the_lads_got_talent_splits_a_hero_from_the_group(self, founded, book):
        # warriors at 1 XP pass 2: 2D6 10 (talent); the new hero rolls 2D6 3 (a skill); the rest roll 8 (+1 A)
        founded["campaign"]["battles"] = [{"number": 1, "result": "lost", "experience": {"warriors": 1}}]
        unit(founded, "warriors")["experience"] = 1
        out = fight(founded, book, rolls={"advance:warriors": [10, 8], "advance:warriors-lad1": [3],
                                          "exploration": [1, 2, 3, 4]})
        lad = unit(out.document, "warriors-lad1")
        assert (lad["entry"], lad["experience"], unit(out.document, "warriors")["size"]) == ("warriors", 2, 4)
        record = out.document["campaign"]["warriors"]["warriors-lad1"]
        assert (record["hero"], record["skill_lists"], record["advances"][-1]["skill"]) == (
            True, ["combat", "shooting"], "strike-to-injure")
        assert out.document["campaign"]["warriors"]["warriors"]["advances"][-1]["gain"] == "A"
        assert [v.code for v in validate(book, parse_roster(out.document)).violations] == []

    def test_no_talent_at_six_heroes(self, founded, book):
        founded["units"] += [{"id": "champion-2", "entry": "champion"}, {"id": "youngblood-3", "entry": "youngblood"}]
        founded["campaign"]["battles"] = [{"number": 1, "result": "lost", "experience": {"warriors": 1}}]
        unit(founded, "warriors")["experience"] = 1  # heroes: 4 + 2 = 6
        out = fight(founded, book, models={"champion-2": {}, "youngblood-3": {}},
                    rolls={"advance:warriors": [12, 9], "exploration": [1, 2, 3, 4, 5, 6]})
        assert unit(out.document, "warriors-lad1") is None
        assert out.document["campaign"]["warriors"]["warriors"]["advances"][-1]["gain"] == "Ld"


class TestIncome:
    """Section 4: exploration dice, a double, shards sold by the grid; section 6: rarity rolls and the treasury."""

    def test_exploration_with_a_double_and_selling(self, founded, book):
        out = fight(founded, book, result="won", rolls={"exploration": [4, 4, 2, 1, 1]}, sell_shards=2)
        battle = out.document["campaign"]["battles"][-1]
        # four heroes standing and the winner's die: five; two pairs, the higher face reads the chart
        assert battle["exploration"] == {"dice": [4, 4, 2, 1, 1], "result": "straggler"}
        assert battle["shards_found"] == 3   # 12: 3 shards
        assert (battle["shards_sold"], battle["gold_in"]) == (2, 45)   # 2 shards, 12 warriors: 45 gc
        assert out.document["campaign"]["wyrdstone"] == 1 and out.document["campaign"]["treasury"] == 45
        assert "Exploration: 5 dice, 4 4 2 1 1 = 12: 3 shards; Straggler (fours x2)." in out.log

    def test_a_rare_item_after_a_rarity_roll_and_one_not_found(self, founded, book):
        out = fight(founded, book, result="won", sell_shards=1,
                    rolls={"exploration": [6, 6, 6, 6, 6], "rarity:captain": [9], "rarity:champion": [8]},
                    buy=[{"item": "hochland-long-rifle", "unit": None, "price": 20, "rarity": 9, "searcher": "captain"},
                         {"item": "elven-cloak", "unit": None, "price": 10, "rarity": 9, "searcher": "champion"}])
        camp = out.document["campaign"]
        assert camp["stash"] == {"hochland-long-rifle": 1}
        assert camp["treasury"] == 30 - 20
        assert "Champion (champion) looks for elven-cloak (rare 9): 2D6 8, not found." in out.log

    def test_gold_beyond_the_treasury_is_refused(self, founded, book):
        with pytest.raises(BattleError) as err:
            fight(founded, book, rolls={"exploration": [1, 2, 3, 4]}, buy=[{"item": "sword", "unit": "captain"}])
        assert (err.value.path, err.value.message) == (("buy", 0, "price"), "sword costs 10 gc; the treasury holds 0 gc")

    def test_buying_for_a_warrior_moves_the_gold_into_the_warband(self, founded, book):
        out = fight(founded, book, result="won", sell_shards=1, rolls={"exploration": [6, 5, 4, 3, 2]},
                    buy=[{"item": "helmet", "unit": "captain"}])
        assert unit(out.document, "captain")["options"]["helmet"] == 1
        assert (out.document["points_limit"], out.document["campaign"]["treasury"]) == (510, 30 - 10)  # 12 warriors, 1 shard
        assert [v.code for v in validate(book, parse_roster(out.document)).violations] == []


class TestDice:
    def test_the_same_seed_gives_the_same_battle(self, founded, book):
        one = fight(founded, book, seed=41, models={"champion": {"out_of_action": True}})
        two = fight(founded, book, seed=41, models={"champion": {"out_of_action": True}})
        assert one.document == two.document and one.battle["seed"] == 41

    def test_a_battle_of_entered_dice_records_no_seed(self, founded, book):
        out = fight(founded, book, seed=41, rolls={"exploration": [1, 2, 3, 4]})
        assert out.battle["seed"] is None

    @pytest.mark.parametrize("rolls,path,message", [
        ({"injury:champion": [17]}, ("rolls", "injury:champion"), "17 is not a D66 roll"),
        ({"exploration": [7, 1, 1]}, ("rolls", "exploration"), "7 is not a D6 roll"),
        ({"exploration": [1, 2, 3, 4]}, ("rolls", "exploration"), "entered dice [4] were not needed")])
    def test_bad_dice_are_refused_with_their_place(self, founded, book, rolls, path, message):
        with pytest.raises(BattleError) as err:
            fight(founded, book, models={"champion": {"out_of_action": True}},
                  rolls={"exploration": [1, 2, 3], "injury:champion": [41], **rolls})
        assert (err.value.path, err.value.message) == (path, message)

    def test_an_unknown_unit_and_result_are_refused(self, founded, book):
        with pytest.raises(BattleError, match="is no unit of this warband"):
            fight(founded, book, models={"nobody": {}})
        with pytest.raises(BattleError, match="must be one of won, lost, draw"):
            fight(founded, book, result="tie")
