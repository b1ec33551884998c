"""BattleScribe data: import, the tree evaluator, the behaviour suite, rosters, the site's tree lists."""
