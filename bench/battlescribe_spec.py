"""Run WarHub's battlescribe-spec roster scenarios on the BattleScribe tree evaluator (issue 21).

    python bench/battlescribe_spec.py --spec ../shared/external/battlescribe-spec [--json OUT] [--verbose]

Every `specs/roster/<category>/*.yaml` under DIR is replayed (tests/battlescribe/spec/adapter.py) and
counted per category and in total: found, applicable (not declared not applicable by category or kind),
passed, wrong "legal" (errors expected, none found: the one that must stay 0), wrong "illegal" (errors
found where none were expected), wrong cost, other wrong (structure, or errors not the expected ones),
refused (the evaluator named a construct it does not understand). The last line is always
`spec_pass P of A applicable (F found), wrong_legal W`.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from dataclasses import asdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.battlescribe.spec.adapter import run_scenario, scenario_paths  # noqa: E402

COLUMNS = ("found", "applicable", "passed", "wrong_legal", "wrong_illegal", "wrong_cost", "wrong_other", "refused")
HEADERS = ("found", "applic.", "passed", "wr.legal", "wr.illeg.", "wr.cost", "wr.other", "refused")


def tally(outcomes) -> dict[str, Counter]:
    per: dict[str, Counter] = defaultdict(Counter)
    for outcome in outcomes:
        for key in (outcome.category or "(none)", "total"):
            per[key]["found"] += 1
            if outcome.status != "not_applicable":
                per[key]["applicable"] += 1
                per[key][outcome.status] += 1
    return per


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", required=True, type=Path, help="the battlescribe-spec folder (or its specs/roster)")
    parser.add_argument("--json", type=Path, help="write every scenario's outcome and the counts here")
    parser.add_argument("--verbose", action="store_true", help="print each scenario that did not pass, and why")
    args = parser.parse_args(argv)
    paths = scenario_paths(args.spec)
    outcomes = [run_scenario(path) for path in paths]
    per = tally(outcomes)
    width = max([len(k) for k in per] + [8])
    print(f"{'category':<{width}} " + " ".join(f"{h:>9}" for h in HEADERS))
    for category in sorted(k for k in per if k != "total") + ["total"]:
        print(f"{category:<{width}} " + " ".join(f"{per[category][c]:>9}" for c in COLUMNS))
    if args.verbose:
        for outcome in outcomes:
            if outcome.status != "passed":
                detail = outcome.reason or "; ".join(outcome.problems[:3])
                print(f"  {outcome.status:15} {outcome.category}/{outcome.scenario}: {detail}")
    not_applicable = Counter(o.reason for o in outcomes if o.status == "not_applicable")
    print("not applicable: " + "; ".join(f"{reason} ({n})" for reason, n in not_applicable.most_common()))
    total = per["total"]
    if args.json:
        args.json.write_text(json.dumps({"counts": {k: dict(v) for k, v in per.items()},
                                         "scenarios": [asdict(o) for o in outcomes]}, indent=1))
    print(f"spec_pass {total['passed']} of {total['applicable']} applicable ({total['found']} found), "
          f"wrong_legal {total['wrong_legal']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
