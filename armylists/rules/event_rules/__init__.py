"""A tournament's ruleset and the check of lists against it."""
