"""Importers: other builders' data turned into our rules data and list documents.

Pure Python like the engine (no Django): a management command reads the files, calls an importer and
stores or writes what it returns. Every importer validates its output through the engine's own loader,
so an imported book is held to the same checks as a hand-written one.

- `owb`, `owb_units`, `owb_notes`: Old World Builder's datasets -> army books and an item list.
- `owb_lists`: Old World Builder's saved lists (`.owb.json`) -> our list document.
"""
