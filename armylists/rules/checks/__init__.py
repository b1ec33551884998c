"""The rule types: one small function per type, registered in CHECKS.

A rule in the data (`{id, type, params, source}`) names one of these by `type`. Each function reads the
resolved `Army` and yields `Violation`s whose message names the numbers. Bounds are inclusive and
percentages are compared in integers (`points * 100` against `percent * limit`), so "at most 25%"
passes at exactly 25% and fails one point above. See docs/rule-types.md for every type's parameters.
"""

from armylists.rules.checks import budget, composition, detachments, items, selections, tallies, units
from armylists.rules.checks.items import needed_equipment
from armylists.rules.checks.registry import CHECKS, DEFS, Check, check, per_unit, resolve_bound, violation
from armylists.rules.checks.selections import measure_count
from armylists.rules.native.mordheim_campaign import checks as mordheim_campaign  # campaign_state (issue 41)

# Each module registers its rule types in CHECKS when it is imported.
RULE_TYPE_MODULES = (composition, items, units, selections, budget, detachments, tallies, mordheim_campaign)

__all__ = ["CHECKS", "DEFS", "Check", "check", "measure_count", "needed_equipment", "per_unit", "resolve_bound",
           "violation"]
