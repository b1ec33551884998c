"""The rules engine: pure Python (stdlib, PyYAML, jsonschema, msgspec), no Django.

    library = load_tree(Path("rules_data"))
    book = library.book("t9a-0.11", "empire-of-sonnstahl", "0.11.1")
    report = validate(book, parse_roster_json(text))
"""
from armylists.rules.native.book import Book, Rule, System
from armylists.rules.checks import CHECKS
from armylists.rules.native.engine import validate
from armylists.rules.errors import ListDocumentError, RulesDataError, RulesError
from armylists.rules.reading.loader import Library, load_tree
from armylists.rules.report import Report, Violation
from armylists.rules.reading.roster import Roster, RosterUnit, parse_roster, parse_roster_json, roster_to_dict

__all__ = [
    "Book", "CHECKS", "Library", "ListDocumentError", "Report", "Roster", "RosterUnit", "Rule", "RulesDataError",
    "RulesError", "System", "Violation", "load_tree", "parse_roster", "parse_roster_json", "roster_to_dict",
    "validate",
]
