"""Mordheim campaigns on the site: a warband's battles recorded and undone (battles.py), over the engine's
post-battle sequence (rules/native/mordheim_campaign/)."""
