"""Mordheim campaigns: a warband's life after each battle (the engine part, no Django).

tables.py reads the campaign tables (rules_data/mordheim/campaign/); state.py reads and writes the
campaign state a warband document carries (`campaign`); checks.py judges that state (the rule type
`campaign_state`); battle.py applies one battle's post-battle sequence; dice.py rolls or takes dice.
"""
