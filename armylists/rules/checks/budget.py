"""Rule types about the budget a list declares, rather than what it spends.

`starting_budget`: a list founded from nothing (a new Mordheim warband) has the book's starting budget
(`default_limit`, else the system's: 500 gold crowns, 600 for a warband whose own rules give more); a
founding roster that declares a larger budget spends gold it does not have.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from armylists.rules.report import Violation
from armylists.rules.checks.registry import check, violation

if TYPE_CHECKING:
    from armylists.rules.native.army import Army
    from armylists.rules.native.book import Rule


@check("starting_budget", subject={"type": "string"})
def starting_budget(army: "Army", rule: "Rule") -> Iterator[Violation]:
    """The list's limit at most its book's starting budget; `subject` names what is founded ("A new
    warband"). Exactly the starting budget passes; one more fails."""
    budget = army.own_book.default_limit
    if budget is None or army.limit <= budget:
        return
    unit = army.system.budget_unit
    subject = rule.params.get("subject", "A new list")
    yield violation(rule, "points.starting_budget",
                    f"{subject} of {army.own_book.name} starts with {budget} {unit}; this one declares "
                    f"{army.limit} {unit}, {army.limit - budget} {unit} more than it has.")
