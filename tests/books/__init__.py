"""Our own army books, rule by rule."""
