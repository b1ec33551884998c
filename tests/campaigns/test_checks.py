"""A warband's campaign state checked like any list (rule type campaign_state, mordheim_campaign/checks.py).

Each case at its table's boundary, citing mordheim-campaign.md (../shared/reference) by section.
"""
from __future__ import annotations

from tests.campaigns.conftest import warband


def codes(found):
    return [(code, unit) for code, unit, _ in found]


def battles(*experience: dict) -> list[dict]:
    return [{"number": i + 1, "result": "lost", "experience": xp} for i, xp in enumerate(experience)]


class TestExperience:
    """Section 1: starting experience (the book's), plus what the battles' log gives."""

    def test_a_founded_warband_with_an_empty_campaign_passes(self, judge):
        assert judge(warband({})) == []

    def test_experience_equal_to_start_plus_the_log_passes(self, judge):
        doc = warband({"battles": battles({"captain": 2, "warriors": 1})}, captain=22, warriors=1)
        assert judge(doc) == []  # 20 -> 22 passes no mark (the next is 24), 0 -> 1 none either

    def test_a_mark_passed_without_its_roll_is_a_warning(self, judge):
        doc = warband({"battles": battles({"captain": 4})}, captain=24)
        assert judge(doc) == [("campaign.advance_not_taken", "captain", "Mercenary Captain (captain) has passed 1 "
                               "advance mark but rolled 0: roll the rest.")]

    def test_one_more_than_the_log_is_a_mismatch(self, judge):
        found = judge(warband({"battles": battles({"warriors": 1})}, warriors=2))
        assert ("campaign.experience_mismatch", "warriors",
                "Warriors (warriors) has 2 XP; it started with 0 and its battles gave 1, 1 XP in all.") in found


class TestAdvances:
    """Section 1: heroes' marks 2, 4, 6, 8, 11...; henchmen's 2, 5, 9, 14; starting XP earns none."""

    def test_an_advance_at_a_mark_reached_passes(self, judge):
        doc = warband({"battles": battles({"champion": 3}),
                       "warriors": {"champion": {"advances": [{"at": 11, "gain": "WS"}]}}}, champion=11)
        assert judge(doc) == []

    def test_an_advance_one_xp_short_of_its_mark_is_not_earned(self, judge):
        doc = warband({"battles": battles({"champion": 2}),
                       "warriors": {"champion": {"advances": [{"at": 11, "gain": "WS"}]}}}, champion=10)
        assert judge(doc) == [("campaign.advance_not_earned", "champion",
                               "Champion (champion) has 1 advance; 10 XP from a start of 8 earns 0; 11 XP is no mark "
                               "it has passed.")]

    def test_the_captains_starting_twenty_earns_nothing(self, judge):
        doc = warband({"warriors": {"captain": {"advances": [{"at": 20, "skill": "strike-to-injure"}]}}})
        assert codes(judge(doc)) == [("campaign.advance_not_earned", "captain")]

    def test_henchmen_advance_at_five_not_four(self, judge):
        adv = {"warriors": {"advances": [{"at": 2, "gain": "I"}, {"at": 5, "gain": "S"}]}}
        assert codes(judge(warband({"battles": battles({"warriors": 5}), "warriors": adv}, warriors=5))) == []
        found = judge(warband({"battles": battles({"warriors": 4}), "warriors": adv}, warriors=4))
        assert found == [("campaign.advance_not_earned", "warriors", "Warriors (warriors) has 2 advances; 4 XP from a "
                          "start of 0 earns 1 (at 2 XP); 5 XP is no mark it has passed.")]


class TestLimits:
    def test_a_hero_at_his_race_maximum_passes_and_one_over_fails(self, judge):
        """Section 2: Human S at most 4; a Champion starts at S3."""
        one = {"champion": {"advances": [{"at": 11, "gain": "S"}]}}
        assert judge(warband({"battles": battles({"champion": 3}), "warriors": one}, champion=11)) == []
        two = {"champion": {"advances": [{"at": 11, "gain": "S"}, {"at": 14, "gain": "S"}]}}
        found = judge(warband({"battles": battles({"champion": 6}), "warriors": two}, champion=14))
        assert found == [("campaign.over_race_maximum", "champion",
                          "Champion (champion): S 3 + 2 from advances is 5; a human has at most 4.")]

    def test_an_injury_lowering_a_characteristic_counts_against_the_maximum(self, judge):
        two = {"champion": {"advances": [{"at": 11, "gain": "S"}, {"at": 14, "gain": "T"}, {"at": 17, "gain": "T"}],
                            "injuries": [{"id": "chest-wound", "roll": 26}]}}
        assert judge(warband({"battles": battles({"champion": 9}), "warriors": two}, champion=17)) == []

    def test_a_henchman_group_gains_at_most_one_in_a_characteristic(self, judge):
        """Section 2: henchmen at most +1 over the starting profile."""
        adv = {"warriors": {"advances": [{"at": 2, "gain": "I"}, {"at": 5, "gain": "I"}]}}
        found = judge(warband({"battles": battles({"warriors": 5}), "warriors": adv}, warriors=5))
        assert found == [("campaign.henchman_gain_cap", "warriors", "Warriors (warriors): I raised by 2; a henchman "
                          "group gains at most +1 in any characteristic.")]

    def test_a_skill_from_the_heros_lists_passes_and_another_fails(self, judge):
        """Section 2, skill access per warband: a Youngblood has Combat, Shooting and Speed (not Academic)."""
        ok = {"youngblood": {"advances": [{"at": 2, "skill": "sprint"}]}}
        assert judge(warband({"battles": battles({"youngblood": 2}), "warriors": ok}, youngblood=2)) == []
        bad = {"youngblood": {"advances": [{"at": 2, "skill": "haggle"}]}}
        found = judge(warband({"battles": battles({"youngblood": 2}), "warriors": bad}, youngblood=2))
        assert found == [("campaign.skill_not_allowed", "youngblood", "Youngblood (youngblood) took the skill 'haggle', "
                          "which is on none of its lists (combat, shooting, speed).")]

    def test_a_champion_takes_strength_skills_and_not_speed(self, judge):
        """The rulebook's Mercenary skill table: a Champion has Combat, Shooting and Strength (BSData's
        Reiklanders.cat agrees; rules_data/mordheim/campaign/warbands.yaml had Speed, the Youngblood's). He
        starts at 8 experience; 3 more pass the threshold at 11 (mordheim-campaign.md section 1)."""
        ok = {"champion": {"advances": [{"at": 11, "skill": "mighty-blow"}]}}
        assert judge(warband({"battles": battles({"champion": 3}), "warriors": ok}, champion=11)) == []
        bad = {"champion": {"advances": [{"at": 11, "skill": "sprint"}]}}
        found = judge(warband({"battles": battles({"champion": 3}), "warriors": bad}, champion=11))
        assert found == [("campaign.skill_not_allowed", "champion", "Champion (champion) took the skill 'sprint', "
                          "which is on none of its lists (combat, shooting, strength).")]

    def test_zombies_never_gain_experience(self, judge, library):
        doc = {"format": "armylist/1", "system": "mordheim", "book": "undead", "book_version":
               library.latest("mordheim", "undead").version, "points_limit": 500, "modes": ["campaign"],
               "units": [{"id": "v", "entry": "vampire"}, {"id": "z", "entry": "zombies", "size": 2, "experience": 1}],
               "campaign": {"battles": battles({"z": 1})}}
        assert ("campaign.no_experience", "z", "Zombies (z) never gains experience, but has 1 XP.") in judge(doc)


class TestHeroes:
    """Section 2: the lad's got talent only below six heroes, the leader included."""

    def test_six_heroes_with_a_promoted_lad_pass_and_seven_fail(self, judge):
        doc = warband({"warriors": {"marksmen": {"hero": True, "starting_experience": 0}}})
        doc["units"][4]["size"] = 1  # one Marksman, made a hero: 4 heroes + 1
        assert codes(judge(doc)) == []
        doc["units"] += [{"id": "champion-2", "entry": "champion"}, {"id": "lad-2", "entry": "warriors"}]
        doc["campaign"]["warriors"]["lad-2"] = {"hero": True}
        found = judge(doc)
        assert ("campaign.too_many_heroes", None, "The warband has 7 heroes (5 and 2 made from henchmen); at most 6, "
                "the leader included.") in found
