"""List files in: reading every list format (our JSON and tournament text here; other tools' formats
through the registry in formats.py, which the importers fill in) for the commands, event uploads, the
API and the import page.
"""
