"""Replays one battlescribe-spec roster scenario on armylists.rules.battlescribe and judges it.

    outcome = run_scenario(Path(".../specs/roster/cost/cost-zero.yaml"))
    outcome.status   # passed | wrong_legal | wrong_illegal | wrong_cost | wrong_other | refused | not_applicable

setup -> .gst/.cat XML -> the plain reader -> GameData; each action -> the roster tree; after each
action the roster is evaluated (BattleScribe refreshes after every change); each `expectedState` is
compared (compare.py). A scenario is `refused` when the evaluator says it does not understand a
construct of it, or an action fails: never counted as passed. The main expectation is the one met: the
per-engine overrides (`engines:`) and `skipEngines` describe BattleScribe's and New Recruit's own
departures from it (the suite's NOTE.md).

What cannot apply to a list checker is declared here, by category or by kind, never by scenario.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from armylists.rules.battlescribe import (GameData, GameDataError, Roster, RosterError, add_force, deselect,
                                          duplicate, duplicate_force, evaluate, remove_force, select,
                                          set_cost_limit, set_count)
from armylists.rules.battlescribe.queries import Unsupported
from tests.battlescribe.spec.compare import Comparison
from tests.battlescribe.spec.setup_xml import plain_setup

# Whole categories a list checker has no part in.
NOT_APPLICABLE_CATEGORIES = {
    "ordering": "display order of forces, selections and categories in an editor",
    "export": "byte-compare of a .ros file an editor writes",
    "roundtrip": "saving and reloading an editor's .ros file",
    "customization": "names and notes a user types on forces, selections and categories",
}
# Kinds of scenario, found in any category.
NOT_APPLICABLE_ACTIONS = {
    "loadRoster": "loading an editor's .ros payload", "reload": "an editor's save and reload",
    "setCustomization": "names and notes a user types", "dump": "an editor's debug dump",
}
DISPLAY_KEYS = {
    "profiles": "profiles (display content)", "rules": "rules text (display content)",
    "publications": "publications (display content)", "publicationId": "publications (display content)",
    "publicationName": "publications (display content)", "page": "page references (display content)",
    "customName": "names a user types", "customNotes": "notes a user types",
    "availableEntryCount": "what an editor offers to pick (display)",
}
ROSTER_METADATA = {"name": "the roster's name (editor metadata)",
                   "gameSystemName": "game system metadata", "gameSystemId": "game system metadata"}
STATUSES = ("passed", "wrong_legal", "wrong_illegal", "wrong_cost", "wrong_other", "refused", "not_applicable")
SEVERITY = {"legal": "wrong_legal", "illegal": "wrong_illegal", "cost": "wrong_cost"}
REFERENCE = re.compile(r"\$\{\{\s*steps\.([\w.-]+?)\.(forceId|selectionId|selections\.[\w:.-]+)\s*\}\}")


@dataclass
class Outcome:
    path: str
    category: str
    scenario: str
    status: str
    reason: str = ""
    problems: list[str] = field(default_factory=list)


# Every assertion the comparison makes (compare.py); a scenario asserting anything else is refused,
# never passed on what was not compared.
COMPARED = {
    "state": {"forceCount", "selectionCount", "forces", "costCount", "costs", "costLimits", "costLimitCount",
              "errors", "errorsContain", "errorCount", "engines"},
    "forces": {"name", "selectionCount", "childForceCount", "childForces", "selections", "entryId",
               "catalogueId", "catalogueName", "hidden", "categories", "categoryCount"},
    "selections": {"name", "type", "number", "hidden", "costs", "children", "categories", "entryGroupId",
                   "entryId", "childCount"},
    "categories": {"name", "entryId", "primary"}, "costs": {"typeId", "value", "name", "hidden"},
    "costLimits": {"typeId", "value"},
}
LIST_KINDS = {"forces": "forces", "childForces": "forces", "selections": "selections", "children": "selections",
              "categories": "categories", "costs": "costs", "costLimits": "costLimits"}


def not_compared(state: dict, kind: str = "state") -> str | None:
    """The first assertion of an expected state the comparison does not make, or None."""
    for key, value in state.items():
        if key == "engines":
            continue
        if key not in COMPARED[kind]:
            return f"{kind}.{key}"
        if key in LIST_KINDS and isinstance(value, list) and kind != "categories":
            for item in value:
                found = not_compared(item, LIST_KINDS[key]) if isinstance(item, dict) else None
                if found:
                    return found
    return None


def not_applicable(spec: dict) -> str | None:
    """Why a scenario cannot apply to a list checker (by its category or kind), or None."""
    if spec.get("category") in NOT_APPLICABLE_CATEGORIES:
        return NOT_APPLICABLE_CATEGORIES[spec["category"]]
    if (spec.get("setup") or {}).get("dataSource"):
        return "real-world data fetched from a code host (not in ../shared)"
    for step in spec.get("steps", []):
        if step.get("action") in NOT_APPLICABLE_ACTIONS:
            return NOT_APPLICABLE_ACTIONS[step["action"]]
        if "expectedFile" in step:
            return "an editor's file output"
        state = step.get("expectedState") or {}
        for key in ROSTER_METADATA:
            if key in state:
                return ROSTER_METADATA[key]
        found = _display_key(state)
        if found:
            return found
    return None


def _display_key(value) -> str | None:
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "engines":
                continue
            if key in DISPLAY_KEYS:
                return DISPLAY_KEYS[key]
            found = _display_key(item)
            if found:
                return found
    elif isinstance(value, list):
        for item in value:
            found = _display_key(item)
            if found:
                return found
    return None


class Replay:
    def __init__(self, spec: dict):
        self.game = GameData(plain_setup(spec.get("setup") or {}))
        self.roster = Roster(self.game)
        self.outputs: dict[str, dict] = {}
        self.problems: list[tuple[str, str]] = []
        self.unsupported: list[str] = []

    def resolve(self, value):
        if not isinstance(value, str):
            return value

        def one(match):
            step, key = match.group(1), match.group(2)
            out = self.outputs.get(step, {})
            if key.startswith("selections."):
                return out.get("selections", {}).get(key.split(".", 1)[1], "?")
            return out.get(key, "?")
        return REFERENCE.sub(one, value)

    def item(self, uid):
        found = self.roster.by_uid.get(self.resolve(uid))
        if found is None:
            raise RosterError(f"no roster item {uid!r}")
        return found

    def act(self, step: dict) -> None:
        action = step["action"]
        get = lambda key: self.resolve(step.get(key))   # noqa: E731
        out: dict = {}
        if action in ("addForce", "addChildForce"):
            parent = self.item(step["forceId"]) if action == "addChildForce" else None
            before = set(self.roster.by_uid)
            force = add_force(self.roster, get("forceEntryId"), get("catalogueId"), parent)
            out["forceId"] = force.uid
            out["selections"] = {}
            for uid in self.roster.by_uid:
                item = self.roster.by_uid[uid]
                if uid not in before and getattr(item, "force", None) is force and item.parent is force:
                    out["selections"].setdefault(item.option.entry["id"], uid)
                    out["selections"].setdefault(item.entry_id, uid)
        elif action == "removeForce":
            remove_force(self.roster, self.item(step["forceId"]))
        elif action in ("selectEntry", "selectChildEntry"):
            container = self.item(step["selectionId"]) if action == "selectChildEntry" else self.item(step["forceId"])
            out["selectionId"] = select(self.roster, container, get("entryId")).uid
        elif action == "deselectSelection":
            deselect(self.roster, self.item(step["selectionId"]))
        elif action == "setSelectionCount":
            set_count(self.roster, self.item(step["selectionId"]), int(get("count")))
        elif action == "duplicateSelection":
            out["selectionId"] = duplicate(self.roster, self.item(step["selectionId"])).uid
        elif action == "duplicateForce":
            out["forceId"] = duplicate_force(self.roster, self.item(step["forceId"])).uid
        elif action == "setCostLimit":
            set_cost_limit(self.roster, get("costTypeId"), float(get("value")))
        else:
            raise Unsupported(f"action {action!r}")
        if step.get("id"):
            self.outputs[step["id"]] = out

    def expect(self, state: dict, number: int) -> None:
        unknown = not_compared(state)
        if unknown:
            raise Unsupported(f"an assertion on {unknown}, which the adapter does not compare")
        result = evaluate(self.roster)
        if result.unsupported:
            self.unsupported.extend(result.unsupported)
            return
        comparison = Comparison(self.roster, result)
        comparison.check_state(state)
        self.problems.extend((kind, f"step {number}: {text}") for kind, text in comparison.problems)


def run_spec(spec: dict, path: str = "") -> Outcome:
    category, name = spec.get("category", ""), spec.get("id", Path(path).stem)
    reason = not_applicable(spec)
    if reason:
        return Outcome(path, category, name, "not_applicable", reason)
    try:
        replay = Replay(spec)
        for number, step in enumerate(spec.get("steps", []), 1):
            if step.get("action"):
                replay.act(step)
            if step.get("expectedState") is not None:
                replay.expect(step["expectedState"], number)
    except (Unsupported, GameDataError, RosterError) as exc:
        return Outcome(path, category, name, "refused", f"{type(exc).__name__}: {exc}")
    if replay.unsupported:
        return Outcome(path, category, name, "refused", "; ".join(sorted(set(replay.unsupported))))
    if not replay.problems:
        return Outcome(path, category, name, "passed")
    kinds = {kind for kind, _text in replay.problems}
    status = next((SEVERITY[k] for k in ("legal", "illegal", "cost") if k in kinds), "wrong_other")
    return Outcome(path, category, name, status, problems=[f"{k}: {t}" for k, t in replay.problems])


def run_scenario(path: Path) -> Outcome:
    spec = yaml.safe_load(path.read_text())
    return run_spec(spec, str(path))


def scenario_paths(spec_dir: Path) -> list[Path]:
    """Every roster scenario under DIR (DIR itself, or DIR/specs/roster)."""
    root = spec_dir / "specs" / "roster" if (spec_dir / "specs" / "roster").is_dir() else spec_dir
    return sorted(root.rglob("*.yaml"))
