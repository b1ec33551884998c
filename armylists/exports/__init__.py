"""Exports of a list: tournament text, the JSON document, and the printed (PDF) roster.

Each takes the Book, the Roster and the Report the engine gave, and never works a rule out again,
so what is printed cannot disagree with what the builder shows.
"""
from armylists.exports.checksum import checksum, document_json
from armylists.exports.text import export_text
from armylists.exports.text_read import ListTextError, parse_list_text

__all__ = ["ListTextError", "checksum", "document_json", "export_text", "parse_list_text"]
