"""A step's `expectedState` against the evaluated roster: what differs, each difference with its kind.

Kinds: `legal` (errors were expected and none found), `illegal` (none expected, some found), `cost` (a
roster's or selection's cost), `errors` (errors on both sides, not the same ones), `structure` (forces,
selections, numbers, names, hidden, categories, ids). Lists are matched as the suite matches them: an
exact set, in any order. A step naming no error assertion expects none (the suite's docs/error-assertions.md).
"""
from __future__ import annotations

from armylists.rules.battlescribe import Result, Roster
from armylists.rules.battlescribe.tree import Force, Selection


def _num_equal(a, b) -> bool:
    try:
        return abs(float(a) - float(b)) < 1e-9
    except (TypeError, ValueError):
        return False


class Comparison:
    def __init__(self, roster: Roster, result: Result):
        self.roster = roster
        self.result = result
        self.game = roster.game
        self.problems: list[tuple[str, str]] = []

    def fail(self, kind: str, text: str) -> None:
        self.problems.append((kind, text))

    # costs

    def costs_differ(self, expected: list[dict], actual: dict[str, float], where: str, shown: set | None = None) -> bool:
        shown = set(actual) if shown is None else shown
        listed = {c["typeId"]: c for c in expected}
        types = {c["id"]: c for c in self.game.cost_types}
        wrong = [f"{t}: named {c['name']!r}, is {types.get(t, {}).get('name')!r}" for t, c in listed.items()
                 if "name" in c and c["name"] != types.get(t, {}).get("name")]
        wrong += [f"{t}: hidden {types.get(t, {}).get('hidden')!r}, expected {c['hidden']!r}" for t, c in listed.items()
                  if "hidden" in c and c["hidden"] != types.get(t, {}).get("hidden", False)]
        wrong += [f"{t}: expected {c.get('value')}, got {actual.get(t)}" for t, c in listed.items()
                 if "value" in c and not _num_equal(actual.get(t, 0 if t in shown else None), c["value"])]
        extra = [t for t in shown if t not in listed and not _num_equal(actual.get(t, 0), 0)]
        if wrong or extra:
            self.fail("cost", f"{where} costs: {'; '.join(wrong)}{' extra ' + str(extra) if extra else ''}")
            return True
        return False

    # errors

    def error_matches(self, expected: dict, error) -> bool:
        on = str(expected.get("on", expected.get(True, ""))).split()
        if on and on[0] != error.owner_type:
            return False
        if len(on) > 1 and on[1] not in error.owner_ids:
            return False
        source, _, constraint = str(expected.get("from", "")).rpartition("/")
        if (source, constraint) != (error.source_id, error.constraint_id):
            return False
        needle = expected.get("messageContains")
        return needle is None or needle.lower() in error.message.lower()

    def check_errors(self, state: dict) -> None:
        errors = self.result.errors
        if "errorCount" in state:
            expected_some = state["errorCount"] > 0
            if len(errors) != state["errorCount"]:
                self._legality(expected_some, errors, f"error count: expected {state['errorCount']}, got {len(errors)}")
            return
        if "errorsContain" in state:
            missing = [e for e in state["errorsContain"] if not any(self.error_matches(e, a) for a in errors)]
            if missing:
                self._legality(True, errors, f"missing errors {missing}; got {self._shown(errors)}")
            return
        expected = state.get("errors") or []
        left = list(errors)
        unmatched = []
        for item in expected:
            hit = next((a for a in left if self.error_matches(item, a)), None)
            if hit is None:
                unmatched.append(item)
            else:
                left.remove(hit)
        if unmatched or left:
            self._legality(bool(expected), errors,
                           f"errors: expected {expected}, got {self._shown(errors)}")

    @staticmethod
    def _shown(errors) -> list[str]:
        return [f"{e.owner_type} {sorted(e.owner_ids)} {e.source_id}/{e.constraint_id}: {e.message}" for e in errors]

    def _legality(self, expected_some: bool, errors, text: str) -> None:
        if expected_some and not errors:
            self.fail("legal", text)
        elif not expected_some and errors:
            self.fail("illegal", text)
        else:
            self.fail("errors", text)

    # structure

    def check_state(self, state: dict) -> None:
        if "forceCount" in state and state["forceCount"] != len(self.roster.forces):
            self.fail("structure", f"forceCount: expected {state['forceCount']}, got {len(self.roster.forces)}")
        if "selectionCount" in state:
            got = sum(len(f.selections) for f in self.roster.all_forces())
            if got != state["selectionCount"]:
                self.fail("structure", f"selectionCount: expected {state['selectionCount']}, got {got}")
        if "costs" in state:
            self.costs_differ(state["costs"], self.result.costs, "roster")
        if "costCount" in state and state["costCount"] != len(self.result.costs):
            self.fail("cost", f"costCount: expected {state['costCount']}, got {len(self.result.costs)}")
        if "costLimits" in state:
            limits = self.roster.cost_limits
            listed = {c["typeId"]: c.get("value") for c in state["costLimits"]}
            if set(listed) != set(limits) or any(not _num_equal(limits[t], v) for t, v in listed.items()):
                self.fail("cost", f"costLimits: expected {listed}, got {limits}")
        if "costLimitCount" in state and state["costLimitCount"] != len(self.roster.cost_limits):
            self.fail("cost", f"costLimitCount: expected {state['costLimitCount']}, got {len(self.roster.cost_limits)}")
        if "forces" in state:
            self.match_list(state["forces"], self.roster.forces, self.force_problems, "forces")
        self.check_errors(state)

    def match_list(self, expected: list[dict], actual: list, check, where: str) -> None:
        """An exact set: each expected item matches one actual item (in any order), none left over."""
        left = list(actual)
        for number, item in enumerate(expected):
            candidates = [(a, check(item, a)) for a in left]
            exact = next((a for a, problems in candidates if not problems), None)
            if exact is not None:
                left.remove(exact)
                continue
            if not candidates:
                self.fail("structure", f"{where}[{number}]: expected {item}, nothing left")
                continue
            best, problems = min(candidates, key=lambda pair: len(pair[1]))
            left.remove(best)
            for kind, text in problems:
                self.fail(kind, f"{where}[{number}] {text}")
        if left:
            self.fail("structure", f"{where}: {len(left)} more than expected")

    def force_problems(self, item: dict, force: Force) -> list[tuple[str, str]]:
        sub = Comparison(self.roster, self.result)
        if "name" in item and item["name"] != force.state.name:
            sub.fail("structure", f"force name {force.state.name!r}, expected {item['name']!r}")
        if "selectionCount" in item and item["selectionCount"] != len(force.selections):
            sub.fail("structure", f"{force.state.name}: {len(force.selections)} selections, expected {item['selectionCount']}")
        if "childForceCount" in item and item["childForceCount"] != len(force.forces):
            sub.fail("structure", f"{force.state.name}: {len(force.forces)} child forces, expected {item['childForceCount']}")
        for key, value in (("entryId", force.entry_id), ("catalogueId", force.catalogue_id),
                           ("hidden", force.state.hidden)):
            if key in item and item[key] != value:
                sub.fail("structure", f"force {key} {value!r}, expected {item[key]!r}")
        if "catalogueName" in item:
            name = self.game.docs.get(force.catalogue_id, {}).get("name")
            if item["catalogueName"] != name:
                sub.fail("structure", f"force catalogueName {name!r}, expected {item['catalogueName']!r}")
        if "childForces" in item:
            sub.match_list(item["childForces"], force.forces, sub.force_problems, "childForces")
        if "selections" in item:
            sub.match_list(item["selections"], force.selections, sub.selection_problems, "selections")
        if "categories" in item or "categoryCount" in item:
            names = self.force_categories(force)
            if "categoryCount" in item and item["categoryCount"] != len(names):
                sub.fail("structure", f"{len(names)} categories, expected {item['categoryCount']}")
            for category in item.get("categories", []):
                if "name" in category and category["name"] not in names.values():
                    sub.fail("structure", f"no category {category['name']!r} in {sorted(names.values())}")
                if "entryId" in category and category["entryId"] not in names:
                    sub.fail("structure", f"no category {category['entryId']!r}")
        return sub.problems

    def force_categories(self, force: Force) -> dict[str, str]:
        """The categories a force shows: its force entry's category links (BattleScribe lists them all)."""
        return {link["target"]: self.game.categories.get(link["target"], {}).get("name") or link.get("name", "")
                for link in force.entry.get("category_links", [])}

    def selection_problems(self, item: dict, selection: Selection) -> list[tuple[str, str]]:
        sub = Comparison(self.roster, self.result)
        state = selection.state
        label = state.name
        checks = (("name", state.name), ("type", selection.option.entry.get("type")), ("number", selection.number),
                  ("hidden", state.hidden), ("entryId", selection.entry_id),
                  ("entryGroupId", selection.option.group_id), ("childCount", len(selection.children)))
        for key, value in checks:
            if key in item and item[key] != value:
                sub.fail("structure", f"{label}: {key} {value!r}, expected {item[key]!r}")
        if "costs" in item:
            sub.costs_differ(item["costs"], state.costs, f"selection {label}",
                             {c["id"] for c in self.game.cost_types})
        if "children" in item:
            sub.match_list(item["children"], selection.children, sub.selection_problems, f"{label} children")
        if "categories" in item:
            got = [(c, self.game.name_of(c), c == state.primary) for c in state.categories]
            for category in item["categories"]:
                hit = [g for g in got if category.get("entryId", g[0]) == g[0]
                       and category.get("name", g[1]) == g[1] and category.get("primary", g[2]) == g[2]]
                if not hit:
                    sub.fail("structure", f"{label}: no category {category}, got {got}")
            if len(got) != len(item["categories"]):
                sub.fail("structure", f"{label}: {len(got)} categories, expected {len(item['categories'])}")
        return sub.problems
