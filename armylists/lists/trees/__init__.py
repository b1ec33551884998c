"""Lists kept as roster trees: judged and edited by the tree evaluator over the book's stored game data."""
