"""Replaying WarHub's battlescribe-spec roster scenarios on armylists.rules.battlescribe (issue 21)."""
