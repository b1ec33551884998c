"""The evaluator's errors: a broken constraint, a hidden entry still selected, a cost limit over, a cost
type the roster names that the data does not have. Each is owned as BattleScribe owns it
(battlescribe-spec docs/error-assertions.md) and keeps BattleScribe's own wording beside a player's."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Error:
    owner_type: str           # roster | force | category | selection
    owner_ids: frozenset      # the ids the owner may be named by (entry, link, category, force entry)
    source_id: str            # the entry holding the constraint, "costLimits", or the hidden entry
    constraint_id: str        # the constraint's id, the cost type's, or "hidden"
    message: str
    severity: str = "error"
    instance: str = ""        # the force a force entry's limit was checked in (one error per force)
    # The uid of the selection the error is on (its first, where one limit is seen from several), for the
    # list pages to show it by its unit; no part of what makes two errors one.
    where: str = field(default="", compare=False)
    # The error in a player's words (words.py): the entry, how many in its scope, the bound and why it is
    # what it is here; `message` stays BattleScribe's own wording, as the behaviour suite compares it.
    words: str = field(default="", compare=False)
    kind: str = field(default="", compare=False)          # max | min | hidden | limit | cost_type (unknown)
    counted: tuple = field(default=(), compare=False)     # the uids of the selections the limit counted
    numbers: tuple = field(default=(), compare=False)     # (how many, the bound) of a broken limit
