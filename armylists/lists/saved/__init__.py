"""A stored list: who may see it, opened and saved, its edits, its history."""
