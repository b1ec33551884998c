"""The battle form: what happened in a battle, in the post-battle sequence's order, as the page asks it.

Its fields are made per warrior of the warband (fought, out of action, enemies put out of action, and for
a henchman group how many went down); `battle()` turns a valid form into the request the engine takes
(the same shape the API's body has, docs/api.md). Dice left blank are rolled by the site.
"""
from __future__ import annotations

import re
from typing import Any

from django import forms

DICE = re.compile(r"^\s*([1-6](\s+|,\s*|$))*\s*$")
# "injury:champion: 23 2" a line: a purpose of the post-battle sequence and the dice rolled for it
TABLE_DICE = re.compile(r"^\s*((?:injury|advance|rarity):[A-Za-z0-9_-]+)\s*:?\s*((?:\d{1,2}[\s,]*)+)$")


# The post-battle sequence one step at a time (the page's steps, in the rulebook's order): each step's
# fields; the warriors' own fields are added per warband (`BattleForm.step_fields`). The last step shows
# the whole battle's log and commits it.
STEPS = (
    ("result", "The result and who fought", ("result", "opponent_rating")),
    ("injuries", "Serious injuries", ()),
    ("experience", "Experience and advances", ("table_dice",)),
    ("exploration", "Exploration", ("exploration_dice", "exploration_gold")),
    ("selling", "Selling shards", ("sell_shards",)),
    ("buying", "Buying and rarity rolls", ("buy_item", "buy_unit", "buy_price", "buy_rarity", "buy_searcher",
                                           "rarity_roll")),
    ("review", "The battle, to record", ()),
)
STEP_NAMES = tuple(name for name, _, _ in STEPS)
INJURY_DICE = re.compile(r"^\s*(\d{1,2}([\s,]+\d{1,2})*)?\s*$")


class BattleForm(forms.Form):
    revision = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    # The seed the site rolls the battle's dice from, chosen when the page is first shown: the steps'
    # previews and the battle recorded then roll the same dice.
    seed = forms.IntegerField(widget=forms.HiddenInput, min_value=0, max_value=2**48, required=False)
    result = forms.ChoiceField(choices=[("won", "Won"), ("lost", "Lost"), ("draw", "Draw")], widget=forms.RadioSelect)
    opponent_rating = forms.IntegerField(min_value=0, max_value=100000, required=False,
                                         help_text="The other warband's rating: the lower-rated side gains the underdog bonus.")
    exploration_dice = forms.CharField(max_length=40, required=False, label="Exploration dice (as rolled)",
                                       help_text="e.g. 4 4 1; blank: the site rolls them.")
    table_dice = forms.CharField(max_length=2000, required=False, widget=forms.Textarea(attrs={"rows": 3}),
                                 label="Other dice rolled at the table",
                                 help_text="A line each, e.g. “injury:champion 23 2” or “advance:warriors 10 8”; "
                                           "the site rolls whatever is not given.")
    exploration_gold = forms.IntegerField(min_value=0, max_value=1000, required=False, label="Gold found exploring")
    sell_shards = forms.IntegerField(min_value=0, max_value=100, required=False, label="Shards to sell")
    buy_item = forms.SlugField(max_length=80, required=False, label="Buy (item id)")
    buy_unit = forms.ChoiceField(required=False, label="for")
    buy_price = forms.IntegerField(min_value=0, max_value=10000, required=False, label="price (gc)")
    buy_rarity = forms.IntegerField(min_value=2, max_value=20, required=False, label="rare (blank: common)")
    buy_searcher = forms.ChoiceField(required=False, label="looked for by")
    rarity_roll = forms.IntegerField(min_value=2, max_value=12, required=False, label="rarity roll (2D6, as rolled)")

    def __init__(self, *args: Any, warriors: list[tuple[str, str, bool]], **kwargs: Any) -> None:
        """`warriors`: (unit id, name, is a hero) for every warrior of the warband."""
        super().__init__(*args, **kwargs)
        self.warriors = warriors
        self.fields["buy_unit"].choices = [("", "the stash")] + [(uid, name) for uid, name, _ in warriors]
        self.fields["buy_searcher"].choices = [("", "—")] + [(uid, name) for uid, name, hero in warriors if hero]
        for uid, name, hero in warriors:
            self.fields[f"{uid}-fought"] = forms.BooleanField(required=False, initial=True, label=f"{name} fought")
            self.fields[f"{uid}-ooa"] = forms.BooleanField(required=False, label="out of action")
            self.fields[f"{uid}-kills"] = forms.IntegerField(min_value=0, max_value=50, required=False,
                                                             label="enemies out of action")
            if not hero:
                self.fields[f"{uid}-down"] = forms.IntegerField(min_value=1, max_value=20, required=False,
                                                                label="how many down")
            self.fields[f"{uid}-injury"] = forms.CharField(
                max_length=40, required=False, label=f"{name}: injury dice",
                help_text="As rolled: the D66, then any follow-up (23 2); blank: the site rolls them.")

    def step_fields(self, step: str) -> list[str]:
        """The names of the fields `step` asks (the warriors' per-warrior fields with the first step,
        their injury dice with the injuries step)."""
        names = list(dict((n, f) for n, _, f in STEPS)[step])
        for uid, _, hero in self.warriors:
            if step == "result":
                names += [f"{uid}-fought", f"{uid}-ooa", f"{uid}-kills"] + ([] if hero else [f"{uid}-down"])
            elif step == "injuries":
                names.append(f"{uid}-injury")
        return names

    def step_of_first_error(self) -> str | None:
        for step in STEP_NAMES:
            if any(name in self.errors for name in self.step_fields(step)):
                return step
        return None

    def hidden_for(self, step: str) -> list:
        """Every field of the other steps, to carry as hidden inputs while `step` is shown."""
        shown = set(self.step_fields(step)) | {"revision", "seed"}
        return [self[name] for name in self.fields if name not in shown]

    def out_of_action(self) -> list[tuple[str, Any]]:
        """(name, injury dice field) of each warrior the first step put out of action."""
        data = self.cleaned_data if hasattr(self, "cleaned_data") else {}
        return [(name, self[f"{uid}-injury"]) for uid, name, _ in self.warriors
                if data.get(f"{uid}-fought") and data.get(f"{uid}-ooa")]

    def rows(self) -> list[dict[str, Any]]:
        """The per-warrior fields, a row each, for the template (no logic there)."""
        return [{"name": name, "hero": hero, "fought": self[f"{uid}-fought"], "ooa": self[f"{uid}-ooa"],
                 "kills": self[f"{uid}-kills"], "down": self[f"{uid}-down"] if not hero else None}
                for uid, name, hero in self.warriors]

    def clean_exploration_dice(self) -> list[int]:
        text = self.cleaned_data.get("exploration_dice") or ""
        if not DICE.match(text):
            raise forms.ValidationError("Write the dice as numbers 1 to 6, separated by spaces (4 4 1).")
        return [int(d) for d in re.findall(r"[1-6]", text)]

    def clean_table_dice(self) -> dict[str, list[int]]:
        rolls: dict[str, list[int]] = {}
        for n, line in enumerate((self.cleaned_data.get("table_dice") or "").splitlines(), 1):
            if not line.strip():
                continue
            found = TABLE_DICE.match(line)
            if found is None:
                raise forms.ValidationError(f"Line {n}: write the step and the warrior, then the dice "
                                            f"(injury:champion 23 2).")
            rolls.setdefault(found.group(1), []).extend(int(d) for d in re.findall(r"\d+", found.group(2)))
        return rolls

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for uid, _, _ in self.warriors:
            text = data.get(f"{uid}-injury") or ""
            if not INJURY_DICE.match(text):
                self.add_error(f"{uid}-injury", "Write the dice as numbers, the D66 first (23 2).")
            else:
                data[f"{uid}-injury"] = [int(d) for d in re.findall(r"\d+", text)]
        if data.get("buy_item") and data.get("buy_rarity") and not data.get("buy_searcher"):
            self.add_error("buy_searcher", "A rare item is looked for by one of the warband's heroes.")
        return data

    def battle(self) -> dict[str, Any]:
        data = self.cleaned_data
        models: dict[str, Any] = {}
        for uid, _, hero in self.warriors:
            if not data.get(f"{uid}-fought"):
                continue
            report: dict[str, Any] = {"out_of_action": bool(data.get(f"{uid}-ooa")),
                                      "enemies_out_of_action": data.get(f"{uid}-kills") or 0}
            if not hero and data.get(f"{uid}-down"):
                report["models_out_of_action"] = data[f"{uid}-down"]
            models[uid] = report
        battle: dict[str, Any] = {"result": data["result"], "models": models, "rolls": dict(data.get("table_dice") or {})}
        for uid in models:
            if models[uid]["out_of_action"] and data.get(f"{uid}-injury"):
                battle["rolls"][f"injury:{uid}"] = data[f"{uid}-injury"]
        if data.get("opponent_rating") is not None:
            battle["opponent_rating"] = data["opponent_rating"]
        if data.get("exploration_dice"):
            battle["rolls"]["exploration"] = data["exploration_dice"]
        if data.get("exploration_gold"):
            battle["exploration"] = {"gold": data["exploration_gold"], "items": []}
        if data.get("sell_shards"):
            battle["sell_shards"] = data["sell_shards"]
        if data.get("buy_item"):
            purchase: dict[str, Any] = {"item": data["buy_item"], "unit": data.get("buy_unit") or None}
            if data.get("buy_price") is not None:
                purchase["price"] = data["buy_price"]
            if data.get("buy_rarity"):
                purchase.update(rarity=data["buy_rarity"], searcher=data["buy_searcher"])
                if data.get("rarity_roll"):
                    battle["rolls"][f"rarity:{data['buy_searcher']}"] = [data["rarity_roll"]]
            battle["buy"] = [purchase]
        return battle


# --- a campaign of several players (campaigns/league.py) -------------------------------------------------

class CampaignForm(forms.Form):
    name = forms.CharField(max_length=200, label="Campaign name")

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError("Give the campaign a name.")
        return name


class WarbandChoiceForm(forms.Form):
    """One of the player's Mordheim warbands to enter; with `code`, joining a campaign by its code too."""

    army_list = forms.TypedChoiceField(coerce=int, label="Your warband",
                                       error_messages={"invalid_choice": "Choose one of your Mordheim warbands."})

    def __init__(self, *args: Any, lists: list, code: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["army_list"].choices = [(l.pk, l.name) for l in lists]
        if code:
            self.fields["code"] = forms.CharField(max_length=20, label="Join code",
                                                  widget=forms.TextInput(attrs={"autocomplete": "off"}))
            self.order_fields(["code", "army_list"])


class SideForm(BattleForm):
    """One warband's side of a campaign battle: the battle form, with the opponent chosen from the
    campaign's warbands (when entering it) and no opponent's rating (the campaign knows it)."""

    def __init__(self, *args: Any, opponents: list[tuple[int, str]] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["opponent_rating"]
        self.fields["revision"].required = False
        if opponents is not None:
            self.fields["opponent"] = forms.TypedChoiceField(
                coerce=int, choices=opponents, label="Against",
                error_messages={"invalid_choice": "Choose a warband of this campaign."})
