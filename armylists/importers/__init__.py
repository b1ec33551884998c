"""Importers: other builders' data turned into our rules data and list documents, one sub-package per
source.

The pure parts are plain Python like the engine (no Django): a management command reads the files,
calls an importer and stores or writes what it returns. Every importer validates its output through the
engine's own loader, so an imported book is held to the same checks as a hand-written one. Each
importer's Django side is a few named modules (docs/architecture.md): storing what it made, finding
the stored book a list names, and registering its list formats with armylists/listfiles/formats.py.

- `owb/`: Old World Builder's datasets -> army books and an item list; its saved lists and text export.
- `battlescribe/`: BattleScribe / New Recruit catalogues -> books; rosters (.ros, .rosz) in and out.
- `storing.py`: an import's books stored in the database, all or nothing.
"""
