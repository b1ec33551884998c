"""Our systems' rules reaching lists kept as BattleScribe roster trees."""
